import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createMockServer,
  DEFAULT_MAX_SESSIONS,
  formatRequestText,
  type MockServer,
  SessionRefusedError,
  startMockServer,
} from '../../../src/index.js';
import { unmatchedLine } from '../../../src/inspect/verify/unmatched.js';
import { call, type Loose } from './support.js';

// Sessions: isolated worlds in one server, reached by their keys, tokens and admin tokens.

const ADMIN = 'server-admin';

describe('sessions in process', () => {
  it('gives each session its own keys and tokens over the same records as the default world of its seed', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const one = server.sessions.create({ clock: 'frozen' });
    const two = server.sessions.create({ clock: 'frozen' });
    expect([one.id, two.id]).toEqual(['s1', 's2']);
    const values = [
      server.keys.valid,
      one.keys.valid,
      two.keys.valid,
      one.keys.throttled,
      two.keys.throttled,
    ];
    expect(new Set(values).size).toBe(5);
    expect(new Set([server.tokens.lead, one.tokens.lead, two.tokens.lead]).size).toBe(3);
    expect(one.keys.valid).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
    // The same seed, the same records: only the secrets differ.
    const page = (key: string) =>
      server.handle({
        method: 'GET',
        path: '/v1/calls/',
        search: '?page_size=5',
        headers: { authorization: `Bearer ${key}` },
      });
    const bodies = await Promise.all([server.keys.valid, one.keys.valid, two.keys.valid].map(page));
    const texts = bodies.map((result) => (result.drop ? '' : result.response.body));
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
    await server.close();
  });

  it("makes keys of its own at run time, none of them a well-known key or another session's", () => {
    const server = createMockServer();
    const one = server.sessions.create();
    const two = server.sessions.create();
    // The first six once repeated the session's well-known keys (drawn from the same stream) and threw.
    const made = [one, two].flatMap((session) => Array.from({ length: 7 }, () => session.createKey()));
    const wellKnown = [server, one, two].flatMap((world) => Object.values(world.keys));
    expect(new Set([...made, ...wellKnown]).size).toBe(14 + 21);
  });

  it('keeps record changes, clocks, faults, quotas and journals apart', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const one = server.sessions.create({ clock: 'frozen', quota: { requests: 2, perSeconds: 60 } });
    const two = server.sessions.create({ clock: 'frozen' });
    const list = async (key: string, path = '/v1/calls/') => {
      const result = await server.handle({
        method: 'GET',
        path,
        search: '?page_size=1',
        headers: { authorization: `Bearer ${key}` },
      });
      if (result.drop) throw new Error('dropped');
      return { status: result.response.status, body: JSON.parse(result.response.body) as Loose };
    };
    const first = (await list(one.keys.valid)).body.data[0].id as string;
    one.records.delete('calls', first);
    one.clock.advance(3_600_000);
    one.injectFault({ path: '/v1/users/', status: 503 });

    expect((await list(two.keys.valid)).body.data[0].id).toBe(first);
    expect((await list(server.keys.valid)).body.data[0].id).toBe(first);
    expect(two.clock.now().toISOString()).toBe(server.clock.now().toISOString());
    expect(one.clock.now().getTime() - two.clock.now().getTime()).toBe(3_600_000);
    expect((await list(two.keys.valid, '/v1/users/')).status).toBe(200);
    // An armed fault answers before the quota counts; the hour moved opened a new window of one's quota of
    // 2, spent by the next two lists, and the third is its 429, nobody else's.
    expect((await list(one.keys.valid, '/v1/users/')).status).toBe(503);
    expect((await list(one.keys.valid)).status).toBe(200);
    expect((await list(one.keys.valid)).status).toBe(200);
    expect((await list(one.keys.valid)).status).toBe(429);
    expect((await list(two.keys.valid)).status).toBe(200);

    expect(one.journal().map((entry) => entry.status)).toEqual([200, 503, 200, 200, 429]);
    expect(two.journal().map((entry) => entry.status)).toEqual([200, 200, 200]);
    expect(server.journal().map((entry) => entry.status)).toEqual([200]);
    expect(one.changes().map((change) => [change.kind, change.id])).toEqual([['deleted', first]]);
    expect(two.changes()).toEqual([]);
    await server.close();
  });

  it("writes the session's id in the server's request log", async () => {
    const lines: string[] = [];
    const server = createMockServer({
      clock: 'frozen',
      onRequest: (event) => lines.push(formatRequestText(event)),
    });
    const session = server.sessions.create({ clock: 'frozen' });
    for (const key of [server.keys.valid, session.keys.valid])
      await server.handle({
        method: 'GET',
        path: '/v1/teams/',
        search: '',
        headers: { authorization: `Bearer ${key}` },
      });
    expect(lines).toEqual([
      expect.stringMatching(
        /^2026-06-01T12:00:00\.000Z GET \/v1\/teams\/ 200 served \d+\.\dms key="Full access"$/,
      ),
      expect.stringMatching(
        /^2026-06-01T12:00:00\.000Z GET \/v1\/teams\/ 200 served \d+\.\dms session=s1 key="Full access"$/,
      ),
    ]);
  });

  it('names the session of a request it could not match', async () => {
    const warned: string[] = [];
    const server = createMockServer({ onUnmatchedRequest: (request) => warned.push(unmatchedLine(request)) });
    const session = server.sessions.create();
    await server.handle({
      method: 'GET',
      path: '/v1/user/',
      search: '',
      headers: { authorization: `Bearer ${session.keys.valid}` },
    });
    await server.handle({
      method: 'GET',
      path: '/v1/user/',
      search: '',
      headers: { authorization: `Bearer ${server.keys.valid}` },
    });
    expect(session.unmatched().map((request) => request.session)).toEqual(['s1']);
    expect(server.unmatched().map((request) => request.session)).toEqual([undefined]);
    expect(warned).toEqual([
      'Unmatched request in session s1: GET /v1/user/, answered 404: No operation of the API has this path (did you mean /v1/users/?).',
      'Unmatched request: GET /v1/user/, answered 404: No operation of the API has this path (did you mean /v1/users/?).',
    ]);
  });

  it('resets one session alone', () => {
    const server = createMockServer({ clock: 'frozen' });
    const one = server.sessions.create({ clock: 'frozen' });
    const two = server.sessions.create({ clock: 'frozen' });
    one.clock.advance(60_000);
    two.clock.advance(120_000);
    two.reset();
    expect(one.clock.now().getTime() - server.clock.now().getTime()).toBe(60_000);
    expect(two.clock.now().getTime()).toBe(server.clock.now().getTime());
  });

  it('refuses a session past the cap, and a key or token another session holds, naming it', () => {
    const server = createMockServer({ maxSessions: 2 });
    const fixture = {
      companies: [{ name: 'Acme', keys: [{ value: 'svc_live_shared' }] }],
    };
    const one = server.sessions.create({ fixture });
    expect(() => server.sessions.create({ fixture })).toThrow(
      expect.objectContaining({
        status: 409,
        message: expect.stringMatching(/^An API key given is already a key of session s1: /),
      }),
    );
    expect(() => server.createKey({ value: 'svc_live_shared' })).toThrow(/already a key of session s1/);
    expect(() => one.createKey({ value: server.keys.valid })).toThrow(/already a key of the default session/);
    server.sessions.create();
    let refusal: unknown;
    try {
      server.sessions.create();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SessionRefusedError);
    expect(refusal).toMatchObject({ status: 409 });
    expect((refusal as Error).message).toMatch(/^The mock holds 2 sessions, its limit: end one /);
    expect(server.sessions.size).toBe(2);
    one.end();
    expect(server.sessions.create().id).toBe('s4');
  });

  it('refuses to end the default session, which ends with the server', () => {
    const server = createMockServer();
    expect(() => server.sessions.end('default')).toThrow(/^The default session ends with the server/);
    expect(server.sessions.get('default')).toBe(server);
    expect(server.sessions.end('s9')).toBe(false);
  });

  it('remembers the keys and webhook tokens of the last 1,000 ended sessions', async () => {
    const server = createMockServer({ maxSessions: 1 });
    const small = { sizes: { users: 0, teams: 0, recordings: 0, calls: 0 } };
    const ended = Array.from({ length: 1001 }, () => {
      const session = server.sessions.create(small);
      session.end();
      return { key: session.keys.valid, token: session.tokens.lead };
    });
    const detail = async (key: string) => {
      const result = await server.handle({
        method: 'GET',
        path: '/v1/teams/',
        search: '',
        headers: { authorization: `Bearer ${key}` },
      });
      return result.drop ? '' : JSON.parse(result.response.body).error.detail;
    };
    const tokenReason = async (token: string) => {
      await server.handle({
        method: 'POST',
        path: `/messaging-agent/webhook/${token}/`,
        search: '',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"phone_number":"+14155550100"}'),
      });
      return server.unmatched().at(-1)?.detail;
    };
    type Secrets = { key: string; token: string };
    const [oldest, second, newest] = [ended[0], ended[1], ended[1000]] as [Secrets, Secrets, Secrets];
    expect(await detail(oldest.key)).toBe('Invalid API key.');
    expect(await detail(second.key)).toMatch(/^Session s2 was ended at /);
    expect(await detail(newest.key)).toMatch(/^Session s1001 was ended at /);
    expect(await tokenReason(oldest.token)).toBe(
      'No live lead source has this webhook token (unknown, or deleted).',
    );
    expect(await tokenReason(second.token)).toMatch(/^Session s2 was ended at .*this webhook token/);
    expect(await tokenReason(newest.token)).toMatch(/^Session s1001 was ended at .*this webhook token/);
    await server.close();
  });

  it('checks its limits when the server is made', () => {
    expect(() => createMockServer({ maxSessions: -1 })).toThrow(
      'maxSessions must be a whole number ≥ 0 (got -1)',
    );
    expect(() => createMockServer({ sessionIdleMs: 0 })).toThrow(
      'sessionIdleMs must be a whole number of ms ≥ 1, or false (got 0)',
    );
    expect(DEFAULT_MAX_SESSIONS).toBe(500);
  });

  describe('idle sessions', () => {
    beforeEach(() => {
      vi.useFakeTimers({ now: Date.parse('2026-11-01T00:00:00Z') });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('ends a session unused for the idle time (wall time), not one in use', async () => {
      const server = createMockServer({ sessionIdleMs: 60_000 });
      const idle = server.sessions.create();
      const used = server.sessions.create();
      expect(server.sessions.info(idle.id)?.idleEndsAt).toBe('2026-11-01T00:01:00.000Z');
      vi.advanceTimersByTime(40_000);
      await server.handle({
        method: 'GET',
        path: '/v1/teams/',
        search: '',
        headers: { authorization: `Bearer ${used.keys.valid}` },
      });
      vi.advanceTimersByTime(30_000);
      expect(server.sessions.list().map((info) => info.id)).toEqual(['default', used.id]);
      // The ended session's key reaches nothing of its own: the default world answers it, as any unknown key.
      const result = await server.handle({
        method: 'GET',
        path: '/v1/teams/',
        search: '',
        headers: { authorization: `Bearer ${idle.keys.valid}` },
      });
      expect(result.drop ? 0 : result.response.status).toBe(401);
      expect(server.unmatched().map((entry) => entry.reason)).toEqual(['invalid_key']);
      vi.advanceTimersByTime(60_000);
      expect(server.sessions.size).toBe(0);
      const gone = await server.handle({
        method: 'GET',
        path: '/__admin/clock',
        search: '',
        headers: { authorization: `Bearer ${idle.adminToken}` },
      });
      expect(gone.drop ? '' : JSON.parse(gone.response.body).error.detail).toMatch(
        /^Session s1 ended after 1 minute unused at 2026-11-01T00:01:00\.000Z: /,
      );
      await server.close();
    });
  });
});

describe('sessions over HTTP', () => {
  let server: MockServer;
  beforeEach(async () => {
    server = await startMockServer({ port: 0, adminToken: ADMIN, clock: 'frozen', maxSessions: 3 });
  });
  afterEach(() => server.close());
  const admin = (path: string, token = ADMIN, init: { method?: string; body?: unknown } = {}) =>
    call(`${server.apiRoot}/__admin/${path}`, token, init);

  it('creates a session, answering its id, admin token, keys, tokens and addresses', async () => {
    const created = await admin('sessions', ADMIN, {
      method: 'POST',
      body: { seed: 3, clock: 'frozen', sizes: { calls: 7 } },
    });
    expect(created.status).toBe(201);
    const session = server.sessions.get('s1');
    expect(created.json).toMatchObject({
      id: 's1',
      adminToken: session?.adminToken,
      baseURL: server.baseURL,
      apiRoot: server.apiRoot,
      keys: session?.keys,
      tokens: session?.tokens,
      clock: 'frozen',
    });
    expect(created.json.records[0]).toMatchObject({ calls: 7 });
    const listed = await admin('sessions');
    expect(listed.json.data.map((info: Loose) => info.id)).toEqual(['default', 's1']);
    const calls = await call(`${server.baseURL}/calls/?page_size=100`, created.json.keys.valid);
    expect(calls.json.data).toHaveLength(7);
  });

  it('routes webhooks by token and admin requests by admin token', async () => {
    const { json: made } = await admin('sessions', ADMIN, { method: 'POST', body: { clock: 'frozen' } });
    const member = { phone: '+14155550100', first_name: 'Ada' };
    const posted = await call(
      `${server.baseURL}/outbound-campaigns/webhook/${made.tokens.audience}/`,
      'unused',
      {
        method: 'POST',
        body: member,
      },
    );
    expect(posted.status).toBe(201);
    expect(server.sessions.get('s1')?.members(made.tokens.audience)).toHaveLength(1);
    expect(server.members(server.tokens.audience)).toHaveLength(0);

    const moved = await admin('clock/advance', made.adminToken, { method: 'POST', body: { ms: 5_000 } });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.json.now) - server.clock.nowMs()).toBe(5_000);
    // The server's admin token still reaches the default world.
    expect((await admin('clock')).json.now).toBe(server.clock.now().toISOString());
  });

  it("keeps a session's admin token to its own session", async () => {
    const { json: one } = await admin('sessions', ADMIN, { method: 'POST', body: {} });
    const { json: two } = await admin('sessions', ADMIN, { method: 'POST', body: {} });
    const forbidden = await admin('sessions', one.adminToken);
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error.detail).toMatch(
      /^This is session s1's admin token, which reaches only its own session/,
    );
    expect((await admin(`sessions/${two.id}`, one.adminToken, { method: 'DELETE' })).status).toBe(403);
    expect((await admin('sessions', one.adminToken, { method: 'POST', body: {} })).status).toBe(403);
    expect((await admin(`sessions/${one.id}`, one.adminToken)).json.data.id).toBe('s1');
    // Its summary says which world its token reaches; the server's says its own.
    expect((await admin('', one.adminToken)).json).toMatchObject({ id: 's1', keys: one.keys });
    expect((await admin('', ADMIN)).json).toMatchObject({ id: 'default', keys: server.keys });
    expect((await admin(`sessions/${one.id}`, one.adminToken, { method: 'DELETE' })).status).toBe(200);
    // Ended: its admin token reaches nothing, and the answer says why.
    const gone = await admin('clock', one.adminToken);
    expect(gone.status).toBe(410);
    expect(gone.json.error.detail).toMatch(
      /^Session s1 was ended at \d{4}-\d\d-\d\dT[\d:.]+Z: its keys, tokens and admin token reach nothing now\. Make a new one with POST \/__admin\/sessions \(the server's admin token\)\.$/,
    );
    expect((await admin('clock', 'never-a-token')).status).toBe(401);
    expect(server.sessions.list().map((info) => info.id)).toEqual(['default', 's2']);
  });

  it("answers an ended session's keys with the API's 401 saying when the session ended", async () => {
    // A known wall time for the registry (made with the first session): the listener's timers stay real.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-01T09:30:00Z') });
    try {
      const { json: made } = await admin('sessions', ADMIN, { method: 'POST', body: {} });
      const mine = 'svc_live_made_by_the_session';
      const added = await admin('keys', made.adminToken, { method: 'POST', body: { value: mine } });
      expect(added.status).toBe(201);
      expect((await call(`${server.baseURL}/calls/?page_size=1`, made.keys.valid)).status).toBe(200);
      expect((await admin(`sessions/${made.id}`, ADMIN, { method: 'DELETE' })).status).toBe(200);
      const ended =
        "Session s1 was ended at 2026-11-01T09:30:00.000Z: this API key was one of its keys and reaches nothing now. Make a new session with POST /__admin/sessions (the server's admin token) and use its keys.";
      // Its well-known keys, and one made at run time, on lists and a retrieve (the key is read before the id).
      for (const [key, path] of [
        [made.keys.valid, 'calls/?page_size=1'],
        [made.keys.throttled, 'users/'],
        [mine, 'teams/3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c/'],
      ]) {
        expect(await call(`${server.baseURL}/${path}`, key as string)).toEqual({
          status: 401,
          json: { error: { detail: ended } },
        });
      }
      // A key never seen gets the API's words, and an unknown path its 404, whatever the key.
      expect(await call(`${server.baseURL}/calls/`, 'svc_live_never_a_key')).toEqual({
        status: 401,
        json: { error: { detail: 'Invalid API key.' } },
      });
      expect((await call(`${server.baseURL}/call/`, made.keys.valid)).status).toBe(404);
      expect(server.unmatched().map(({ reason, detail }) => [reason, detail])).toEqual([
        ['invalid_key', ended],
        ['invalid_key', ended],
        ['invalid_key', ended],
        ['invalid_key', 'The mock knows no such API key, or it is revoked.'],
        ['unknown_path', 'No operation of the API has this path (did you mean /v1/calls/?).'],
      ]);

      // Its key, held again by the server's own world and revoked there, is that world's revoked key.
      server.createKey({ value: mine });
      expect((await call(`${server.baseURL}/users/`, mine)).status).toBe(200);
      server.revokeKey(mine);
      expect((await call(`${server.baseURL}/users/`, mine)).json).toEqual({
        error: { detail: 'Invalid API key.' },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers an ended session's webhook tokens with the API's 404, and journals when the session ended", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-01T09:30:00Z') });
    try {
      const { json: made } = await admin('sessions', ADMIN, { method: 'POST', body: {} });
      const audience = `${server.baseURL}/outbound-campaigns/webhook/${made.tokens.audience}/`;
      const lead = `${server.apiRoot}/messaging-agent/webhook/${made.tokens.lead}/`;
      const member = { phone: '+14155550100' };
      expect((await call(audience, 'unused', { method: 'POST', body: member })).status).toBe(201);
      expect((await admin(`sessions/${made.id}`, ADMIN, { method: 'DELETE' })).status).toBe(200);
      // The answers are the API's own for a token it does not know, as for a token never seen.
      const never = '00000000-0000-4000-8000-000000000000';
      for (const url of [audience, audience.replace(made.tokens.audience, never)])
        expect((await call(url, 'unused', { method: 'POST', body: member })).status).toBe(404);
      for (const url of [lead, lead.replace(made.tokens.lead, never)])
        expect(await call(url, 'unused', { method: 'POST', body: member })).toEqual({
          status: 404,
          json: { error: 'Not found' },
        });
      // The journal, where near misses are read, says which were an ended session's.
      const ended =
        "Session s1 was ended at 2026-11-01T09:30:00.000Z: this webhook token was one of its audiences' or lead sources' and reaches nothing now. Use a webhook token of an open session (GET /__admin/ with its admin token lists them).";
      expect(server.unmatched().map(({ reason, detail }) => [reason, detail])).toEqual([
        ['unknown_webhook_token', ended],
        ['unknown_webhook_token', 'No audience has this webhook token.'],
        ['unknown_webhook_token', ended],
        ['unknown_webhook_token', 'No live lead source has this webhook token (unknown, or deleted).'],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 400, 404 and 409 saying what to do', async () => {
    const bad = await admin('sessions', ADMIN, { method: 'POST', body: { sizes: { calls: -1 } } });
    expect(bad).toMatchObject({
      status: 400,
      json: { error: { detail: 'sizes.calls: must be a whole number from 0 to 4294967295' } },
    });
    const unknown = await admin('sessions', ADMIN, { method: 'POST', body: { colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.detail).toMatch(/colour/);
    expect((await admin('sessions/s42')).json.error.detail).toBe(
      'No session has id "s42": it ended, or never was (GET /__admin/sessions lists them)',
    );
    expect((await admin('sessions/default', ADMIN, { method: 'DELETE' })).status).toBe(409);
    for (let i = 0; i < 3; i++) await admin('sessions', ADMIN, { method: 'POST', body: {} });
    const full = await admin('sessions', ADMIN, { method: 'POST', body: {} });
    expect(full.status).toBe(409);
    expect(full.json.error.detail).toMatch(/^The mock holds 3 sessions, its limit/);
  });
});
