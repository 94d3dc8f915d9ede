import { afterEach, describe, expect, it } from 'vitest';
import { MockAdminError, openMockSession, type SharedMockServer } from '../../../src/entries/vitest.js';
import setup, { provideMockServer, SHARED_MOCK_KEY } from '../../../src/entries/vitest-global-setup.js';
import { VerificationError } from '../../../src/index.js';

// The one mock of a vitest run, in parts: the global setup's server and what it provides, and the sessions a
// test file makes in it over HTTP (openMockSession, under useMockSession). useMockSession itself, with
// vitest's provide and inject across workers, runs in the consumer project of check:packages
// (scripts/pack-consumer/sessions/). Importing the vitest entry extends expect: a file with modules of its own.

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

const teardowns: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const teardown of teardowns.splice(0)) await teardown();
});

/** The global setup run as vitest runs it, with a project that records what it is given. */
async function started(run: typeof setup = setup): Promise<SharedMockServer> {
  const provided = new Map<string, unknown>();
  const project = { provide: (key: string, value: unknown) => provided.set(key, value) };
  teardowns.push(await run(project as Parameters<typeof setup>[0]));
  expect([...provided.keys()]).toEqual([SHARED_MOCK_KEY]);
  return provided.get(SHARED_MOCK_KEY) as SharedMockServer;
}

async function list(baseURL: string, key: string): Promise<{ status: number; body: Loose }> {
  const response = await fetch(`${baseURL}/calls/?page_size=5`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.status, body: await response.json() };
}

describe('the global setup', () => {
  it('starts one server on a free loopback port and provides its addresses and admin token, plain strings', async () => {
    const shared = await started();
    expect(Object.keys(shared).sort()).toEqual(['adminToken', 'adminURL', 'apiRoot', 'baseURL']);
    expect(shared.apiRoot).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(shared.baseURL).toBe(`${shared.apiRoot}/v1`);
    expect(shared.adminURL).toBe(`${shared.apiRoot}/__admin/`);
    const sessions = await fetch(`${shared.adminURL}sessions`, {
      headers: { authorization: `Bearer ${shared.adminToken}` },
    });
    expect(((await sessions.json()) as Loose).data.map((info: Loose) => info.id)).toEqual(['default']);
  });

  it('its teardown closes the server', async () => {
    const shared = await started();
    await teardowns.pop()?.();
    await expect(fetch(`${shared.adminURL}sessions`)).rejects.toThrow();
  });

  it('provideMockServer passes the options to the server', async () => {
    const shared = await started((project) => provideMockServer(project, { maxSessions: 1 }));
    await openMockSession({}, shared);
    const full = await openMockSession({}, shared).catch((error: unknown) => error);
    expect(full).toBeInstanceOf(MockAdminError);
    expect(full).toMatchObject({ status: 409 });
    expect((full as MockAdminError).detail).toContain('The mock holds 1 sessions, its limit');
  });
});

describe('sessions over HTTP (openMockSession)', () => {
  it("each has its own keys, records and clock: one's deletion and clock move are not the other's", async () => {
    const shared = await started();
    const [one, two] = [
      await openMockSession({ clock: 'frozen' }, shared),
      await openMockSession({ clock: 'frozen' }, shared),
    ];
    expect(one.id).not.toBe(two.id);
    expect(one.keys.valid).not.toBe(two.keys.valid);
    expect(one.adminToken).not.toBe(shared.adminToken);
    expect(one.baseURL).toBe(shared.baseURL);

    const first = (await list(one.baseURL, one.keys.valid)).body.data[0];
    await one.admin(`records/calls/${first.id}`, { method: 'DELETE' });
    await one.admin('clock/advance', { body: { ms: 3_600_000 } });

    expect((await list(one.baseURL, one.keys.valid)).body.data.map((call: Loose) => call.id)).not.toContain(
      first.id,
    );
    expect((await list(two.baseURL, two.keys.valid)).body.data[0].id).toBe(first.id);
    expect((await one.admin<Loose>('')).now).toBe('2026-06-01T13:00:00.000Z');
    expect((await two.admin<Loose>('')).now).toBe('2026-06-01T12:00:00.000Z');
    // The default session is untouched too.
    const server = await fetch(`${shared.adminURL}`, {
      headers: { authorization: `Bearer ${shared.adminToken}` },
    });
    expect(((await server.json()) as Loose).records[0].calls).toBe(240);
  });

  it('takes the options of server.sessions.create, a RegExp route included', async () => {
    const shared = await started();
    const session = await openMockSession(
      {
        seed: 7,
        sizes: { calls: 3 },
        faultRate: [{ path: /^\/v1\/users\//, rate: 1, mix: [{ status: 503 }] }],
      },
      shared,
    );
    expect(session.created.records[0]?.calls).toBe(3);
    const users = await fetch(`${session.baseURL}/users/`, {
      headers: { authorization: `Bearer ${session.keys.valid}` },
    });
    expect(users.status).toBe(503);
    await expect(openMockSession({ faultRate: { path: /calls/i, rate: 1 } }, shared)).rejects.toThrow(
      /has flags, which the admin API cannot take/,
    );
    const refused = await openMockSession({ sizes: { calls: -1 } }, shared).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockAdminError);
    expect(refused).toMatchObject({ status: 400 });
  });

  it('verify passes, or throws a VerificationError with the near-miss report; admin refusals are MockAdminErrors', async () => {
    const shared = await started();
    const session = await openMockSession({ clock: 'frozen' }, shared);
    await list(session.baseURL, session.keys.valid);
    expect((await session.verify({ method: 'GET', path: /^\/v1\/calls\//, times: 1 })).count).toBe(1);
    const missed = await session
      .verify({ method: 'POST', path: '/v1/calls/' })
      .catch((error: unknown) => error);
    expect(missed).toBeInstanceOf(VerificationError);
    expect((missed as VerificationError).message).toContain('- method: expected "POST", received "GET"');

    const notFound = await session.admin('records/calls/nope').catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(MockAdminError);
    expect(notFound).toMatchObject({ status: 404 });
    expect((notFound as MockAdminError).message).toMatch(
      /^GET \/__admin\/records\/calls\/nope answered 404: /,
    );
  });

  it('end() ends it: its key and admin token reach nothing; ending again does nothing', async () => {
    const shared = await started();
    const session = await openMockSession({}, shared);
    expect((await list(session.baseURL, session.keys.valid)).status).toBe(200);
    await session.end();
    expect((await list(session.baseURL, session.keys.valid)).status).toBe(401);
    await session.end();
    await expect(session.admin('')).rejects.toMatchObject({ status: 410 });
  });

  it('without a server given or provided, says to add the global setup', async () => {
    await expect(openMockSession()).rejects.toThrow(
      "No mock server was provided to this test file: add globalSetup: ['@company-data/mock-server/vitest/global-setup']",
    );
  });
});
