import {
  ApiErrorBody,
  AudienceMember,
  buildOpenApiDocument,
  CallList,
  CallResponse,
  CallTranscriptResponse,
  ERROR_DETAILS,
  FlatErrorBody,
  LEAD_DEDUP_WINDOW_MS,
  RecordingDetailResponse,
  RecordingList,
  RecordingTranscriptResponse,
  TeamList,
  TeamResponse,
  throttleDetail,
  UserList,
  UserResponse,
} from '@company-data/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  formatRequestText,
  type MockServerOptions,
  type RequestEvent,
  THROTTLED_KEY_QUOTA,
} from '../../src/index.js';
import type { Harness, TestRequest, TestResponse } from './send.js';

/** Starts a harness for one test. */
export type HarnessFactory = (options?: MockServerOptions) => Promise<Harness>;

const LISTS = [
  ['/v1/users/', UserList],
  ['/v1/teams/', TeamList],
  ['/v1/recordings/', RecordingList],
  ['/v1/calls/', CallList],
] as const;

const MINUTE = 60_000;

/**
 * The behaviour every way in must show, written once. Each adapter's test file calls this with a
 * factory that starts a server and a `send` for that adapter.
 */
export function describeBehaviour(adapter: string, start: HarnessFactory): void {
  describe(`mock server behaviour (${adapter})`, () => {
    let h: Harness;
    let auth: Record<string, string>;
    const get = (path: string, key?: string): Promise<TestResponse> =>
      h.send({ path, headers: key === undefined ? auth : { authorization: `Bearer ${key}` } });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<TestResponse> =>
      h.send({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const firstId = async (list: string): Promise<string> =>
      (await get(`${list}?page_size=1`)).json.data[0].id;
    const audiencePath = () => `/v1/outbound-campaigns/webhook/${h.server.tokens.audience}/`;
    const leadPath = (token = h.server.tokens.lead) => `/messaging-agent/webhook/${token}/`;

    beforeEach(async () => {
      // Frozen: these tests check each time rule to the millisecond. The running clock has its own block.
      h = await start({ clock: 'frozen' });
      auth = { authorization: `Bearer ${h.server.keys.valid}` };
    });
    afterEach(async () => {
      await h.close();
    });

    describe('data endpoints', () => {
      it.each(LISTS)('%s answers the list envelope with consistent pagination', async (path, schema) => {
        const response = await get(`${path}?page_size=7`);
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        const body = schema.parse(response.json);
        expect(Object.keys(response.json)).toEqual(['data', 'pagination']);
        const { count, page, page_size, total_pages } = body.pagination;
        expect({ page, page_size }).toEqual({ page: 1, page_size: 7 });
        expect(total_pages).toBe(Math.ceil(count / 7));
        expect(body.data).toHaveLength(Math.min(7, count));
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
        h.server.setThrottle({ limit: 3, windowSeconds: 60 });
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
        h.server.setThrottle(false);
        for (let i = 0; i < 20; i++) expect((await get('/v1/teams/')).status).toBe(200);
      });

      it('has no default quota, and a throttled key out of the box', async () => {
        for (let i = 0; i < 30; i++) expect((await get('/v1/teams/')).status).toBe(200);
        const throttled = h.server.keys.throttled;
        for (let i = 0; i < THROTTLED_KEY_QUOTA.limit; i++)
          expect((await get('/v1/teams/', throttled)).status).toBe(200);
        const refused = await get('/v1/teams/', throttled);
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toBe(String(THROTTLED_KEY_QUOTA.windowSeconds));
        expect(h.server.journal().at(-1)).toMatchObject({ outcome: 'throttled', keyName: 'Throttled' });
      });

      it('gives one key its own quota, leaving the others to the default', async () => {
        h.server.setKeyThrottle(h.server.keys.valid, { limit: 1, windowSeconds: 30 });
        expect((await get('/v1/teams/')).status).toBe(200);
        expect((await get('/v1/teams/')).headers['retry-after']).toBe('30');
        expect((await get('/v1/teams/', h.server.keys.otherCompany)).status).toBe(200);

        // A key's own quota wins over the default, in both directions.
        h.server.setThrottle({ limit: 1, windowSeconds: 60 });
        h.server.setKeyThrottle(h.server.keys.valid, false);
        for (let i = 0; i < 5; i++) expect((await get('/v1/teams/')).status).toBe(200);
        expect((await get('/v1/teams/', h.server.keys.otherCompany)).status).toBe(200);
        expect((await get('/v1/teams/', h.server.keys.otherCompany)).status).toBe(429);

        h.server.setKeyThrottle(h.server.keys.valid, null);
        expect((await get('/v1/teams/')).status).toBe(200);
        expect((await get('/v1/teams/')).status).toBe(429);

        const own = h.server.createKey({ name: 'Own quota', throttle: { limit: 2, windowSeconds: 5 } });
        h.server.setThrottle(false);
        expect((await get('/v1/teams/', own)).status).toBe(200);
        expect((await get('/v1/teams/', own)).status).toBe(200);
        expect((await get('/v1/teams/', own)).headers['retry-after']).toBe('5');
        expect(() => h.server.setKeyThrottle('svc_live_nobody', false)).toThrow(/Unknown API key/);
        expect(() => h.server.setKeyThrottle(own, { limit: 0, windowSeconds: 1 })).toThrow(RangeError);
      });
    });

    describe('the running clock (the default)', () => {
      // Real time is Date.now: faking only Date lets a test pass seconds of it at once.
      afterEach(() => {
        vi.useRealTimers();
      });

      it('moves by itself, so waiting out a Retry-After gets the request through', async () => {
        vi.useFakeTimers({ toFake: ['Date'] });
        const running = await start();
        try {
          expect(running.server.clock.frozen).toBe(false);
          const key = { authorization: `Bearer ${running.server.keys.throttled}` };
          for (let i = 0; i < THROTTLED_KEY_QUOTA.limit; i++)
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
        const running = await start({ now: '2026-06-01T12:00:00Z' });
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
        const data = await h.send({ method: 'POST', path: '/v1/users/', headers: auth, body: '{}' });
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

    describe('audience webhook', () => {
      it('creates a member (201), then returns it (200) for the same phone in any format', async () => {
        const created = await post(audiencePath(), {
          first_name: 'Ada',
          last_name: 'Lovelace',
          phone: '(415) 555-0123',
          custom_fields: { plan: 'gold' },
        });
        expect(created.status).toBe(201);
        const member = AudienceMember.parse(created.json);
        expect(member).toMatchObject({
          phone: '+14155550123',
          email: '',
          status: 'active',
          custom_fields: { plan: 'gold' },
        });
        for (const phone of ['+1 415 555 0123', '415.555.0123', '1-415-555-0123']) {
          const again = await post(audiencePath(), { phone, first_name: 'Someone else' });
          expect(again.status).toBe(200);
          expect(again.json).toEqual(created.json);
        }
        expect(h.server.members(h.server.tokens.audience)).toHaveLength(1);
      });

      it('matches e-mail in any letter case', async () => {
        const created = await post(audiencePath(), { email: 'Ada@Example.com' });
        expect(created.status).toBe(201);
        expect(AudienceMember.parse(created.json).phone).toBe('');
        const again = await post(audiencePath(), { email: 'ada@EXAMPLE.COM', phone: '+44 20 7946 0958' });
        expect(again.status).toBe(200);
        expect(again.json.id).toBe(created.json.id);
      });

      it('creates one member from 50 concurrent identical requests', async () => {
        const body = { first_name: 'Grace', phone: '212-555-2368', email: 'grace@example.com' };
        const responses = await Promise.all(Array.from({ length: 50 }, () => post(audiencePath(), body)));
        expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
        expect(responses.filter((r) => r.status === 200)).toHaveLength(49);
        expect(new Set(responses.map((r) => r.json.id)).size).toBe(1);
        expect(h.server.members(h.server.tokens.audience)).toHaveLength(1);
        const outcomes = h.server.journal().map((entry) => entry.outcome);
        expect(outcomes.filter((o) => o === 'member_created')).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'member_existing')).toHaveLength(49);
      });

      it.each([
        ['no phone or e-mail', { first_name: 'Ada' }, 'phone: At least one of phone or email is required'],
        ['an invalid e-mail', { email: 'not-an-email' }, 'email: Invalid email address'],
        ['an invalid phone', { phone: '123' }, 'phone'],
        ['an empty phone', { phone: '  ' }, 'phone'],
        ['a non-object custom_fields', { email: 'a@example.com', custom_fields: 'x' }, 'custom_fields'],
        ['a non-string name', { email: 'a@example.com', first_name: 7 }, 'first_name'],
        ['an array', [{ email: 'a@example.com' }], 'object'],
        ['malformed JSON', '{"email": ', 'JSON'],
      ])('answers 400 {error:{detail}} for %s', async (_name, body, mention) => {
        const response = await post(audiencePath(), body);
        expect(response.status).toBe(400);
        expect(ApiErrorBody.parse(response.json).error.detail).toContain(mention);
        expect(h.server.members(h.server.tokens.audience)).toHaveLength(0);
      });

      it('answers 404 Not found. for an unknown or non-uuid token', async () => {
        for (const token of ['3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c', 'nope', h.server.tokens.lead]) {
          const response = await post(`/v1/outbound-campaigns/webhook/${token}/`, { email: 'a@example.com' });
          expect(response.status).toBe(404);
          expect(response.json).toEqual({ error: { detail: ERROR_DETAILS.notFound } });
        }
      });

      it('answers 415 for a body that is not JSON', async () => {
        const response = await post(audiencePath(), 'email=a@example.com', {
          'content-type': 'application/x-www-form-urlencoded',
        });
        expect(response.status).toBe(415);
        expect(ApiErrorBody.parse(response.json).error.detail).toMatch(/application\/x-www-form-urlencoded/);
      });

      it('answers 413 for a body above the limit', async () => {
        const response = await post(audiencePath(), {
          email: 'a@example.com',
          notes: 'x'.repeat(1024 * 1024),
        });
        expect(response.status).toBe(413);
        expect(ApiErrorBody.parse(response.json).error.detail).toMatch(/larger than/);
      });

      it('needs no Authorization header and ignores one', async () => {
        const response = await post(
          audiencePath(),
          { email: 'b@example.com' },
          { authorization: 'Bearer nonsense' },
        );
        expect(response.status).toBe(201);
      });
    });

    describe('lead webhook', () => {
      it('answers 200 {received:true} and starts a conversation', async () => {
        const response = await post(leadPath(), {
          phone_number: '415-555-0199',
          customer_name: 'Ada Lovelace',
        });
        expect(response.status).toBe(200);
        expect(response.json).toEqual({ received: true });
        const [conversation] = h.server.conversations();
        expect(conversation).toMatchObject({ phone: '+14155550199' });
        expect(conversation?.leads[0]?.body).toMatchObject({ customer_name: 'Ada Lovelace' });
      });

      it('deduplicates the same phone for 15 minutes of the clock: 14:59 reuses, 15:01 creates', async () => {
        await post(leadPath(), { phone_number: '(415) 555-0100' });
        h.server.clock.advance(14 * MINUTE + 59_000);
        await post(leadPath(), { phone_number: '+1 415 555 0100' });
        expect(h.server.conversations()).toHaveLength(1);
        expect(h.server.conversations()[0]?.leads).toHaveLength(2);
        h.server.clock.advance(LEAD_DEDUP_WINDOW_MS + MINUTE);
        await post(leadPath(), { phone_number: '4155550100' });
        expect(h.server.conversations()).toHaveLength(2);
        const outcomes = h.server.journal().map((entry) => entry.outcome);
        expect(outcomes).toEqual(['lead_queued', 'lead_deduplicated', 'lead_queued']);
      });

      it('counts exactly 15:00 as within the window, which restarts with each lead', async () => {
        await post(leadPath(), { phone_number: '415-555-0120' });
        h.server.clock.advance(LEAD_DEDUP_WINDOW_MS);
        await post(leadPath(), { phone_number: '415-555-0120' });
        h.server.clock.advance(10 * MINUTE);
        await post(leadPath(), { phone_number: '415-555-0120' });
        h.server.clock.advance(10 * MINUTE);
        await post(leadPath(), { phone_number: '415-555-0120' });
        expect(h.server.conversations()).toHaveLength(1);
        expect(h.server.conversations()[0]?.leads.map((lead) => lead.deduplicated)).toEqual([
          false,
          true,
          true,
          true,
        ]);
      });

      it('keeps different phones apart', async () => {
        await post(leadPath(), { phone_number: '415-555-0101' });
        await post(leadPath(), { phone_number: '415-555-0102' });
        expect(h.server.conversations()).toHaveLength(2);
      });

      it('still answers 200 when processing fails, and records the failure', async () => {
        h.server.injectLeadFailure();
        const injected = await post(leadPath(), { phone_number: '415-555-0103' });
        const unparseable = await post(leadPath(), { phone_number: 'call me maybe' });
        expect([injected.status, unparseable.status]).toEqual([200, 200]);
        expect(injected.json).toEqual({ received: true });
        expect(h.server.conversations()).toHaveLength(0);
        expect(h.server.leads().map((lead) => lead.status)).toEqual(['failed', 'failed']);
        expect(h.server.journal().map((entry) => entry.outcome)).toEqual(['lead_failed', 'lead_failed']);
      });

      it.each([
        ['no phone_number', { customer_name: 'Ada' }],
        ['an empty phone_number', { phone_number: ' ' }],
        ['a numeric phone_number', { phone_number: 4155550123 }],
        ['an empty body', ''],
      ])('answers 400 phone_number is required for %s', async (_name, body) => {
        const response = await post(leadPath(), body);
        expect(response.status).toBe(400);
        expect(response.json).toEqual({ error: ERROR_DETAILS.leadPhoneRequired });
      });

      it('answers 400 in the flat shape for other bad bodies', async () => {
        const wrongType = await post(leadPath(), { phone_number: '415-555-0104', zip: 94103 });
        expect(wrongType.status).toBe(400);
        expect(FlatErrorBody.parse(wrongType.json).error).toBe(
          'zip: Invalid input: expected string, received number',
        );
        const malformed = await post(leadPath(), '{');
        expect(malformed.status).toBe(400);
        expect(FlatErrorBody.parse(malformed.json).error).toMatch(/JSON/);
        const notObject = await post(leadPath(), '"415-555-0104"');
        expect(notObject.status).toBe(400);
        expect(h.server.leads()).toHaveLength(0);
      });

      it('answers 404 Not found for an unknown token and for a deleted lead source', async () => {
        for (const token of [h.server.tokens.deletedLead, h.server.tokens.audience, 'not-a-token']) {
          const response = await post(leadPath(token), { phone_number: '415-555-0105' });
          expect(response.status).toBe(404);
          expect(response.json).toEqual({ error: ERROR_DETAILS.leadNotFound });
        }
      });

      it('answers 415 and 413 in the flat shape', async () => {
        const text = await post(leadPath(), 'phone_number=1', { 'content-type': 'text/plain' });
        expect(text.status).toBe(415);
        expect(FlatErrorBody.safeParse(text.json).success).toBe(true);
        const big = await post(leadPath(), { phone_number: '415-555-0106', notes: 'x'.repeat(1024 * 1024) });
        expect(big.status).toBe(413);
        expect(FlatErrorBody.safeParse(big.json).success).toBe(true);
      });
    });

    describe('faults', () => {
      it('answers an injected status for the next matching requests only', async () => {
        h.server.injectFault({ path: '/v1/teams/', status: 503, times: 2, headers: { 'Retry-After': '1' } });
        const first = await get('/v1/teams/');
        expect(first.status).toBe(503);
        expect(first.headers['retry-after']).toBe('1');
        expect(first.json).toEqual({ error: { detail: 'Injected fault.' } });
        expect((await get('/v1/users/')).status).toBe(200);
        expect((await get('/v1/teams/')).status).toBe(503);
        expect((await get('/v1/teams/')).status).toBe(200);
        expect(h.server.journal().map((entry) => entry.outcome)).toEqual([
          'fault_injected',
          'served',
          'fault_injected',
          'served',
        ]);
      });

      it('matches by method and pattern, with a custom body', async () => {
        h.server.injectFault({ method: 'post', path: /webhook/, status: 500, body: 'boom' });
        expect((await get('/v1/teams/')).status).toBe(200);
        const response = await post(leadPath(), { phone_number: '415-555-0107' });
        expect(response.status).toBe(500);
        expect(response.text).toBe('boom');
        h.server.injectFault({ status: 502, body: { custom: true } });
        expect((await get('/v1/teams/')).json).toEqual({ custom: true });
      });

      it('delays, then answers the real response', async () => {
        h.server.injectFault({ path: '/v1/teams/', delayMs: 5, headers: { 'X-Delayed': 'yes' } });
        const response = await get('/v1/teams/');
        expect(response.status).toBe(200);
        expect(response.headers['x-delayed']).toBe('yes');
      });

      it('drops the connection', async () => {
        h.server.injectFault({ path: '/v1/teams/', drop: true });
        await expect(get('/v1/teams/')).rejects.toThrow();
        expect(h.server.journal()[0]).toMatchObject({ status: null, outcome: 'fault_injected' });
        expect((await get('/v1/teams/')).status).toBe(200);
      });

      it('refuses invalid faults', () => {
        expect(() => h.server.injectFault({ times: 0 })).toThrow(RangeError);
        expect(() => h.server.injectFault({ status: 42 })).toThrow(RangeError);
        expect(() => h.server.injectFault({ delayMs: -1 })).toThrow(RangeError);
        expect(() => h.server.injectFault({ drip: { bytes: 0, everyMs: 10 } })).toThrow(RangeError);
        expect(() => h.server.injectFault({ cutAfterBytes: -1 })).toThrow(RangeError);
      });
    });

    describe('body faults', () => {
      it('drips a body: the whole answer, late', async () => {
        const whole = (await get('/v1/teams/')).text;
        h.server.injectFault({
          path: '/v1/teams/',
          drip: { bytes: Math.ceil(whole.length / 3), everyMs: 40 },
        });
        const startedAt = performance.now();
        const dripped = await get('/v1/teams/');
        expect(performance.now() - startedAt).toBeGreaterThanOrEqual(70);
        expect(dripped.status).toBe(200);
        expect(dripped.text).toBe(whole);
        expect(h.server.journal()[1]).toMatchObject({ status: 200, outcome: 'fault_injected' });
      });

      it('cuts a body after some bytes: the client sees the connection fail mid-body', async () => {
        h.server.injectFault({ path: '/v1/teams/', cutAfterBytes: 10 });
        await expect(get('/v1/teams/')).rejects.toThrow();
        expect(h.server.journal()[0]).toMatchObject({
          status: 200,
          outcome: 'fault_injected',
          fault: { cutAfterBytes: 10 },
        });
        expect((await get('/v1/teams/')).status).toBe(200);
      });

      it('answers a 200 whose JSON is truncated, after processing the request', async () => {
        const whole = (await get('/v1/teams/')).text;
        h.server.injectFault({ path: '/v1/teams/', malformedJson: true });
        const broken = await get('/v1/teams/');
        expect(broken.status).toBe(200);
        expect(broken.headers['content-type']).toMatch(/^application\/json/);
        expect(whole.startsWith(broken.text)).toBe(true);
        expect(broken.text.length).toBeLessThan(whole.length);
        expect(() => JSON.parse(broken.text)).toThrow(SyntaxError);
        h.server.injectFault({ method: 'POST', malformedJson: true });
        expect((await post(audiencePath(), { phone: '415-555-0150' })).status).toBe(200);
        expect(
          h.server.members(h.server.tokens.audience).some((member) => member.phone === '+14155550150'),
        ).toBe(true);
      });

      it("answers a proxy's HTML error page", async () => {
        h.server.injectFault({ path: '/v1/teams/', htmlPage: true });
        const page = await get('/v1/teams/');
        expect(page.status).toBe(502);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.text).toMatch(/<title>502 Bad Gateway<\/title>/);
        h.server.injectFault({ path: '/v1/teams/', htmlPage: true, status: 504 });
        expect((await get('/v1/teams/')).text).toMatch(/504 Gateway Timeout/);
      });
    });

    describe('latency and fault rates', () => {
      it('waits as the latency profile says, per route, and journals the wait', async () => {
        h.server.setLatency([{ path: '/v1/teams/', latency: { fixedMs: 40 } }]);
        const startedAt = performance.now();
        expect((await get('/v1/teams/')).status).toBe(200);
        expect(performance.now() - startedAt).toBeGreaterThanOrEqual(35);
        expect((await get('/v1/users/')).status).toBe(200);
        expect(h.server.journal().map((entry) => entry.latencyMs)).toEqual([40, 0]);
        h.server.setLatency(false);
        await get('/v1/teams/');
        expect(h.server.journal()[2]?.latencyMs).toBe(0);
      });

      it('fails a seeded share of requests with the mix, up to the cap; the same seed repeats it', async () => {
        const run = async () => {
          h.server.clearJournal();
          h.server.setLatency({ minMs: 0, maxMs: 3 });
          h.server.setFaultRate({ rate: 0.5, mix: [{ status: 503 }, { status: 500, weight: 2 }], max: 6 });
          for (let index = 0; index < 20; index++) await get('/v1/teams/');
          return h.server.journal().map((entry) => [entry.status, entry.latencyMs, entry.fault]);
        };
        const first = await run();
        const faulted = first.filter(([, , fault]) => fault !== null);
        expect(faulted).toHaveLength(6);
        expect(faulted.every(([, , fault]) => (fault as { fromRate?: boolean }).fromRate === true)).toBe(
          true,
        );
        expect(new Set(faulted.map(([status]) => status))).toEqual(new Set([500, 503]));
        expect(await run()).toEqual(first);
        h.server.reseed({ seed: 99 });
        expect(await run()).not.toEqual(first);
      });

      it('lets an armed next-N fault win, without shifting the rate', async () => {
        const run = async (armed: boolean) => {
          h.server.clearJournal();
          h.server.setFaultRate({ rate: 0.5, mix: [{ status: 503 }] });
          if (armed) h.server.injectFault({ status: 409 });
          for (let index = 0; index < 8; index++) await get('/v1/teams/');
          return h.server.journal().map((entry) => entry.status);
        };
        const plain = await run(false);
        const withArmed = await run(true);
        expect(withArmed[0]).toBe(409);
        expect(withArmed.slice(1)).toEqual(plain.slice(1));
        expect(h.server.journal()[0]?.fault).toEqual({ status: 409 });
      });

      it('takes both from the options, and reset starts their streams again', async () => {
        const options = {
          clock: 'frozen',
          latency: { medianMs: 2, p99Ms: 8 },
          faultRate: { rate: 0.3 },
        } as const;
        const sequence = async (harness: Harness) => {
          const outcomes: string[] = [];
          for (let index = 0; index < 15; index++) {
            const sent = harness.send({
              path: '/v1/users/',
              headers: { authorization: `Bearer ${harness.server.keys.valid}` },
            });
            outcomes.push(
              await sent.then(
                (response) => String(response.status),
                () => 'failed',
              ),
            );
          }
          const journal = harness.server.journal().map((entry) => [entry.latencyMs, entry.fault]);
          return { outcomes, journal };
        };
        // One at a time: msw serves one set of handlers.
        const first = await start({ ...options, seed: 5 });
        const a = await sequence(first);
        expect(a.journal.some(([, fault]) => fault !== null)).toBe(true);
        first.server.reset();
        expect(await sequence(first)).toEqual(a);
        await first.close();
        const second = await start({ ...options, seed: 5 });
        expect(await sequence(second)).toEqual(a);
        await second.close();
      });

      it('refuses bad profiles and rates', () => {
        expect(() => h.server.setLatency({ minMs: 9, maxMs: 1 })).toThrow(RangeError);
        expect(() => h.server.setLatency({ medianMs: 10, p99Ms: 5 })).toThrow(RangeError);
        expect(() => h.server.setFaultRate({ rate: 2 })).toThrow(RangeError);
        expect(() => h.server.setFaultRate({ rate: 0.1, mix: [] })).toThrow(RangeError);
        expect(() => h.server.setFaultRate({ rate: 0.1, max: 0 })).toThrow(RangeError);
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
        h.server.setThrottle({ limit: 1, windowSeconds: 60 });
        expect((await h.send({ path: '/openapi.json', headers: auth })).status).toBe(200);
        expect((await h.send({ path: '/openapi.json', headers: auth })).status).toBe(200);
        expect(h.server.journal()).toEqual([]);
      });
    });

    describe('request events', () => {
      it('reports every request to onRequest, safe to log', async () => {
        const events: RequestEvent[] = [];
        const logged = await start({ clock: 'frozen', onRequest: (event) => events.push(event) });
        try {
          const key = { authorization: `Bearer ${logged.server.keys.valid}` };
          await logged.send({ path: '/v1/calls/?page_size=2', headers: key });
          await logged.send({
            method: 'POST',
            path: `/messaging-agent/webhook/${logged.server.tokens.lead}/`,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ phone_number: '415-555-0100' }),
          });
          logged.server.injectFault({ path: '/v1/teams/', status: 503 });
          await logged.send({ path: '/v1/teams/', headers: key });
          await logged.send({ path: '/openapi.json' });
          await logged.send({
            path: '/__admin/clock',
            headers: { authorization: `Bearer ${logged.server.adminToken}` },
          });
          expect(events.map(({ durationMs, ...event }) => event)).toEqual([
            {
              at: '2026-06-01T12:00:00.000Z',
              method: 'GET',
              path: '/v1/calls/',
              query: 'page_size=2',
              status: 200,
              outcome: 'served',
              keyName: 'Full access',
              fault: null,
              latencyMs: 0,
              detail: null,
            },
            expect.objectContaining({
              path: '/messaging-agent/webhook/{token}/',
              status: 200,
              outcome: 'lead_queued',
            }),
            expect.objectContaining({
              path: '/v1/teams/',
              status: 503,
              outcome: 'fault_injected',
              fault: { status: 503 },
              detail: 'Injected fault.',
            }),
            expect.objectContaining({
              path: '/openapi.json',
              status: 200,
              outcome: 'openapi',
              keyName: null,
            }),
            expect.objectContaining({ path: '/__admin/clock', status: 200, outcome: 'admin' }),
          ]);
          expect(events.every((event) => event.durationMs >= 0)).toBe(true);
          const text = events.map((event) => formatRequestText(event)).join('\n');
          expect(text).not.toContain(logged.server.keys.valid);
          expect(text).not.toContain(logged.server.tokens.lead);
        } finally {
          await logged.close();
        }
      });
    });

    describe('journal and reset', () => {
      it('journals a request whose client gave up during an injected delay, with the fault', async () => {
        h.server.injectFault({ path: '/v1/teams/', delayMs: 60_000 });
        const controller = new AbortController();
        const abandoned = h.send({ path: '/v1/teams/', headers: auth, signal: controller.signal });
        await new Promise((resolve) => setTimeout(resolve, 100)); // for the request to reach the server
        controller.abort();
        await expect(abandoned).rejects.toThrow();
        await vi.waitFor(() => expect(h.server.journal()).toHaveLength(1));
        expect(h.server.journal()[0]).toMatchObject({
          path: '/v1/teams/',
          status: null,
          outcome: 'client_aborted',
          fault: { delayMs: 60_000 },
          at: '2026-06-01T12:00:00.000Z',
        });
      });

      it('records the fault a request met', async () => {
        h.server.injectFault({ path: '/v1/teams/', status: 503, headers: { 'Retry-After': '2' } });
        await get('/v1/teams/');
        await get('/v1/teams/');
        expect(h.server.journal().map((entry) => [entry.status, entry.outcome, entry.fault])).toEqual([
          [503, 'fault_injected', { status: 503, headers: { 'Retry-After': '2' } }],
          [200, 'served', null],
        ]);
      });

      it('records what the client sent, with the key redacted', async () => {
        await get('/v1/users/?page=2&page_size=5');
        await post(audiencePath(), { email: 'journal@example.com' }, { 'x-trace': 'abc' });
        const [list, webhook] = h.server.journal();
        expect(list).toMatchObject({
          method: 'GET',
          path: '/v1/users/',
          query: { page: '2', page_size: '5' },
          status: 200,
          outcome: 'served',
          keyName: 'Full access',
          at: '2026-06-01T12:00:00.000Z',
        });
        expect(list?.headers.authorization).toBe('Bearer [REDACTED]');
        expect(JSON.stringify(list)).not.toContain(h.server.keys.valid);
        expect(webhook).toMatchObject({
          method: 'POST',
          status: 201,
          outcome: 'member_created',
          body: { email: 'journal@example.com' },
          keyName: null,
        });
        expect(webhook?.headers['x-trace']).toBe('abc');
      });

      it('records refusals with their outcome', async () => {
        await get('/v1/users/', 'svc_live_nope');
        await get('/v1/calls/', h.server.keys.limited);
        await get('/v1/users/?page=0');
        await get('/v1/nothing/');
        expect(h.server.journal().map((entry) => entry.outcome)).toEqual([
          'unauthorized',
          'forbidden',
          'invalid_request',
          'not_found',
        ]);
      });

      it('reset restores data, keys, clock and throttle, and forgets faults and the journal', async () => {
        const key = h.server.createKey();
        h.server.revokeKey(h.server.keys.valid);
        h.server.clock.advance(MINUTE);
        h.server.setThrottle({ limit: 1, windowSeconds: 60 });
        h.server.injectFault({ status: 500, times: 5 });
        await post(audiencePath(), { email: 'gone@example.com' });
        h.server.reset();
        expect(h.server.clock.now().toISOString()).toBe('2026-06-01T12:00:00.000Z');
        expect(h.server.members(h.server.tokens.audience)).toHaveLength(0);
        expect(h.server.journal()).toHaveLength(0);
        expect((await get('/v1/users/', key)).status).toBe(401);
        expect((await get('/v1/users/')).status).toBe(200);
        expect((await get('/v1/users/')).status).toBe(200);
      });
    });
  });
}

export type { TestRequest };
