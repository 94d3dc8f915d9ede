import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createMockServer,
  type MockServer,
  SessionRefusedError,
  startMockServer,
} from '../../../src/index.js';
import { everyBody, get, post } from '../state/support.js';
import { call } from './support.js';

// A session's state over HTTP, as a suite in another language keeps a failing test's world: saved with
// GET /__admin/state (the session's admin token), made again with POST /__admin/sessions {state}, in the
// same server or another, byte for byte, activity and all, on a frozen clock.

const ADMIN = 'server-admin';

const admin = (
  server: MockServer,
  path: string,
  token = ADMIN,
  init: { method?: string; body?: unknown } = {},
) => call(`${server.apiRoot}/__admin/${path}`, token, init);

describe('a session saved and made again over HTTP', () => {
  let server: MockServer;
  let other: MockServer;
  beforeEach(async () => {
    server = await startMockServer({ port: 0, adminToken: ADMIN });
    other = await startMockServer({ port: 0, adminToken: ADMIN });
  });
  afterEach(async () => {
    await server.close();
    await other.close();
  });

  it('gives the same bodies, and the same future, in this server and another', async () => {
    const { json: made } = await admin(server, 'sessions', ADMIN, {
      method: 'POST',
      body: { seed: 5, clock: 'frozen', activity: { callsPerMinute: 30, excusedShare: 0.5 } },
    });
    const first = (await everyBody(server, made.keys.valid)).find((answer) =>
      answer.path.startsWith('/v1/calls/?'),
    );
    const callId = JSON.parse(first?.body ?? '{}').data[3].id as string;
    expect(
      (await admin(server, `records/calls/${callId}`, made.adminToken, { method: 'DELETE' })).status,
    ).toBe(200);
    const created = await admin(server, 'records/calls', made.adminToken, {
      method: 'POST',
      body: { summary: 'Kept.' },
    });
    expect(created.status).toBe(201);
    await admin(server, 'clock/advance', made.adminToken, { method: 'POST', body: { ms: 30 * 60_000 } });
    const saved = await admin(server, 'state', made.adminToken);
    expect(saved.status).toBe(200);
    expect(saved.json.version).toBe(1);
    const before = await everyBody(server, made.keys.valid);

    // While the session it was saved from is open, its keys are taken.
    const taken = await admin(server, 'sessions', ADMIN, { method: 'POST', body: { state: saved.json } });
    expect(taken.status).toBe(409);
    expect(taken.json.error.detail).toMatch(
      /^An API key given is already a key of session s1: .* A restored state keeps the keys and tokens it was saved with: end the session it was saved from first, restore it in another server, or make a copy of it \(copy: true, beside state\), whose well-known keys and webhook tokens are its own\.$/,
    );

    const elsewhere = await admin(other, 'sessions', ADMIN, { method: 'POST', body: { state: saved.json } });
    expect(elsewhere.status).toBe(201);
    expect((await admin(server, `sessions/${made.id}`, ADMIN, { method: 'DELETE' })).status).toBe(200);
    const again = await admin(server, 'sessions', ADMIN, { method: 'POST', body: { state: saved.json } });
    expect(again.status).toBe(201);
    expect(again.json.keys).toEqual(made.keys);
    expect(again.json.now).toBe('2026-06-01T12:30:00.000Z');

    const here = await everyBody(server, again.json.keys.valid);
    const there = await everyBody(other, elsewhere.json.keys.valid);
    expect(here.length).toBeGreaterThan(40);
    expect(here).toEqual(before);
    expect(there).toEqual(before);
    expect(here.some((answer) => answer.body.includes('"summary":"Kept."'))).toBe(true);
    expect(here.some((answer) => answer.body.includes(callId))).toBe(false);

    // The clock moves on in both: the same calls arrive, the same excusals come.
    for (const [mock, session] of [
      [server, again.json],
      [other, elsewhere.json],
    ] as const)
      await admin(mock, 'clock/advance', session.adminToken, { method: 'POST', body: { ms: 20 * 60_000 } });
    const hereLater = await everyBody(server, again.json.keys.valid);
    expect(await everyBody(other, elsewhere.json.keys.valid)).toEqual(hereLater);
    expect(hereLater).not.toEqual(here);
  });

  it('refuses a bad state, or options beside it, with 400 naming what is wrong', async () => {
    const bad = await admin(server, 'sessions', ADMIN, { method: 'POST', body: { state: { version: 2 } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.detail).toMatch(/^Invalid mock state at version: /);
    const state = (await admin(server, 'state')).json;
    const beside = await admin(server, 'sessions', ADMIN, { method: 'POST', body: { state, seed: 3 } });
    expect(beside.status).toBe(400);
    expect(beside.json.error.detail).toMatch(/seed/);
    expect(server.sessions.size).toBe(0);
  });
});

// Copies of one saved world (copy: true), as each worker of a parallel suite makes one of a prepared world:
// everything the state holds, but the well-known keys and webhook tokens a new session draws itself.

const COPY_WITHOUT_STATE =
  'copy goes with state: it makes a copy of a saved world (give both, e.g. { state, copy: true }); leave it out to make a new world from the options';

const AUDIENCE = (token: string) => `/v1/outbound-campaigns/webhook/${token}/`;
const LEAD = (token: string) => `/messaging-agent/webhook/${token}/`;

describe('copies of a saved world in process', () => {
  it('live beside the world they were saved from, each with its own keys and tokens over the same world', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const source = server.sessions.create({ clock: 'frozen', seed: 9 });
    const firstCall = JSON.parse((await get(server, '/v1/calls/?page_size=1', source.keys.valid)).body)
      .data[0].id as string;
    source.records.delete('calls', firstCall);
    source.records.create('users', { first_name: 'Ada' });
    source.clock.advance(10 * 60_000);
    source.revokeKey(source.keys.limited);
    // The throttled key's quota of 5: three spent in the window still open when saved.
    for (let i = 0; i < 3; i++)
      expect((await get(server, '/v1/teams/', source.keys.throttled)).status).toBe(200);
    const member = { phone: '+14155550100', first_name: 'Grace' };
    expect((await post(server, AUDIENCE(source.tokens.audience), member)).status).toBe(201);
    expect((await post(server, LEAD(source.tokens.lead), { phone_number: '+14155550101' })).status).toBe(200);
    const state = source.saveState();
    const before = await everyBody(server, source.keys.valid);

    const one = server.sessions.create({ state, copy: true });
    const two = server.sessions.create({ state, copy: true });
    const worlds = [source, one, two];
    for (const pick of [
      (world: typeof source) => world.keys.valid,
      (world: typeof source) => world.keys.throttled,
      (world: typeof source) => world.tokens.audience,
      (world: typeof source) => world.tokens.lead,
    ])
      expect(new Set(worlds.map(pick)).size).toBe(3);
    expect(one.keys.valid).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);

    // The same records, changes and clock, each through its own key.
    expect(await everyBody(server, one.keys.valid)).toEqual(before);
    expect(await everyBody(server, two.keys.valid)).toEqual(before);
    expect(before.some((answer) => answer.body.includes('"first_name":"Ada"'))).toBe(true);
    expect(one.clock.now().toISOString()).toBe('2026-06-01T12:10:00.000Z');
    expect(two.clock.nowMs()).toBe(source.clock.nowMs());

    // The keys' saved records come along: revoked (at start and at run time), expired, and the quota's
    // window, with two requests of five left.
    for (const key of [one.keys.revoked, one.keys.limited])
      expect(await get(server, '/v1/users/', key)).toMatchObject({
        status: 401,
        body: expect.stringContaining('Invalid API key.'),
      });
    expect(await get(server, '/v1/users/', one.keys.expired)).toMatchObject({
      status: 401,
      body: expect.stringContaining('API key has expired.'),
    });
    const throttled = [];
    for (let i = 0; i < 3; i++) throttled.push((await get(server, '/v1/teams/', one.keys.throttled)).status);
    expect(throttled).toEqual([200, 200, 429]);
    expect((await get(server, '/v1/teams/', two.keys.throttled)).status).toBe(200);
    expect((await get(server, '/v1/users/', one.keys.noPermissions)).status).toBe(403);

    // A change in one copy is its own.
    const secondCall = JSON.parse((await get(server, '/v1/calls/?page_size=1', one.keys.valid)).body).data[0]
      .id as string;
    one.records.delete('calls', secondCall);
    expect((await get(server, `/v1/calls/${secondCall}/`, one.keys.valid)).status).toBe(404);
    expect((await get(server, `/v1/calls/${secondCall}/`, two.keys.valid)).status).toBe(200);
    expect((await get(server, `/v1/calls/${secondCall}/`, source.keys.valid)).status).toBe(200);
    // Its other company's key is the other company's still: the primary company's call is 404 to it.
    expect((await get(server, `/v1/calls/${secondCall}/`, two.keys.otherCompany)).status).toBe(404);

    // The saved members, leads and conversations are there, under the copy's own tokens; what its webhooks
    // add is its own.
    const saved = source.members(source.tokens.audience);
    expect(saved.map((added) => added.first_name)).toEqual(['Grace']);
    expect(one.members(one.tokens.audience)).toEqual(saved);
    expect(() => one.members(source.tokens.audience)).toThrow('No audience has this token');
    expect((await post(server, AUDIENCE(one.tokens.audience), { phone: '+14155550102' })).status).toBe(201);
    expect(one.members(one.tokens.audience)).toHaveLength(2);
    expect(two.members(two.tokens.audience)).toEqual(saved);
    expect(source.members(source.tokens.audience)).toEqual(saved);
    expect(one.leads()).toEqual(source.leads());
    expect(one.conversations()).toEqual(source.conversations());
    expect((await post(server, LEAD(two.tokens.lead), { phone_number: '+14155550103' })).status).toBe(200);
    expect(two.leads()).toHaveLength(2);
    expect(one.leads()).toHaveLength(1);
    expect(source.leads()).toHaveLength(1);

    // Its keys and tokens are those a new session of the state's seed draws: reset() draws them again.
    const drawn = { keys: two.keys, tokens: two.tokens };
    two.reset();
    expect({ keys: two.keys, tokens: two.tokens }).toEqual(drawn);

    // A saved copy is an ordinary state: its own keys and tokens, restored as they are.
    const copied = one.saveState();
    expect(copied.keys).toEqual(one.keys);
    expect(copied.tokens).toEqual(one.tokens);
    const elsewhere = createMockServer({ state: copied });
    expect(elsewhere.keys).toEqual(one.keys);
    expect(await everyBody(elsewhere, elsewhere.keys.valid)).toEqual(await everyBody(server, one.keys.valid));
    await Promise.all([server.close(), elsewhere.close()]);
  });

  it('keeps the keys its saved world made at run time: refused beside that world, made once it ends', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const source = server.sessions.create({ clock: 'frozen' });
    const made = source.createKey({ name: 'CI' });
    const state = source.saveState();
    let refusal: unknown;
    try {
      server.sessions.create({ state, copy: true });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SessionRefusedError);
    expect(refusal).toMatchObject({
      status: 409,
      message:
        "An API key given is already a key of session s1: a key routes each request to its session, so no two sessions share one. Give this session keys of its own, or leave the values out and use the ones the mock makes (keys.valid, …). A copy (copy: true) draws well-known keys and webhook tokens of its own, but keeps those its saved world was given by value or made at run time (createKey, POST /__admin/keys, a fixture's): a state holds such a key only by its hash, so a copy cannot give it a value of its own. End the world that holds them first, or leave them out of the world you save and add them in each copy after it is made.",
    });
    expect(server.sessions.size).toBe(1);
    source.end();
    const copy = server.sessions.create({ state, copy: true });
    expect((await get(server, '/v1/teams/', made)).status).toBe(200);
    expect(copy.apiKeys().map((key) => key.name)).toContain('CI');
    expect(copy.keys.valid).not.toBe(state.keys.valid);
    await server.close();
  });

  it('makes new keys in a world restored as the session number it was saved from, past those it holds', () => {
    // Session s1 of a new server draws its run-time key values from the same stream as the saved s1 did.
    const first = createMockServer({ clock: 'frozen' });
    const saved = first.sessions.create({ clock: 'frozen' });
    const made = [saved.createKey({ name: 'one' }), saved.createKey({ name: 'two' })];
    const state = saved.saveState();
    const second = createMockServer({ clock: 'frozen' });
    const restored = second.sessions.create({ state });
    expect(restored.id).toBe('s1');
    const next = restored.createKey({ name: 'three' });
    expect(next).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
    expect(made).not.toContain(next);
    expect(restored.apiKeys().map((key) => key.name)).toEqual(
      expect.arrayContaining(['one', 'two', 'three']),
    );
  });

  it("says, for the server's own world, which ends only with the server, to restore elsewhere or copy", () => {
    const server = createMockServer({ clock: 'frozen' });
    const taken =
      'An API key given is already a key of the default session: a key routes each request to its session, so no two sessions share one. Give this session keys of its own, or leave the values out and use the ones the mock makes (keys.valid, …). ';
    const restored =
      "A restored state keeps the keys and tokens it was saved with, and the server's own world, which holds them until the server closes, was saved: ";
    const plain = server.saveState();
    expect(() => server.sessions.create({ state: plain })).toThrow(
      new SessionRefusedError(
        409,
        `${taken}${restored}restore it in another server, or make a copy of it (copy: true, beside state), whose well-known keys and webhook tokens are its own.`,
      ),
    );
    // A key made at run time: a copy would keep it too.
    server.createKey({ name: 'CI' });
    const withKey = server.saveState();
    expect(() => server.sessions.create({ state: withKey })).toThrow(
      new SessionRefusedError(409, `${taken}${restored}restore it in another server.`),
    );
    expect(() => server.sessions.create({ state: withKey, copy: true })).toThrow(
      'a copy cannot give it a value of its own. Instead, leave them out of the world you save and add them in each copy after it is made.',
    );
    expect(server.sessions.size).toBe(0);
    const copy = server.sessions.create({ state: plain, copy: true });
    expect(copy.keys.valid).not.toBe(server.keys.valid);
  });

  it('refuses copy without state, saying it goes with it', () => {
    const server = createMockServer();
    expect(() => server.sessions.create({ copy: true })).toThrow(new RangeError(COPY_WITHOUT_STATE));
    expect(server.sessions.size).toBe(0);
  });
});

describe('copies of a saved world over HTTP', () => {
  let server: MockServer;
  beforeEach(async () => {
    server = await startMockServer({ port: 0, adminToken: ADMIN, clock: 'frozen' });
  });
  afterEach(() => server.close());

  it('makes a copy at each POST, beside the world it was saved from, each with its own keys and admin token', async () => {
    server.records.create('teams', { name: 'Prepared' });
    const { json: state } = await admin(server, 'state');
    const copies = [];
    for (let i = 0; i < 2; i++) {
      const made = await admin(server, 'sessions', ADMIN, { method: 'POST', body: { state, copy: true } });
      expect(made.status).toBe(201);
      copies.push(made.json);
    }
    expect(new Set([server.keys.valid, ...copies.map((copy) => copy.keys.valid)]).size).toBe(3);
    expect(new Set([server.tokens.audience, ...copies.map((copy) => copy.tokens.audience)]).size).toBe(3);
    for (const copy of copies) {
      const summary = await admin(server, '', copy.adminToken);
      expect(summary.status).toBe(200);
      expect(summary.json).toMatchObject({ id: copy.id, keys: copy.keys, tokens: copy.tokens });
      const teams = await call(`${server.baseURL}/teams/?page_size=100`, copy.keys.valid);
      expect(teams.json.data.map((team: { name: string }) => team.name)).toContain('Prepared');
    }
  });

  it('answers copy without state with 400, saying it goes with state', async () => {
    const alone = await admin(server, 'sessions', ADMIN, { method: 'POST', body: { copy: true } });
    expect(alone).toMatchObject({ status: 400, json: { error: { detail: COPY_WITHOUT_STATE } } });
    const notBoolean = await admin(server, 'sessions', ADMIN, { method: 'POST', body: { copy: 'yes' } });
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.json.error.detail).toMatch(/^copy: /);
    expect(server.sessions.size).toBe(0);
  });
});
