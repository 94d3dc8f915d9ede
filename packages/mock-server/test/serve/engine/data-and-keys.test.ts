import {
  ApiErrorBody,
  buildOpenApiDocument,
  CallList,
  CallResponse,
  CallTranscriptResponse,
  ERROR_DETAILS,
  FlatErrorBody,
  RecordingDetailResponse,
  RecordingList,
  RecordingTranscriptResponse,
  TeamList,
  TeamResponse,
  throttleDetail,
  UserList,
  UserResponse,
} from '@company-data/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { THROTTLED_KEY_QUOTA } from '../../../src/index.js';
import { engineHarness, useEngine } from '../../support/engine.js';
import type { TestResponse } from '../../support/send.js';

// The rules of the data endpoints, run once against server.handle(): no adapter, no transport, a frozen
// clock. What each way in must do itself is in the conformance suite (support/conformance.ts).

const LISTS = [
  ['/v1/users/', UserList],
  ['/v1/teams/', TeamList],
  ['/v1/recordings/', RecordingList],
  ['/v1/calls/', CallList],
] as const;

const MINUTE = 60_000;

const { h, auth, get, post, firstId, audiencePath, leadPath } = useEngine();

describe('engine: data endpoints, keys, permissions, quotas and queries', () => {
  describe('data endpoints', () => {
    // The default company's 12 users, 4 teams, 60 recordings and 240 calls, 7 to a page.
    const FIRST_PAGES_OF_7: Record<
      (typeof LISTS)[number][0],
      { count: number; total_pages: number; items: number }
    > = {
      '/v1/users/': { count: 12, total_pages: 2, items: 7 },
      '/v1/teams/': { count: 4, total_pages: 1, items: 4 },
      '/v1/recordings/': { count: 60, total_pages: 9, items: 7 },
      '/v1/calls/': { count: 240, total_pages: 35, items: 7 },
    };

    it.each(LISTS)('%s answers the list envelope with consistent pagination', async (path, schema) => {
      const response = await get(`${path}?page_size=7`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = schema.parse(response.json);
      expect(Object.keys(response.json)).toEqual(['data', 'pagination']);
      const { count, total_pages, items } = FIRST_PAGES_OF_7[path];
      expect(body.pagination).toEqual({ count, page: 1, page_size: 7, total_pages });
      expect(body.data).toHaveLength(items);
    });

    it('defaults to page 1 of 25, newest first, and pages follow on without gaps', async () => {
      const first = await get('/v1/calls/');
      expect(first.json.pagination).toEqual({ count: 240, page: 1, page_size: 25, total_pages: 10 });
      const times: string[] = first.json.data.map((call: { created_at: string }) => call.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      const all = await get('/v1/calls/?page_size=100&page=1');
      const second = await get('/v1/calls/?page=2');
      expect(second.json.data.map((c: { id: string }) => c.id)).toEqual(
        all.json.data.slice(25, 50).map((c: { id: string }) => c.id),
      );
    });

    it('orders by created_at ascending and descending', async () => {
      const ascending = await get('/v1/recordings/?ordering=created_at&page_size=100');
      const descending = await get('/v1/recordings/?ordering=-created_at&page_size=100');
      const ids = (r: TestResponse) => r.json.data.map((item: { id: string }) => item.id);
      expect(ids(ascending)).toEqual([...ids(descending)].reverse());
      const times = ascending.json.data.map((item: { created_at: string }) => item.created_at);
      expect([...times].sort()).toEqual(times);
    });

    it('answers a page past the last with 200, no data and the true count', async () => {
      const response = await get('/v1/teams/?page=9');
      expect(response.status).toBe(200);
      expect(response.json).toEqual({
        data: [],
        pagination: { count: 4, page: 9, page_size: 25, total_pages: 1 },
      });
    });

    it('filters users by is_active', async () => {
      const all = (await get('/v1/users/')).json;
      const active = (await get('/v1/users/?is_active=true')).json;
      const inactive = (await get('/v1/users/?is_active=false')).json;
      expect(active.data.every((user: { is_active: boolean }) => user.is_active)).toBe(true);
      expect(inactive.data.every((user: { is_active: boolean }) => !user.is_active)).toBe(true);
      expect(active.pagination.count + inactive.pagination.count).toBe(all.pagination.count);
      expect(inactive.pagination.count).toBeGreaterThan(0);
      expect((await get('/v1/users/?is_active=True')).json.pagination).toEqual(active.pagination);
    });

    it('filters calls by source', async () => {
      const all = (await get('/v1/calls/?page_size=100')).json;
      for (const source of ['integration', 'voice_agent']) {
        const page = (await get(`/v1/calls/?source=${source}&page_size=100&ordering=created_at`)).json;
        expect(page.data.length).toBeGreaterThan(0);
        expect(page.data.every((call: { source: string }) => call.source === source)).toBe(true);
        const times = page.data.map((call: { created_at: string }) => call.created_at);
        expect([...times].sort()).toEqual(times);
      }
      const integration = (await get('/v1/calls/?source=integration')).json.pagination.count;
      const voice = (await get('/v1/calls/?source=voice_agent')).json.pagination.count;
      expect(integration + voice).toBe(all.pagination.count);
    });

    it('retrieves every resource and transcript by id', async () => {
      const userId = await firstId('/v1/users/');
      expect(UserResponse.parse((await get(`/v1/users/${userId}/`)).json).data.id).toBe(userId);
      const teamId = await firstId('/v1/teams/');
      expect(TeamResponse.parse((await get(`/v1/teams/${teamId}/`)).json).data.id).toBe(teamId);

      const recordingId = await firstId('/v1/recordings/');
      const recording = RecordingDetailResponse.parse(
        (await get(`/v1/recordings/${recordingId}/`)).json,
      ).data;
      expect(recording.custom_fields.length).toBeGreaterThan(0);
      const recordingTranscript = RecordingTranscriptResponse.parse(
        (await get(`/v1/recordings/${recordingId}/transcript/`)).json,
      ).data;
      expect(recordingTranscript.id).toBe(recordingId);
      const segment = recordingTranscript.transcript[0];
      expect(segment?.speaker).toMatch(/^[A-Z]$/);
      expect(segment?.words.length).toBeGreaterThan(0);
      expect(segment?.words[0]?.start).toBe(segment?.start);

      const callId = await firstId('/v1/calls/');
      expect(CallResponse.parse((await get(`/v1/calls/${callId}/`)).json).data.id).toBe(callId);
      const callTranscript = CallTranscriptResponse.parse(
        (await get(`/v1/calls/${callId}/transcript/`)).json,
      ).data;
      expect(callTranscript.transcript.map((s) => s.speaker)).toContain('agent');
      expect(callTranscript.transcript.map((s) => s.speaker)).toContain('customer');
      expect(callTranscript.transcript[0]).not.toHaveProperty('words');
    });

    it('accepts an upper-case uuid', async () => {
      const userId = await firstId('/v1/users/');
      expect((await get(`/v1/users/${userId.toUpperCase()}/`)).status).toBe(200);
    });

    it.each([
      '/v1/users/3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c/',
      '/v1/users/not-a-uuid/',
      '/v1/calls/42/transcript/',
      '/v1/recordings/%E0%A4%A/',
    ])('answers 404 Not found. for the unknown id %s', async (path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ error: { detail: ERROR_DETAILS.notFound } });
    });
  });

  describe('authentication', () => {
    it.each([
      ['no header', {}],
      ['a malformed header', { authorization: 'Token abc' }],
      ['an empty bearer', { authorization: 'Bearer ' }],
      ['an unknown key', { authorization: 'Bearer svc_live_unknown' }],
    ])('answers 401 Invalid API key. for %s', async (_name, headers) => {
      const response = await h.send({ path: '/v1/users/', headers });
      expect(response.status).toBe(401);
      expect(response.json).toEqual({ error: { detail: ERROR_DETAILS.invalidKey } });
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('refuses a revoked key as invalid and an expired key as expired', async () => {
      expect((await get('/v1/users/', h.server.keys.revoked)).json.error.detail).toBe(
        ERROR_DETAILS.invalidKey,
      );
      const expired = await get('/v1/users/', h.server.keys.expired);
      expect(expired.status).toBe(401);
      expect(expired.json.error.detail).toBe(ERROR_DETAILS.expiredKey);
    });

    it('accepts the scheme in any case', async () => {
      expect(
        (await h.send({ path: '/v1/teams/', headers: { authorization: `bearer ${h.server.keys.valid}` } }))
          .status,
      ).toBe(200);
    });

    it('expires a key when the clock crosses its expiry', async () => {
      const expiresAt = new Date(h.server.clock.now().getTime() + 60 * MINUTE);
      const key = h.server.createKey({ name: 'short-lived', expiresAt });
      expect(key.startsWith('svc_live_')).toBe(true);
      h.server.clock.advance(60 * MINUTE - 1);
      expect((await get('/v1/users/', key)).status).toBe(200);
      h.server.clock.advance(1);
      expect((await get('/v1/users/', key)).json.error.detail).toBe(ERROR_DETAILS.expiredKey);
    });

    it('revokes and expires keys on the very next request', async () => {
      const a = h.server.createKey();
      const b = h.server.createKey({ value: 'svc_live_explicit_value' });
      expect(b).toBe('svc_live_explicit_value');
      expect((await get('/v1/teams/', a)).status).toBe(200);
      expect((await get('/v1/teams/', b)).status).toBe(200);
      h.server.revokeKey(a);
      h.server.expireKey(b);
      expect((await get('/v1/teams/', a)).json.error.detail).toBe(ERROR_DETAILS.invalidKey);
      expect((await get('/v1/teams/', b)).json.error.detail).toBe(ERROR_DETAILS.expiredKey);
    });
  });

  describe('permissions and tenancy', () => {
    it('lets a limited key read users and teams only', async () => {
      const key = h.server.keys.limited;
      expect((await get('/v1/users/', key)).status).toBe(200);
      expect((await get('/v1/teams/', key)).status).toBe(200);
      for (const path of ['/v1/recordings/', '/v1/calls/']) {
        const response = await get(path, key);
        expect(response.status).toBe(403);
        expect(ApiErrorBody.parse(response.json).error.detail).toBe(ERROR_DETAILS.permissionDenied);
      }
    });

    it('answers 403 on every data endpoint to a key without permissions, before checking the id', async () => {
      const key = h.server.keys.noPermissions;
      const id = '3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c';
      for (const path of [
        '/v1/users/',
        `/v1/users/${id}/`,
        '/v1/teams/',
        `/v1/teams/${id}/`,
        '/v1/recordings/',
        `/v1/recordings/${id}/`,
        `/v1/recordings/${id}/transcript/`,
        '/v1/calls/',
        `/v1/calls/${id}/`,
        `/v1/calls/${id}/transcript/`,
      ]) {
        expect((await get(path, key)).status, path).toBe(403);
      }
    });

    it('hides another company: its own data in lists, 404 for the other company ids', async () => {
      const other = h.server.keys.otherCompany;
      const mine = (await get('/v1/calls/?page_size=100')).json.data.map((c: { id: string }) => c.id);
      const theirs = (await get('/v1/calls/?page_size=100', other)).json;
      expect(theirs.pagination.count).not.toBe(240);
      expect(theirs.data.some((c: { id: string }) => mine.includes(c.id))).toBe(false);
      for (const list of ['/v1/users/', '/v1/teams/', '/v1/recordings/', '/v1/calls/']) {
        const id = await firstId(list);
        const response = await get(`${list}${id}/`, other);
        expect(response.status, list).toBe(404);
        expect(response.json.error.detail).toBe(ERROR_DETAILS.notFound);
      }
      const recordingId = await firstId('/v1/recordings/');
      expect((await get(`/v1/recordings/${recordingId}/transcript/`, other)).status).toBe(404);
      const callId = await firstId('/v1/calls/');
      expect((await get(`/v1/calls/${callId}/transcript/`, other)).status).toBe(404);
    });
  });

  describe('throttling', () => {
    it('answers 429 with Retry-After and the spec message once the quota is used', async () => {
      h.server.setQuota({ requests: 3, perSeconds: 60 });
      for (let i = 0; i < 3; i++) expect((await get('/v1/teams/')).status).toBe(200);
      const throttled = await get('/v1/teams/');
      expect(throttled.status).toBe(429);
      expect(throttled.headers['retry-after']).toBe('60');
      expect(throttled.json).toEqual({ error: { detail: throttleDetail(60) } });
      expect(throttled.json.error.detail).toBe('Request was throttled. Expected available in 60 seconds.');

      // Quotas are per key.
      expect((await get('/v1/teams/', h.server.keys.otherCompany)).status).toBe(200);

      h.server.clock.advance(45_500);
      const later = await get('/v1/teams/');
      expect(later.headers['retry-after']).toBe('15');
      h.server.clock.advance(14_500);
      expect((await get('/v1/teams/')).status).toBe(200);
    });

    it('can be switched off', async () => {
      h.server.setQuota(false);
      for (let i = 0; i < 20; i++) expect((await get('/v1/teams/')).status).toBe(200);
    });

    it('has no default quota, and a throttled key out of the box', async () => {
      for (let i = 0; i < 30; i++) expect((await get('/v1/teams/')).status).toBe(200);
      const throttled = h.server.keys.throttled;
      for (let i = 0; i < THROTTLED_KEY_QUOTA.requests; i++)
        expect((await get('/v1/teams/', throttled)).status).toBe(200);
      const refused = await get('/v1/teams/', throttled);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(THROTTLED_KEY_QUOTA.perSeconds));
      expect(h.server.journal().at(-1)).toMatchObject({ outcome: 'throttled', keyName: 'Throttled' });
    });

    it('gives one key its own quota, leaving the others to the default', async () => {
      h.server.setKeyQuota(h.server.keys.valid, { requests: 1, perSeconds: 30 });
      expect((await get('/v1/teams/')).status).toBe(200);
      expect((await get('/v1/teams/')).headers['retry-after']).toBe('30');
      expect((await get('/v1/teams/', h.server.keys.otherCompany)).status).toBe(200);

      // A key's own quota wins over the default, in both directions.
      h.server.setQuota({ requests: 1, perSeconds: 60 });
      h.server.setKeyQuota(h.server.keys.valid, false);
      for (let i = 0; i < 5; i++) expect((await get('/v1/teams/')).status).toBe(200);
      expect((await get('/v1/teams/', h.server.keys.otherCompany)).status).toBe(200);
      expect((await get('/v1/teams/', h.server.keys.otherCompany)).status).toBe(429);

      h.server.setKeyQuota(h.server.keys.valid, null);
      expect((await get('/v1/teams/')).status).toBe(200);
      expect((await get('/v1/teams/')).status).toBe(429);

      const own = h.server.createKey({ name: 'Own quota', quota: { requests: 2, perSeconds: 5 } });
      h.server.setQuota(false);
      expect((await get('/v1/teams/', own)).status).toBe(200);
      expect((await get('/v1/teams/', own)).status).toBe(200);
      expect((await get('/v1/teams/', own)).headers['retry-after']).toBe('5');
      expect(() => h.server.setKeyQuota('svc_live_nobody', false)).toThrow(/Unknown API key/);
      expect(() => h.server.setKeyQuota(own, { requests: 0, perSeconds: 1 })).toThrow(RangeError);
    });

    it('takes the default quota from the options, and opens a fresh window when the clock goes back', async () => {
      const quota = engineHarness({ quota: { requests: 1, perSeconds: 60 } });
      const teams = async () =>
        (
          await quota.send({
            path: '/v1/teams/',
            headers: { authorization: `Bearer ${quota.server.keys.valid}` },
          })
        ).status;
      expect(await teams()).toBe(200);
      expect(await teams()).toBe(429);
      quota.server.clock.set('2026-01-01T00:00:00Z');
      expect(await teams()).toBe(200);
      await quota.close();
    });
  });

  describe('the running clock (the default)', () => {
    // Real time is Date.now: faking only Date lets a test pass seconds of it at once, without waiting them.
    afterEach(() => {
      vi.useRealTimers();
    });

    it('moves by itself, so waiting out a Retry-After gets the request through', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const running = engineHarness({ clock: 'running' });
      try {
        expect(running.server.clock.frozen).toBe(false);
        const key = { authorization: `Bearer ${running.server.keys.throttled}` };
        for (let i = 0; i < THROTTLED_KEY_QUOTA.requests; i++)
          expect((await running.send({ path: '/v1/teams/', headers: key })).status).toBe(200);
        const refused = await running.send({ path: '/v1/teams/', headers: key });
        expect(refused.status).toBe(429);
        vi.setSystemTime(Date.now() + Number(refused.headers['retry-after']) * 1000 - 1);
        expect((await running.send({ path: '/v1/teams/', headers: key })).status).toBe(429);
        vi.setSystemTime(Date.now() + 1);
        expect((await running.send({ path: '/v1/teams/', headers: key })).status).toBe(200);
      } finally {
        await running.close();
      }
    });

    it('stamps members and the journal with the time that has passed', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const running = engineHarness({ clock: 'running', now: '2026-06-01T12:00:00Z' });
      try {
        vi.setSystemTime(Date.now() + 90_000);
        const created = await running.send({
          method: 'POST',
          path: `/v1/outbound-campaigns/webhook/${running.server.tokens.audience}/`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'later@example.com' }),
        });
        expect(created.json.created_at).toBe('2026-06-01T12:01:30.000Z');
        expect(running.server.journal()[0]?.at).toBe('2026-06-01T12:01:30.000Z');
      } finally {
        await running.close();
      }
    });
  });

  describe('invalid requests', () => {
    it.each([
      ['/v1/users/?page=0', 'page'],
      ['/v1/users/?page=-1', 'page'],
      ['/v1/users/?page=abc', 'page'],
      ['/v1/users/?page=1.5', 'page'],
      ['/v1/users/?page=', 'page'],
      ['/v1/users/?page_size=0', 'page_size'],
      ['/v1/users/?page_size=101', 'page_size'],
      ['/v1/users/?page_size=ten', 'page_size'],
      ['/v1/users/?ordering=name', 'ordering'],
      ['/v1/users/?ordering=-updated_at', 'ordering'],
      ['/v1/users/?is_active=maybe', 'is_active'],
      ['/v1/calls/?source=phone', 'source'],
      ['/v1/teams/?is_active=true', 'is_active'],
      ['/v1/teams/?foo=bar', 'foo'],
      ['/v1/teams/?page=1&page=2', 'page'],
      ['/v1/teams/3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c/?expand=all', 'expand'],
    ])('answers 400 naming the parameter for %s', async (path, parameter) => {
      const response = await get(path);
      expect(response.status).toBe(400);
      expect(ApiErrorBody.parse(response.json).error.detail).toContain(`"${parameter}"`.replace(/"/g, ''));
      expect(response.json.error.detail).toMatch(new RegExp(`\\b${parameter}\\b`));
    });

    it('reads any page up to 2^53 − 1, with the true bounds in the message past it', async () => {
      const deep = await get('/v1/users/?page=1000000000');
      expect(deep.status).toBe(200);
      expect(deep.json).toMatchObject({ data: [], pagination: { page: 1_000_000_000, count: 12 } });
      expect((await get('/v1/users/?page=9007199254740991')).status).toBe(200);
      const past = await get('/v1/users/?page=9007199254740992');
      expect(past.json.error.detail).toBe(
        'Invalid page "9007199254740992": expected an integer from 1 to 9007199254740991.',
      );
    });

    it('answers 405 with Allow for a wrong method', async () => {
      const data = await h.send({ method: 'POST', path: '/v1/users/', headers: auth(), body: '{}' });
      expect(data.status).toBe(405);
      // HEAD is answered as GET is (docs/spec-gaps.md).
      expect(data.headers.allow).toBe('GET, HEAD');
      expect(ApiErrorBody.safeParse(data.json).success).toBe(true);
      const webhook = await h.send({ method: 'GET', path: audiencePath() });
      expect(webhook.status).toBe(405);
      expect(webhook.headers.allow).toBe('POST');
      const lead = await h.send({ method: 'DELETE', path: leadPath() });
      expect(lead.status).toBe(405);
      expect(FlatErrorBody.parse(lead.json).error).toMatch(/DELETE/);
    });

    it('answers 404 for a path without its trailing slash, with a hint', async () => {
      const response = await get('/v1/users');
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ error: { detail: ERROR_DETAILS.notFound } });
      expect(response.headers['x-mock-hint']).toMatch(/trailing slash/);
    });

    it('answers 404 for unknown paths in the shape of their area', async () => {
      expect((await get('/v1/unknown/')).json).toEqual({ error: { detail: ERROR_DETAILS.notFound } });
      expect((await get('/elsewhere')).status).toBe(404);
      expect((await post('/messaging-agent/other/', {})).json).toEqual({
        error: ERROR_DETAILS.leadNotFound,
      });
    });
  });

  describe('OpenAPI document', () => {
    it('is served at /openapi.json with this server as its server, to anyone, unjournaled', async () => {
      const served = await h.send({ path: '/openapi.json' });
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toMatch(/^application\/json/);
      expect(served.json).toEqual({
        ...buildOpenApiDocument(),
        servers: [{ url: h.server.apiRoot, description: 'This Company Data mock server.' }],
      });
      const posted = await h.send({ method: 'POST', path: '/openapi.json', body: '{}' });
      expect(posted.status).toBe(405);
      expect(posted.headers.allow).toBe('GET');
      h.server.setQuota({ requests: 1, perSeconds: 60 });
      expect((await h.send({ path: '/openapi.json', headers: auth() })).status).toBe(200);
      expect((await h.send({ path: '/openapi.json', headers: auth() })).status).toBe(200);
      expect(h.server.journal()).toEqual([]);
    });
  });
});
