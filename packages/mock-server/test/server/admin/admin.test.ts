import { ERROR_DETAILS } from '@company-data/contract';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/index.js';
import { AUDIENCE_TOKEN, sampleFixture } from '../../support/fixture-sample.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

describe('admin HTTP API', () => {
  let server: MockServer;
  beforeEach(async () => {
    // Frozen, so the times these tests read are exact; the running clock is tested below and in clock.test.ts.
    server = await startMockServer({ port: 0, adminToken: 'admin-secret', clock: 'frozen' });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await server.close();
  });

  async function admin(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await request(`${server.apiRoot}/__admin/${path}`, {
      method: method as 'GET',
      headers: {
        authorization: 'Bearer admin-secret',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, json: (text ? JSON.parse(text) : undefined) as Loose };
  }
  async function api(path: string, key = server.keys.valid) {
    const response = await request(`${server.baseURL}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      json: (await response.body.json()) as Loose,
    };
  }
  async function webhook(url: string, body: unknown) {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.statusCode, json: (await response.body.json()) as Loose };
  }

  it('requires the admin token', async () => {
    expect((await admin('GET', '', undefined, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect(
      (await admin('GET', '', undefined, { authorization: `Bearer ${server.keys.valid}` })).json,
    ).toEqual({
      error: {
        detail:
          'Invalid admin token. Send `Authorization: Bearer <admin token>`: company-data-mock prints it at start (the Admin API line of its banner; `adminToken` with --json), and in code it is `mock.adminToken`; random unless set with --admin-token or the adminToken option.',
      },
    });
    expect(server.adminToken).toBe('admin-secret');
  });

  it('describes the server', async () => {
    const { status, json } = await admin('GET', '');
    expect(status).toBe(200);
    expect(json).toEqual({
      id: 'default',
      baseURL: server.baseURL,
      apiRoot: server.apiRoot,
      openapiURL: `${server.apiRoot}/openapi.json`,
      adminURL: `${server.apiRoot}/__admin/`,
      uiURL: `${server.apiRoot}/__admin/ui`,
      keys: server.keys,
      tokens: server.tokens,
      now: '2026-06-01T12:00:00.000Z',
      clock: 'frozen',
      activity: false,
      webhooks: server.webhooks(),
      records: [
        {
          companyId: json.records[0].companyId,
          companyName: 'Acme Home Services',
          users: 12,
          teams: 4,
          recordings: 60,
          calls: 240,
          arrived: 0,
        },
        {
          companyId: json.records[1].companyId,
          companyName: 'Globex Contact Center',
          users: 5,
          teams: 2,
          recordings: 10,
          calls: 20,
          arrived: 0,
        },
      ],
      journals: {
        requests: { limit: 10_000, held: 0, dropped: 0, lastSeq: 0 },
        changes: { limit: 10_000, held: 0, dropped: 0, lastSeq: 0 },
      },
      memory: {
        rss: expect.any(Number),
        heapUsed: expect.any(Number),
        heapTotal: expect.any(Number),
        external: expect.any(Number),
        arrayBuffers: expect.any(Number),
      },
    });
    expect(json.webhooks.audiences.length).toBeGreaterThan(0);
    // The process's own figures, in bytes: more than a few megabytes, less than what a test machine has.
    expect(json.memory.rss).toBeGreaterThan(json.memory.heapUsed);
    expect(json.memory.heapUsed).toBeGreaterThan(4 * 2 ** 20);
  });

  it('moves, freezes and resumes the clock', async () => {
    expect((await admin('GET', 'clock')).json).toEqual({ now: '2026-06-01T12:00:00.000Z', frozen: true });
    expect((await admin('POST', 'clock/advance', { ms: 60_000 })).json).toEqual({
      now: '2026-06-01T12:01:00.000Z',
      frozen: true,
    });
    expect((await admin('POST', 'clock/set', { time: '2027-01-01T00:00:00Z' })).json.now).toBe(
      '2027-01-01T00:00:00.000Z',
    );
    expect(server.clock.now().toISOString()).toBe('2027-01-01T00:00:00.000Z');
    // Running, the clock moves with real time (Date.now), faked here: 1.5 s pass between resume and freeze.
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await admin('POST', 'clock/resume')).json.frozen).toBe(false);
    expect(server.clock.frozen).toBe(false);
    vi.advanceTimersByTime(1_500);
    const frozen = (await admin('POST', 'clock/freeze')).json;
    expect(frozen).toEqual({ now: '2027-01-01T00:00:01.500Z', frozen: true });
    vi.advanceTimersByTime(1_500);
    expect(server.clock.now().toISOString()).toBe('2027-01-01T00:00:01.500Z');
    vi.useRealTimers();
    expect((await admin('POST', 'clock/advance', { ms: -1 })).status).toBe(400);
    expect((await admin('POST', 'clock/set', { time: 'never' })).json.error.detail).toMatch(/valid time/);
  });

  it('lists keys without their values and gives one key its own quota', async () => {
    const listed = (await admin('GET', 'keys')).json.data;
    expect(JSON.stringify(listed)).not.toContain(server.keys.valid);
    expect(listed.find((key: Loose) => key.name === 'Throttled')).toMatchObject({
      quota: { requests: 5, perSeconds: 5 },
      companyName: 'Acme Home Services',
      revoked: false,
      expiresAt: null,
    });
    expect(listed.find((key: Loose) => key.name === 'Full access').quota).toBeNull();

    const created = await admin('POST', 'keys', { name: 'slow', quota: { requests: 1, perSeconds: 30 } });
    const slow: string = created.json.value;
    expect((await api('/teams/', slow)).status).toBe(200);
    expect((await api('/teams/', slow)).headers['retry-after']).toBe('30');
    expect((await api('/teams/')).status).toBe(200);

    expect((await admin('POST', 'keys/quota', { value: slow, quota: false })).status).toBe(200);
    expect((await api('/teams/', slow)).status).toBe(200);
    await admin('POST', 'keys/quota', {
      value: server.keys.valid,
      quota: { requests: 1, perSeconds: 9 },
    });
    expect((await api('/teams/')).status).toBe(200);
    expect((await api('/teams/')).headers['retry-after']).toBe('9');
    await admin('POST', 'keys/quota', { value: server.keys.valid, quota: null });
    expect((await api('/teams/')).status).toBe(200);

    expect(
      (await admin('POST', 'keys/quota', { value: 'svc_live_nobody', quota: false })).json.error.detail,
    ).toBe('Unknown API key');
    expect(
      (await admin('POST', 'keys/quota', { value: slow, quota: { requests: 0, perSeconds: 1 } })).status,
    ).toBe(400);
  });

  it('lists every audience and lead source with its webhook URL', async () => {
    const { audiences, leadSources } = (await admin('GET', 'webhooks')).json;
    expect(audiences[0]).toMatchObject({
      token: server.tokens.audience,
      url: `${server.baseURL}/outbound-campaigns/webhook/${server.tokens.audience}/`,
      companyName: 'Acme Home Services',
    });
    const deleted = leadSources.find((source: Loose) => source.token === server.tokens.deletedLead);
    expect(deleted).toMatchObject({
      deleted: true,
      url: `${server.apiRoot}/messaging-agent/webhook/${deleted.token}/`,
    });
    expect(deleted.deletedAt < '2026-06-01T12:00:00.000Z').toBe(true);
    expect(
      leadSources.filter((source: Loose) => !source.deleted).map((source: Loose) => source.companyName),
    ).toEqual(['Acme Home Services', 'Globex Contact Center']);
    expect((await webhook(deleted.url, { phone_number: '415-555-0100' })).status).toBe(404);
  });

  it('creates, revokes and expires keys', async () => {
    const created = await admin('POST', 'keys', { name: 'ci', permissions: ['users'] });
    expect(created.status).toBe(201);
    const value: string = created.json.value;
    expect(value).toMatch(/^svc_live_/);
    expect((await api('/users/', value)).status).toBe(200);
    expect((await api('/calls/', value)).status).toBe(403);
    await admin('POST', 'keys/revoke', { value });
    expect((await api('/users/', value)).json.error.detail).toBe(ERROR_DETAILS.invalidKey);
    const other = (await admin('POST', 'keys', { value: 'svc_live_admin_made', expiresAt: null })).json.value;
    await admin('POST', 'keys/expire', { value: other });
    expect((await api('/users/', other)).json.error.detail).toBe(ERROR_DETAILS.expiredKey);
    expect((await admin('POST', 'keys/revoke', { value: 'svc_live_nobody' })).json.error.detail).toBe(
      'Unknown API key',
    );
    expect((await admin('POST', 'keys', { permissions: ['everything'] })).json.error.detail).toMatch(
      /^permissions/,
    );
  });

  it('sets quotas', async () => {
    await admin('POST', 'quota', { requests: 1, perSeconds: 30 });
    expect((await api('/teams/')).status).toBe(200);
    const throttled = await api('/teams/');
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('30');
    await admin('POST', 'quota', false);
    expect((await api('/teams/')).status).toBe(200);
    expect((await admin('POST', 'quota', { requests: 0, perSeconds: 1 })).status).toBe(400);
  });

  it('injects faults by path or pattern', async () => {
    expect((await admin('POST', 'faults', { path: '/v1/teams/', status: 503 })).status).toBe(201);
    expect((await api('/teams/')).status).toBe(503);
    await admin('POST', 'faults', {
      pathPattern: '^/v1/users/',
      status: 500,
      body: { oops: true },
      times: 2,
    });
    expect((await api('/users/')).json).toEqual({ oops: true });
    await admin('POST', 'faults', { pathPattern: 'x', path: '/v1/' });
    expect((await admin('POST', 'faults', { pathPattern: 'x', path: '/v1/' })).json.error.detail).toMatch(
      /not both/,
    );
  });

  it('sets and removes a latency profile and fault rates, per route, and refuses bad ones', async () => {
    expect(
      (await admin('POST', 'latency', [{ pathPattern: '^/v1/teams/', latency: { fixedMs: 15 } }])).status,
    ).toBe(200);
    await api('/teams/');
    await api('/users/');
    expect((await admin('POST', 'latency', { minMs: 1, maxMs: 2 })).status).toBe(200);
    await api('/users/');
    expect((await admin('POST', 'latency', false)).status).toBe(200);
    await api('/users/');
    expect(
      (await admin('POST', 'fault-rate', { path: '/v1/teams/', rate: 1, mix: [{ htmlPage: true }], max: 1 }))
        .status,
    ).toBe(200);
    expect((await api('/users/')).status).toBe(200);
    const page = await request(`${server.baseURL}/teams/`, {
      headers: { authorization: `Bearer ${server.keys.valid}` },
    });
    expect(page.statusCode).toBe(502);
    expect(await page.body.text()).toMatch(/<html>/);
    expect((await api('/teams/')).status).toBe(200);
    expect((await admin('POST', 'fault-rate', false)).status).toBe(200);
    const journal = (await admin('GET', 'journal')).json.data as { latencyMs: number; fault: unknown }[];
    expect(journal.map((entry) => entry.latencyMs)).toEqual([15, 0, expect.any(Number), 0, 0, 0, 0]);
    expect(journal[5]?.fault).toEqual({ htmlPage: true, fromRate: true });

    expect((await admin('POST', 'latency', { minMs: 9, maxMs: 1 })).json.error.detail).toMatch(/minMs/);
    expect((await admin('POST', 'latency', { fastMs: 1 })).status).toBe(400);
    expect((await admin('POST', 'fault-rate', { rate: 1.5 })).status).toBe(400);
    expect((await admin('POST', 'fault-rate', { rate: 0.1, mix: [] })).status).toBe(400);
    expect(
      (await admin('POST', 'fault-rate', { rate: 0.1, path: '/v1/', pathPattern: 'x' })).json.error.detail,
    ).toMatch(/not both/);
  });

  it('arms body faults', async () => {
    expect((await admin('POST', 'faults', { path: '/v1/teams/', cutAfterBytes: 5 })).status).toBe(201);
    await expect(api('/teams/')).rejects.toThrow();
    expect((await admin('POST', 'faults', { path: '/v1/teams/', malformedJson: true })).status).toBe(201);
    await expect(api('/teams/')).rejects.toThrow(SyntaxError);
    const drip = { path: '/v1/teams/', drip: { bytes: 4096, everyMs: 1 } };
    expect((await admin('POST', 'faults', drip)).status).toBe(201);
    expect((await api('/teams/')).status).toBe(200);
    expect((await admin('POST', 'faults', { drip: { bytes: 0, everyMs: 1 } })).status).toBe(400);
  });

  it('shows and clears the journal, which never includes admin requests', async () => {
    await api('/teams/?page=1');
    const { json } = await admin('GET', 'journal');
    expect(json.data).toHaveLength(1);
    expect(json.data[0]).toMatchObject({ path: '/v1/teams/', query: { page: '1' }, outcome: 'served' });
    await admin('DELETE', 'journal');
    expect((await admin('GET', 'journal')).json.data).toEqual([]);
  });

  it('shows members, conversations and leads, and makes lead processing fail', async () => {
    await webhook(`${server.baseURL}/outbound-campaigns/webhook/${server.tokens.audience}/`, {
      email: 'x@example.com',
    });
    const members = await admin('GET', `audiences/${server.tokens.audience}/members`);
    expect(members.json.data.map((m: { email: string }) => m.email)).toEqual(['x@example.com']);
    expect((await admin('GET', 'audiences/3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c/members')).status).toBe(400);

    await admin('POST', 'leads/fail', { times: 1 });
    const lead = `${server.apiRoot}/messaging-agent/webhook/${server.tokens.lead}/`;
    expect((await webhook(lead, { phone_number: '415-555-0110' })).status).toBe(200);
    expect((await webhook(lead, { phone_number: '415-555-0110' })).status).toBe(200);
    expect((await admin('GET', 'conversations')).json.data).toHaveLength(1);
    const leads = (await admin('GET', 'leads')).json.data;
    expect(leads.map((l: { status: string }) => l.status)).toEqual(['failed', 'queued']);
  });

  it('loads fixtures, reseeds and resets', async () => {
    const bad = await admin('POST', 'fixture', { companies: [{ name: 'A', users: [{ id: 'nope' }] }] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.detail).toMatch(/companies\[0\]\.users\[0\]/);
    expect(bad.json.error.issues.length).toBeGreaterThan(1);
    const loaded = await admin('POST', 'fixture', sampleFixture());
    expect(loaded.json.tokens.audience).toBe(AUDIENCE_TOKEN);
    expect((await api('/users/', 'svc_live_fixture_key')).json.pagination.count).toBe(2);

    const reseeded = await admin('POST', 'seed', { seed: 5, sizes: { users: 2 } });
    expect((await api('/users/', reseeded.json.keys.valid)).json.pagination.count).toBe(2);
    await admin('POST', 'clock/advance', { ms: 1000 });
    expect((await admin('POST', 'reset')).json.now).toBe('2026-06-01T12:00:00.000Z');
    expect((await admin('POST', 'seed', { sizes: { users: -1 } })).status).toBe(400);
  });

  it('answers 404, 405, 400, 413 and 415 for bad admin requests', async () => {
    expect((await admin('GET', 'nothing')).status).toBe(404);
    expect((await admin('GET', 'reset')).status).toBe(405);
    expect((await admin('POST', 'clock/advance', '{')).status).toBe(400);
    expect((await admin('POST', 'clock/advance', 'ms=1', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await admin('POST', 'fixture', 'x'.repeat(2 * 1024 * 1024))).status).toBe(413);
    expect((await admin('GET', 'audiences/%E0%A4%A/members')).status).toBe(400);
  });
});
