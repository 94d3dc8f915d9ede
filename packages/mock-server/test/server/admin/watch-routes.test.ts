import { Script } from 'node:vm';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockClock } from '../../../src/data/clock.js';
import { type MockServer, type RequestEvent, startMockServer } from '../../../src/index.js';
import { requestJournal } from '../../../src/serve/engine/request-journal.js';
import { PAGE_HTML } from '../../../src/server/admin/ui/page-html.js';
import { PAGE_SCRIPT } from '../../../src/server/admin/ui/page-script.js';
import { ANSWER_SHOWN_CHARS, LiveFeed } from '../../../src/server/world/live-feed.js';

// The admin routes behind the watch page (its files, its events, the world's readouts), over HTTP; the page
// itself, in a browser, is tested in watch-page.realtime.test.ts.

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

const ADMIN = 'admin-secret';

describe('the watch page’s admin routes', () => {
  let server: MockServer;
  let logged: RequestEvent[];
  beforeEach(async () => {
    logged = [];
    server = await startMockServer({
      port: 0,
      adminToken: ADMIN,
      clock: 'frozen',
      onRequest: (event) => logged.push(event),
    });
  });
  afterEach(async () => {
    await server.close();
  });

  async function admin(method: string, path: string, body?: unknown, token = ADMIN) {
    const response = await request(`${server.apiRoot}/__admin/${path}`, {
      method: method as 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      headers: response.headers,
      text,
      json: text ? JSON.parse(text) : undefined,
    };
  }
  async function api(path: string, key = server.keys.valid) {
    const response = await request(`${server.baseURL}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await response.body.dump();
    return response.statusCode;
  }
  /** Reads the event stream until `done` holds for what came, then leaves it. */
  async function events(done: (text: string) => boolean, act: () => Promise<unknown>, token = ADMIN) {
    const controller = new AbortController();
    const response = await request(`${server.apiRoot}/__admin/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    let text = '';
    let acted = false;
    for await (const piece of response.body) {
      text += Buffer.from(piece as Uint8Array).toString('utf8');
      if (!acted && text.includes('event: hello')) {
        acted = true;
        await act();
      }
      if (acted && done(text)) break;
    }
    controller.abort();
    return { status: response.statusCode, headers: response.headers, text };
  }
  /** The data of each event of a name, in order. */
  const dataOf = (text: string, name: string): Loose[] =>
    [...text.matchAll(new RegExp(`event: ${name}\\ndata: (.*)\\n\\n`, 'g'))].map(([, data = '']) =>
      JSON.parse(data),
    );

  describe('the page’s files', () => {
    it('are served without a token, each with its type, and a policy that lets nothing in from elsewhere', async () => {
      const files = [
        ['ui', 'text/html; charset=utf-8'],
        ['ui/', 'text/html; charset=utf-8'],
        ['ui/app.js', 'text/javascript; charset=utf-8'],
        ['ui/app.css', 'text/css; charset=utf-8'],
      ];
      for (const [path, type] of files) {
        const response = await request(`${server.apiRoot}/__admin/${path}`);
        expect(response.statusCode, path).toBe(200);
        expect(response.headers['content-type'], path).toBe(type);
        expect(response.headers['content-security-policy'], path).toBe(
          "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        );
        expect((await response.body.text()).length, path).toBeGreaterThan(1000);
      }
      // Served from the page's own path, whatever the mock's origin.
      expect(PAGE_HTML).toContain('<script src="/__admin/ui/app.js" defer></script>');
      expect(PAGE_HTML).toContain('<link rel="stylesheet" href="/__admin/ui/app.css">');
    });

    it('refuses another method with a 405, and no other admin path answers without the token', async () => {
      const post = await request(`${server.apiRoot}/__admin/ui`, { method: 'POST' });
      await post.body.dump();
      expect(post.statusCode).toBe(405);
      expect(post.headers.allow).toBe('GET, HEAD');
      const journal = await request(`${server.apiRoot}/__admin/ui/journal`);
      await journal.body.dump();
      expect(journal.statusCode).toBe(401);
    });

    it('holds a script that parses, and takes the admin prefix and the activity’s defaults from the mock', () => {
      expect(() => new Script(PAGE_SCRIPT)).not.toThrow();
      expect(PAGE_SCRIPT).toContain('var ADMIN = "/__admin/";');
      expect(PAGE_SCRIPT).toContain('"callsPerMinute":6,');
    });
  });

  describe('GET events', () => {
    it('needs the admin token', async () => {
      const { status, json } = await admin('GET', 'events', undefined, 'wrong');
      expect(status).toBe(401);
      expect(json.error.detail).toMatch(/^Invalid admin token/);
    });

    it('says hello, then tells each request with its answer, and each change made over HTTP', async () => {
      const { status, headers, text } = await events(
        (read) => read.includes('event: world'),
        async () => {
          expect(await api('/teams/')).toBe(200);
          expect(await api('/team/')).toBe(404);
          await admin('POST', 'clock/advance', { ms: 60_000 });
        },
      );
      expect(status).toBe(200);
      expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(headers['cache-control']).toBe('no-store');
      expect(dataOf(text, 'hello')).toEqual([
        { session: 'default', lastSeq: 0, now: '2026-06-01T12:00:00.000Z', frozen: true },
      ]);
      const [teams, team] = dataOf(text, 'request');
      expect(teams).toMatchObject({
        seq: 1,
        method: 'GET',
        path: '/v1/teams/',
        status: 200,
        outcome: 'served',
        keyName: 'Full access',
        session: 'default',
        unmatched: null,
        answer: { headers: { 'content-type': 'application/json' } },
      });
      expect(teams.headers.authorization).toBe('Bearer [REDACTED]');
      expect(JSON.parse(teams.answer.body).pagination.count).toBe(4);
      expect(teams.answer.length).toBe(teams.answer.body.length);
      expect(team).toMatchObject({
        seq: 2,
        status: 404,
        unmatched: {
          reason: 'unknown_path',
          detail: 'No operation of the API has this path (did you mean /v1/teams/?).',
        },
      });
      // Its own admin requests are not told (they are never journaled either).
      expect(dataOf(text, 'request')).toHaveLength(2);
      expect(dataOf(text, 'world')).toEqual([
        { change: 'POST clock/advance', now: '2026-06-01T12:01:00.000Z', frozen: true },
      ]);
      // The request log heard of every request as before, the admin ones too.
      expect(logged.map((event) => event.outcome)).toEqual(['admin', 'served', 'not_found', 'admin']);
    });

    it('cuts an answer’s body past what a page shows, and says its whole length', async () => {
      const { text } = await events(
        (read) => read.includes('event: request'),
        () => api('/calls/?page_size=100'),
      );
      const [calls] = dataOf(text, 'request');
      expect(calls.answer.body).toHaveLength(ANSWER_SHOWN_CHARS);
      expect(calls.answer.length).toBeGreaterThan(ANSWER_SHOWN_CHARS);
    });

    it('streams a session’s requests to its own admin token, and the server’s token reads that token', async () => {
      const session = server.sessions.create();
      const { json } = await admin('GET', `sessions/${session.id}`);
      expect(json.data).toEqual({
        id: 's1',
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        idleEndsAt: expect.any(String),
        adminToken: session.adminToken,
      });
      const { text } = await events(
        (read) => read.includes('event: request'),
        async () => {
          await api('/users/');
          await api('/teams/', session.keys.valid);
        },
        session.adminToken,
      );
      expect(dataOf(text, 'hello')[0].session).toBe('s1');
      expect(dataOf(text, 'request').map((entry) => [entry.session, entry.path])).toEqual([
        ['s1', '/v1/teams/'],
      ]);
    });

    it('answers HEAD with the head alone', async () => {
      const { status, headers, text } = await admin('HEAD', 'events');
      expect([status, headers['content-type'], text]).toEqual([200, 'text/event-stream; charset=utf-8', '']);
    });
  });

  describe('the world’s readouts', () => {
    it('GET faults lists the armed faults with what each has left, a RegExp path as its pattern', async () => {
      expect((await admin('GET', 'faults')).json).toEqual({ data: [] });
      await admin('POST', 'faults', { method: 'get', path: '/v1/teams/', status: 503, times: 2 });
      await admin('POST', 'faults', { pathPattern: '^/v1/calls/', drop: true });
      expect(await api('/teams/')).toBe(503);
      expect((await admin('GET', 'faults')).json).toEqual({
        data: [
          { method: 'GET', path: '/v1/teams/', status: 503, times: 2, remaining: 1 },
          // A RegExp's source, as JavaScript writes it (its slashes escaped): the same pattern.
          { pathPattern: '^\\/v1\\/calls\\/', drop: true, remaining: 1 },
        ],
      });
      expect(server.armedFaults()).toEqual([
        { method: 'GET', path: '/v1/teams/', status: 503, times: 2, remaining: 1 },
        { path: /^\/v1\/calls\//, drop: true, remaining: 1 },
      ]);
    });

    it('GET fault-rate answers the rates in force, or false', async () => {
      expect((await admin('GET', 'fault-rate')).json).toEqual({ data: false });
      await admin('POST', 'fault-rate', { pathPattern: '^/v1/calls/', rate: 0.5, max: 3 });
      expect((await admin('GET', 'fault-rate')).json).toEqual({
        data: { pathPattern: '^\\/v1\\/calls\\/', rate: 0.5, max: 3 },
      });
      expect(server.faultRates()).toEqual({ path: /^\/v1\/calls\//, rate: 0.5, max: 3 });
    });

    it('GET quota answers the default quota and the windows open now, which close with the clock', async () => {
      expect((await admin('GET', 'quota')).json).toEqual({ data: { default: false, windows: [] } });
      expect(await api('/teams/', server.keys.throttled)).toBe(200);
      await admin('POST', 'clock/advance', { ms: 1_000 });
      expect(await api('/teams/', server.keys.throttled)).toBe(200);
      const key = server.apiKeys().find((info) => info.name === 'Throttled');
      expect((await admin('GET', 'quota')).json).toEqual({
        data: {
          default: false,
          windows: [
            {
              keyId: key?.id,
              keyName: 'Throttled',
              quota: { requests: 5, perSeconds: 5 },
              requests: 2,
              openedAt: '2026-06-01T12:00:00.000Z',
              closesAt: '2026-06-01T12:00:05.000Z',
            },
          ],
        },
      });
      server.clock.advance(4_000);
      expect(server.quotas()).toEqual({ default: false, windows: [] });
    });
  });

  it('journals why a request went unmatched, and null for one that matched', async () => {
    await api('/teams/');
    await api('/teams');
    expect(server.journal().map((entry) => entry.unmatched)).toEqual([
      null,
      {
        reason: 'missing_slash',
        detail: 'No operation of the API has this path: its paths end with a slash (/v1/teams/).',
      },
    ]);
  });
});

describe('LiveFeed', () => {
  const served = {
    status: 200,
    outcome: 'served' as const,
    latencyMs: 0,
    result: { response: { status: 200, headers: {}, body: '{}' } },
  };
  const request = { method: 'GET', path: '/v1/teams/', search: '', headers: {} };

  it('hands the engine the request log’s hook alone while nobody watches, and its own while someone does', () => {
    const logged: string[] = [];
    const log = () => {
      logged.push('logged');
    };
    const feed = new LiveFeed('default', requestJournal(), new MockClock(0, { mode: 'frozen' }), log);
    expect(feed.onServed).toBe(log);
    const written: string[] = [];
    const stop = feed.body().open(
      (piece) => written.push(piece) > 0,
      () => undefined,
    );
    expect(feed.onServed).not.toBe(log);
    feed.onServed?.(request, 0, served, 1);
    expect(logged).toEqual(['logged']);
    expect(written.map((piece) => piece.slice(0, piece.indexOf('\n')))).toEqual([
      'event: hello',
      'event: request',
    ]);
    stop();
    expect(feed.onServed).toBe(log);
    expect(new LiveFeed('default', requestJournal(), new MockClock(0), undefined).onServed).toBeUndefined();
  });

  it('counts the requests a watcher could not take, and tells it once it takes events again', () => {
    const feed = new LiveFeed('default', requestJournal(), new MockClock(0, { mode: 'frozen' }), undefined);
    const written: string[] = [];
    let behind = false;
    feed.body().open(
      (piece) => !behind && written.push(piece) > 0,
      () => undefined,
    );
    behind = true;
    feed.onServed?.(request, 0, served, 1);
    feed.onServed?.(request, 0, served, 1);
    behind = false;
    feed.onServed?.(request, 0, served, 1);
    expect(written.map((piece) => piece.slice(0, piece.indexOf('\n')))).toEqual([
      'event: hello',
      'event: skipped',
      'event: request',
    ]);
    expect(written[1]).toBe('event: skipped\ndata: {"requests":2}\n\n');
  });

  it('ends every stream when closed, and ends a stream opened after at once', () => {
    const feed = new LiveFeed('default', requestJournal(), new MockClock(0), undefined);
    const ended: string[] = [];
    feed.body().open(
      () => true,
      () => ended.push('first'),
    );
    feed.close();
    feed.body().open(
      () => true,
      () => ended.push('late'),
    );
    expect(ended).toEqual(['first', 'late']);
    expect(feed.watchers).toBe(0);
    expect(feed.onServed).toBeUndefined();
  });
});
