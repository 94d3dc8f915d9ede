import { ApiErrorBody, ERROR_DETAILS, FlatErrorBody, TeamList } from '@company-data/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestEvent } from '../../src/index.js';
import type { Adapter } from './adapters.js';
import type { Harness, TestResponse } from './send.js';

/** The body limit the suite's servers run with: small, so the limit's edge is cheap to reach. */
const LIMIT = 128;

/** How long the suite waits for an event the server owes it before failing the test with a reason. */
const EVENT_WAIT_MS = 5_000;

/** The server's `onRequest` events, with a promise for the first one that matches. */
class RequestEvents {
  readonly #seen: RequestEvent[] = [];
  readonly #waiting = new Set<{
    match: (event: RequestEvent) => boolean;
    resolve: (event: RequestEvent) => void;
  }>();

  readonly push = (event: RequestEvent): void => {
    this.#seen.push(event);
    for (const waiter of this.#waiting) {
      if (!waiter.match(event)) continue;
      this.#waiting.delete(waiter);
      waiter.resolve(event);
    }
  };

  /** Resolves with the first event (already seen or to come) that matches; rejects after {@link EVENT_WAIT_MS}. */
  first(match: (event: RequestEvent) => boolean, what: string): Promise<RequestEvent> {
    const seen = this.#seen.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(waiter);
        reject(new Error(`The server reported no ${what} within ${EVENT_WAIT_MS} ms`));
      }, EVENT_WAIT_MS);
      const waiter = {
        match,
        resolve: (event: RequestEvent) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      this.#waiting.add(waiter);
    });
  }
}

/**
 * A fault path pattern that says when a request has reached the server: the engine tests an armed
 * fault's pattern against each request it is handed, before any injected delay starts.
 *
 * @param path - the exact path to match.
 */
function arrival(path: string): { readonly pattern: RegExp; readonly arrived: Promise<void> } {
  let arrived!: () => void;
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  class Arrival extends RegExp {
    override exec(value: string): RegExpExecArray | null {
      const found = super.exec(value);
      if (found !== null) arrived();
      return found;
    }
  }
  return { pattern: new Arrival(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`), arrived: promise };
}

/** A JSON body of exactly `bytes` bytes for the audience webhook. */
function memberBody(bytes: number): string {
  const bare = JSON.stringify({ email: 'limit@example.com', notes: '' });
  return JSON.stringify({ email: 'limit@example.com', notes: 'x'.repeat(bytes - bare.length) });
}

/**
 * What every way in (adapter) must do itself, written once and run for each: read the request (method,
 * path, query, headers, body, body limit), write the response (status, headers, body, HEAD), drop the
 * connection, deliver a body as a body fault says, and give up on an injected delay when the client goes
 * away (with its journal entry). The rules behind the answers are the engine's, tested once in
 * `test/serve/engine/`.
 *
 * @param adapter - the way in.
 */
export function describeConformance(adapter: Adapter): void {
  describe(`conformance: ${adapter.name}`, () => {
    let h: Harness;
    let events: RequestEvents;
    const auth = () => ({ authorization: `Bearer ${h.server.keys.valid}` });
    const get = (path: string, headers: Record<string, string> = auth()): Promise<TestResponse> =>
      h.send({ path, headers });
    const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
      h.send({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body });
    const audiencePath = () => `/v1/outbound-campaigns/webhook/${h.server.tokens.audience}/`;

    beforeEach(async () => {
      events = new RequestEvents();
      h = await adapter.start({ clock: 'frozen', maxBodyBytes: LIMIT, onRequest: events.push });
    });
    afterEach(async () => {
      await h.close();
      // Whatever a test did, the adapter itself never failed (msw reports a handler's exception).
      expect(adapter.takeFailures?.() ?? []).toEqual([]);
    });

    describe('reading the request', () => {
      it('hands the engine the method, the path still percent-encoded, the raw query, the headers and the body', async () => {
        const list = await get('/v1/users/?page=2&page_size=5', { ...auth(), 'x-trace': 'abc' });
        expect(list.status).toBe(200);
        expect(list.json.pagination).toMatchObject({ page: 2, page_size: 5 });
        // A repeated parameter is refused: the query reaches the engine as it was sent, not as a map.
        const repeated = await get('/v1/teams/?page=1&page=2');
        expect(repeated.status).toBe(400);
        expect(ApiErrorBody.parse(repeated.json).error.detail).toMatch(/\bpage\b/);
        // A malformed escape is an unknown id (404), not a failure of the way in.
        const escaped = await get('/v1/recordings/%E0%A4%A/');
        expect(escaped.status).toBe(404);
        expect(escaped.json).toEqual({ error: { detail: ERROR_DETAILS.notFound } });
        const body = JSON.stringify({ email: 'read@example.com', first_name: 'Zoë' });
        const created = await postJson(audiencePath(), body, { 'x-trace': 'def' });
        expect(created.status).toBe(201);
        expect(created.json).toMatchObject({ email: 'read@example.com', first_name: 'Zoë' });

        const journal = h.server.journal();
        expect(journal.map((entry) => [entry.method, entry.path, entry.query, entry.status])).toEqual([
          ['GET', '/v1/users/', { page: '2', page_size: '5' }, 200],
          ['GET', '/v1/teams/', { page: '2' }, 400],
          ['GET', '/v1/recordings/%E0%A4%A/', {}, 404],
          ['POST', audiencePath(), {}, 201],
        ]);
        expect(journal[0]?.headers['x-trace']).toBe('abc');
        expect(journal[3]?.headers['x-trace']).toBe('def');
        expect(journal[3]?.body).toEqual({ email: 'read@example.com', first_name: 'Zoë' });
      });

      it('reads a body of maxBodyBytes, and answers 413 in the endpoint’s shape one byte past it', async () => {
        const atLimit = await postJson(audiencePath(), memberBody(LIMIT));
        expect(Buffer.byteLength(memberBody(LIMIT))).toBe(LIMIT);
        expect(atLimit.status).toBe(201);
        const past = await postJson(audiencePath(), memberBody(LIMIT + 1));
        expect(past.status).toBe(413);
        expect(ApiErrorBody.parse(past.json).error.detail).toMatch(/larger than/);
        expect(past.json.error.detail).toContain(String(LIMIT));
        const lead = await postJson(
          `/messaging-agent/webhook/${h.server.tokens.lead}/`,
          JSON.stringify({ phone_number: '415-555-0106', notes: 'x'.repeat(LIMIT) }),
        );
        expect(lead.status).toBe(413);
        expect(FlatErrorBody.safeParse(lead.json).success).toBe(true);
        expect(h.server.members(h.server.tokens.audience)).toHaveLength(1);
      });
    });

    describe('writing the response', () => {
      it('writes the status, the headers and the body as the engine answered them', async () => {
        const text = 'naïve ✓ — the service is down';
        h.server.injectFault({
          path: '/v1/teams/',
          status: 503,
          headers: { 'Retry-After': '2', 'X-Mock-Test': 'yes' },
          body: text,
        });
        const injected = await get('/v1/teams/');
        expect(injected.status).toBe(503);
        expect(injected.headers).toMatchObject({
          'content-type': 'text/plain',
          'retry-after': '2',
          'x-mock-test': 'yes',
        });
        expect(injected.text).toBe(text);
        const teams = await get('/v1/teams/');
        expect(teams.status).toBe(200);
        expect(teams.headers['content-type']).toMatch(/^application\/json/);
        expect(TeamList.parse(teams.json).data).toHaveLength(4);
        const refused = await get('/v1/teams/', { authorization: 'Bearer svc_live_unknown' });
        expect(refused.status).toBe(401);
        expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(refused.json).toEqual({ error: { detail: ERROR_DETAILS.invalidKey } });
      });

      it('sends the Content-Length of the body in bytes', async () => {
        h.server.injectFault({ path: '/v1/teams/', status: 503, body: 'naïve ✓' });
        const injected = await get('/v1/teams/');
        expect(injected.headers['content-length']).toBe(String(Buffer.byteLength('naïve ✓')));
        const teams = await get('/v1/teams/');
        expect(teams.headers['content-length']).toBe(String(Buffer.byteLength(teams.text)));
      });

      it('answers HEAD on a GET route as the GET, and refuses it on a POST route', async () => {
        for (const [path, headers] of [
          ['/v1/teams/', auth()],
          ['/v1/teams/', { authorization: 'Bearer svc_live_unknown' }],
          ['/v1/teams/?colour=red', auth()],
        ] as const) {
          const got = await get(path, headers);
          const head = await h.send({ method: 'HEAD', path, headers });
          expect(head.status).toBe(got.status);
          expect(head.headers['content-type']).toBe(got.headers['content-type']);
        }
        const post = await h.send({ method: 'POST', path: '/v1/teams/', headers: auth() });
        expect(post.status).toBe(405);
        expect(post.headers.allow).toBe('GET, HEAD');
        const webhook = await h.send({ method: 'HEAD', path: audiencePath() });
        expect(webhook.status).toBe(405);
        expect(webhook.headers.allow).toBe('POST');
        expect(
          h.server
            .journal()
            .filter((entry) => entry.method === 'HEAD')
            .map((entry) => entry.status),
        ).toEqual([200, 401, 400, 405]);
      });

      it('sends no body with a HEAD answer', async () => {
        const got = await get('/v1/teams/');
        expect(got.text).not.toBe('');
        const head = await h.send({ method: 'HEAD', path: '/v1/teams/', headers: auth() });
        expect(head.status).toBe(200);
        expect(head.text).toBe('');
      });
    });

    describe('faults the way in carries out', () => {
      it('drops the connection: the client sees it fail, the server serves on', async () => {
        h.server.injectFault({ path: '/v1/teams/', drop: true });
        await expect(get('/v1/teams/')).rejects.toBeInstanceOf(adapter.connectionError);
        expect(h.server.journal()[0]).toMatchObject({ status: null, outcome: 'fault_injected' });
        expect((await get('/v1/teams/')).status).toBe(200);
      });

      it('delivers a dripped body whole, and a cut body as a connection failing mid-body', async () => {
        const whole = (await get('/v1/teams/')).text;
        h.server.injectFault({
          path: '/v1/teams/',
          drip: { bytes: Math.ceil(whole.length / 3), everyMs: 1 },
        });
        const dripped = await get('/v1/teams/');
        expect(dripped.status).toBe(200);
        expect(dripped.text).toBe(whole);
        h.server.injectFault({ path: '/v1/teams/', cutAfterBytes: 10 });
        await expect(get('/v1/teams/')).rejects.toBeInstanceOf(adapter.connectionError);
        expect(h.server.journal().map((entry) => [entry.status, entry.outcome, entry.fault])).toEqual([
          [200, 'served', null],
          [200, 'fault_injected', { drip: { bytes: Math.ceil(whole.length / 3), everyMs: 1 } }],
          [200, 'fault_injected', { cutAfterBytes: 10 }],
        ]);
        expect((await get('/v1/teams/')).text).toBe(whole);
      });

      it('gives up on an injected delay when the client goes away, journals it with the fault, and serves on', async () => {
        const { pattern, arrived } = arrival('/v1/teams/');
        h.server.injectFault({ path: pattern, delayMs: 60_000 });
        const controller = new AbortController();
        const abandoned = h.send({ path: '/v1/teams/', headers: auth(), signal: controller.signal });
        await arrived;
        controller.abort();
        await expect(abandoned).rejects.toThrow();
        // The engine reports the request once the adapter has told it the client is gone.
        const event = await events.first(
          (event) => event.outcome === 'client_aborted',
          'client_aborted request',
        );
        expect(event).toMatchObject({ path: '/v1/teams/', status: null, fault: { delayMs: 60_000 } });
        expect(h.server.journal()).toEqual([
          expect.objectContaining({
            method: 'GET',
            path: '/v1/teams/',
            status: null,
            outcome: 'client_aborted',
            fault: { delayMs: 60_000 },
            at: '2026-06-01T12:00:00.000Z',
          }),
        ]);
        expect((await get('/v1/teams/')).status).toBe(200);
      });
    });

    describe('a body written as it comes (the admin API’s events)', () => {
      const admin = () => ({ authorization: `Bearer ${h.server.adminToken}` });
      /** How many streams the server's watch page has open: its events stop being built at 0. */
      const watchers = () => (h.server as unknown as { live: { watchers: number } }).live.watchers;

      it('writes the head without a length, then each event as it comes; stops when the client leaves (where the way in says so)', async () => {
        const stream = await h.stream('/__admin/events', admin());
        expect(stream.status).toBe(200);
        expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        expect(stream.headers['content-length']).toBeUndefined();
        expect(await stream.readUntil((text) => text.includes('\n\n'))).toMatch(
          /^event: hello\ndata: \{"session":"default","lastSeq":0,/,
        );
        expect((await get('/v1/teams/')).status).toBe(200);
        const text = await stream.readUntil((read) => read.includes('event: request'));
        expect(text).toContain(
          'event: request\ndata: {"seq":1,"at":"2026-06-01T12:00:00.000Z","method":"GET","path":"/v1/teams/"',
        );
        expect(watchers()).toBe(1);
        const cancelled = stream.cancel();
        // Through msw the cancel completes later (see seesClientLeave); the server's close ends the body.
        if (!adapter.seesClientLeave) return void cancelled.catch(() => {});
        await cancelled;
        await expect.poll(watchers).toBe(0);
      });

      it('ends the body when the server closes, and the close does not wait for the client', async () => {
        const stream = await h.stream('/__admin/events', admin());
        await stream.readUntil((text) => text.includes('event: hello'));
        await h.close();
        expect(await stream.ended()).toBe(true);
      });
    });
  });
}
