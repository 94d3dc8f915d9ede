import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/index.js';
import { everyBody } from '../state/support.js';
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
      /A restored state keeps the keys and tokens it was saved with: end the session it was saved from first, or restore it in another server\.$/,
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
