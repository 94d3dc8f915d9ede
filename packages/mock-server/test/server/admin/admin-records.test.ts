import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/index.js';

// The record controls over the admin HTTP API, as a test in another language drives them: a real socket.

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

describe('admin HTTP API: records and changes', () => {
  let server: MockServer;
  beforeEach(async () => {
    server = await startMockServer({ port: 0, adminToken: 'admin-secret', clock: 'frozen' });
  });
  afterEach(() => server.close());

  async function admin(method: string, path: string, body?: unknown) {
    const response = await request(`${server.apiRoot}/__admin/${path}`, {
      method: method as 'GET',
      headers: {
        authorization: 'Bearer admin-secret',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
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
    return { status: response.statusCode, json: (await response.body.json()) as Loose };
  }

  it('creates, reads, updates and deletes a record, the API following each step', async () => {
    const created = await admin('POST', 'records/calls', {
      source: 'voice_agent',
      summary: 'Asked for a quote.',
    });
    expect(created.status).toBe(201);
    const call = created.json.data;
    expect(call).toMatchObject({ source: 'voice_agent', summary: 'Asked for a quote.', is_excused: false });
    expect((await api('/calls/?page_size=1')).json.data[0]).toEqual(call);
    expect((await admin('GET', `records/calls/${call.id}`)).json).toEqual({ data: call });

    const patched = await admin('PATCH', `records/calls/${call.id}`, {
      is_excused: true,
      excuse_reason: 'Spam',
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data).toMatchObject({
      is_excused: true,
      excused_at: '2026-06-01T12:00:00Z',
      excuse_reason: 'Spam',
    });
    expect((await api(`/calls/${call.id}/`)).json.data).toEqual(patched.json.data);

    expect(await admin('DELETE', `records/calls/${call.id}`)).toEqual({ status: 200, json: { ok: true } });
    expect((await api(`/calls/${call.id}/`)).status).toBe(404);

    const changes = await admin('GET', 'changes');
    expect(
      changes.json.data.map((change: Loose) => [change.seq, change.kind, change.id, change.origin]),
    ).toEqual([
      [1, 'created', call.id, 'control'],
      [2, 'updated', call.id, 'control'],
      [3, 'deleted', call.id, 'control'],
    ]);
    expect(changes.json.data[1].fields).toEqual(['excuse_reason', 'excused_at', 'is_excused']);
    expect(await admin('DELETE', 'changes')).toEqual({ status: 200, json: { ok: true } });
    expect((await admin('GET', 'changes')).json).toEqual({ data: [], dropped: 0, missed: 0, more: false });
  });

  it('works on the company the query names, and creates from an empty body', async () => {
    const { status, json } = await admin('POST', 'records/users?company=Globex%20Contact%20Center');
    expect(status).toBe(201);
    expect((await api(`/users/${json.data.id}/`, server.keys.otherCompany)).json.data).toEqual(json.data);
    expect((await api(`/users/${json.data.id}/`)).status).toBe(404);
    expect((await admin('POST', 'records/users?company=Initech', {})).json).toEqual({
      error: { detail: 'Unknown company "Initech"' },
    });
  });

  it('answers bad input with a 4xx naming the problem', async () => {
    const user = (await api('/users/?page_size=1')).json.data[0];
    const unknownField = await admin('PATCH', `records/users/${user.id}`, { is_actve: false });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.error.detail).toMatch(
      /^Unknown user field "is_actve" \(did you mean "is_active"\?\)/,
    );
    const wrongType = await admin('PATCH', `records/users/${user.id}`, { is_active: 'no' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error.detail).toMatch(/^user\.is_active: .*expected boolean, received string/);
    const frozen = await admin('PATCH', `records/users/${user.id}`, { created_at: '2026-01-01T00:00:00Z' });
    expect(frozen.json.error.detail).toMatch(/^user\.created_at cannot change/);
    const resource = await admin('POST', 'records/cals', {});
    expect(resource).toEqual({
      status: 400,
      json: {
        error: {
          detail: 'Unknown resource "cals" (did you mean "calls"?); one of users, teams, recordings, calls',
        },
      },
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const answer = await admin(
        method,
        `records/users/${missing}`,
        method === 'PATCH' ? { is_active: true } : undefined,
      );
      expect(answer.status).toBe(404);
      expect(answer.json.error.detail).toMatch(missing);
    }
    expect((await admin('POST', 'records/users', '[1]')).json.error.detail).toMatch(/must be an object/);
    expect((await admin('POST', 'records/users', '{')).status).toBe(400);
    const wrongMethod = await admin('PUT', `records/users/${user.id}`, {});
    expect(wrongMethod.status).toBe(405);
    expect((await admin('GET', 'changes')).json).toEqual({ data: [], dropped: 0, missed: 0, more: false });
  });
});
