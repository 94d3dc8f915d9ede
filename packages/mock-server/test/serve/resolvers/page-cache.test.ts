import { CALL_SOURCES } from '@company-data/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMockServer,
  type MockRequest,
  type MockResponse,
  type MockServer,
} from '../../../src/index.js';
import { wireForm } from '../../../src/serve/http/wire.js';
import { PageCache, setPageCacheLimits } from '../../../src/serve/resolvers/page-cache.js';
import { sampleFixture } from '../../support/fixture-sample.js';

const OFF = { entries: 0, bytes: 0 };

afterEach(() => {
  setPageCacheLimits(undefined);
  vi.restoreAllMocks();
});

function get(server: MockServer, target: string, key = server.keys.valid, method = 'GET'): MockRequest {
  const mark = target.indexOf('?');
  return {
    method,
    path: `/v1${mark < 0 ? target : target.slice(0, mark)}`,
    search: mark < 0 ? '' : target.slice(mark + 1),
    headers: { authorization: `Bearer ${key}` },
  };
}

async function answer(server: MockServer, request: MockRequest): Promise<MockResponse> {
  const result = await server.handle(request);
  if (result.drop) throw new Error('dropped');
  return result.response;
}

/** Status, headers and body, as the cache off computes them. */
async function uncached(server: MockServer, request: MockRequest): Promise<MockResponse> {
  setPageCacheLimits(OFF);
  try {
    return { ...(await answer(server, request)) };
  } finally {
    setPageCacheLimits(undefined);
  }
}

/** Every list with every filter value, both orderings, several pages and sizes; every detail endpoint. */
async function everyPage(server: MockServer): Promise<string[]> {
  const lists = ['/users/', '/teams/', '/recordings/', '/calls/'];
  const queries = [
    '',
    'page=2',
    'page_size=1&page=3',
    'page_size=100',
    'ordering=created_at&page_size=7',
    'page=999',
  ];
  const targets: string[] = [];
  for (const list of lists) for (const query of queries) targets.push(`${list}?${query}`);
  for (const active of ['true', 'false']) targets.push(`/users/?is_active=${active}&page_size=3`);
  for (const source of CALL_SOURCES) {
    targets.push(
      `/calls/?source=${source}`,
      `/calls/?source=${source}&ordering=created_at&page=2&page_size=5`,
    );
  }
  for (const [list, details] of [
    ['/users/', ['']],
    ['/teams/', ['']],
    ['/recordings/', ['', 'transcript/']],
    ['/calls/', ['', 'transcript/']],
  ] as const) {
    const page = JSON.parse((await answer(server, get(server, `${list}?page_size=2`))).body);
    for (const { id } of page.data as { id: string }[]) {
      for (const detail of details)
        targets.push(`${list}${id}/${detail}`, `${list}${id.toUpperCase()}/${detail}`);
    }
    targets.push(`${list}00000000-0000-4000-8000-000000000000/`);
  }
  return targets;
}

describe('cached pages', () => {
  it('answer every list (every filter, ordering and page) and every detail exactly as uncached, miss or hit', async () => {
    const server = createMockServer({ quota: false });
    const targets = await everyPage(server);
    expect(targets.length).toBeGreaterThan(50);
    const requests = [server.keys.valid, server.keys.otherCompany].flatMap((key) =>
      targets.map((target) => get(server, target, key)),
    );
    const expected: MockResponse[] = [];
    for (const request of requests) expected.push(await uncached(server, request));
    // Twice through every request of both companies: misses, then hits.
    for (const pass of ['miss', 'hit']) {
      for (const [i, request] of requests.entries()) {
        const where = `${pass}: ${request.path}?${request.search} (${request.headers.authorization})`;
        expect(await answer(server, request), where).toEqual(expected[i]);
        expect(await answer(server, { ...request, method: 'HEAD' }), `HEAD ${where}`).toEqual(expected[i]);
      }
    }
  });

  it('serialise a page once: a repeated request reads no record again', async () => {
    const server = createMockServer({ quota: false });
    const stored = vi.spyOn(PageCache.prototype, 'set');
    const first = await answer(server, get(server, '/calls/?page_size=25'));
    const again = await answer(server, get(server, '/calls/?page_size=25'));
    // Parameters spelled differently but normalised alike land on the same page.
    const same = await answer(server, get(server, '/calls/?page=1&ordering=-created_at'));
    expect(stored).toHaveBeenCalledTimes(1);
    expect(again).toBe(first);
    expect(same).toBe(first);
  });

  it('keep the checks before them: a revoked key, a forbidden resource, a throttled key, a bad query', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const target = '/calls/?page_size=25';
    const key = server.createKey({ name: 'Soon revoked', quota: { requests: 2, perSeconds: 60 } });
    expect((await answer(server, get(server, target, key))).status).toBe(200);
    expect((await answer(server, get(server, target, key))).status).toBe(200);
    expect((await answer(server, get(server, target, key))).status).toBe(429);
    server.revokeKey(key);
    expect((await answer(server, get(server, target, key))).status).toBe(401);
    expect((await answer(server, get(server, target, server.keys.limited))).status).toBe(403);
    expect((await answer(server, get(server, `${target}&page=0`))).status).toBe(400);
    // Another company's key gets its own company's page, not the cached one.
    const other = JSON.parse((await answer(server, get(server, target, server.keys.otherCompany))).body);
    const own = JSON.parse((await answer(server, get(server, target))).body);
    expect(other.pagination.count).not.toBe(own.pagination.count);
  });

  describe('are dropped by every change of the data', () => {
    const admin = async (server: MockServer, path: string, body: unknown) => {
      const response = await answer(server, {
        method: 'POST',
        path: `/__admin/${path}`,
        search: '',
        headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
      });
      expect(response.status, response.body).toBe(200);
    };
    const changes: [string, (server: MockServer) => unknown][] = [
      ['reset()', (server) => server.reset()],
      ['reseed() with the same seed', (server) => server.reseed()],
      ['reseed() with another seed', (server) => server.reseed({ seed: 2 })],
      ['loadFixture()', (server) => server.loadFixture(sampleFixture())],
      ['admin POST reset', (server) => admin(server, 'reset', {})],
      ['admin POST seed', (server) => admin(server, 'seed', { seed: 3, sizes: { calls: 7 } })],
      ['admin POST fixture', (server) => admin(server, 'fixture', sampleFixture())],
    ];
    it.each(changes)('%s', async (_name, change) => {
      const server = createMockServer({ quota: false });
      const stored = vi.spyOn(PageCache.prototype, 'set');
      for (const target of ['/calls/?page_size=25', '/users/?is_active=true']) {
        await answer(server, get(server, target));
        await answer(server, get(server, target));
      }
      expect(stored).toHaveBeenCalledTimes(2);
      await change(server);
      // Keys may be new too: the fixture's, or the new seed's.
      const requests = ['/calls/?page_size=25', '/users/?is_active=true'].map((target) =>
        get(server, target, server.keys.valid),
      );
      const answers = [];
      for (const request of requests) answers.push(await answer(server, request));
      expect(stored).toHaveBeenCalledTimes(4);
      for (const [i, request] of requests.entries())
        expect(answers[i]).toEqual(await uncached(server, request));
    });
  });
});

describe('cached pages follow record changes precisely', () => {
  const FACET: Record<string, string | undefined> = { '/users/': 'is_active', '/calls/': 'source' };
  const CHANGES = {
    users: { list: '/users/', update: { first_name: 'Changed' } },
    teams: { list: '/teams/', update: { name: 'Changed' } },
    recordings: { list: '/recordings/', update: { score: 1.5 } },
    calls: { list: '/calls/', update: { summary: 'Changed.' } },
  } as const;
  const cases = Object.entries(CHANGES).flatMap(([resource, change]) =>
    (['created', 'updated', 'deleted'] as const).map((kind) => [resource, kind, change] as const),
  );

  it.each(cases)(
    '%s %s: only that list (its count on every page; the record’s filter value) and the record miss',
    async (resource, kind, { list, update }) => {
      const server = createMockServer({ quota: false, clock: 'frozen' });
      const targets = await everyPage(server);
      for (const target of targets) await answer(server, get(server, target));
      const target = JSON.parse((await answer(server, get(server, `${list}?page_size=1`))).body).data[0];
      const records = server.records as unknown as {
        create(resource: string, fields: object): { id: string; [field: string]: unknown };
        update(resource: string, id: string, fields: object): unknown;
        delete(resource: string, id: string): void;
      };
      let record = target;
      if (kind === 'created') record = records.create(resource, {});
      else if (kind === 'updated') records.update(resource, target.id, update);
      else records.delete(resource, target.id);
      const stored = vi.spyOn(PageCache.prototype, 'set');
      const missed: string[] = [];
      for (const page of targets) {
        const before = stored.mock.calls.length;
        await answer(server, get(server, page));
        if (stored.mock.calls.length > before) missed.push(page);
      }
      const facet = FACET[list];
      const expected = targets.filter((page) => {
        if (!page.startsWith(list)) return false;
        const mark = page.indexOf('?');
        if (mark >= 0) {
          const query = new URLSearchParams(page.slice(mark + 1));
          return facet === undefined || !query.has(facet) || query.get(facet) === String(record[facet]);
        }
        // A deleted record's by-id answer is a 404, never cached; an id in capitals then hits the page its
        // lower-case spelling stored.
        return kind === 'updated' && page.startsWith(`${list}${record.id}/`);
      });
      expect(missed).toEqual(expected);
      expect(expected.some((page) => page.includes('?'))).toBe(true);
      if (facet !== undefined)
        expect(
          targets.filter((page) => page.includes(`${facet}=`) && !expected.includes(page)).length,
        ).toBeGreaterThan(0);
      for (const page of targets) {
        const request = get(server, page);
        expect(await answer(server, request), page).toEqual(await uncached(server, request));
      }
    },
  );
});

describe('PageCache', () => {
  const page = (body: string) => ({
    response: { status: 200, headers: {}, body },
    outcome: 'served' as const,
  });

  it('keeps at most `entries` pages, dropping the least recently used', () => {
    setPageCacheLimits({ entries: 3, bytes: 1_000_000 });
    const cache = new PageCache();
    for (const key of ['a', 'b', 'c']) cache.set(key, page(key));
    // Reading 'a' makes it the most recently used, so 'b' is the one to go.
    expect(cache.get('a')).toEqual(page('a'));
    cache.set('d', page('d'));
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key)?.response.body)).toEqual(['a', 'c', 'd']);
  });

  it('keeps at most `bytes`, counting text and encoded bytes, and never a page larger than that', () => {
    setPageCacheLimits({ entries: 100, bytes: 50 });
    const cache = new PageCache();
    cache.set('a', page('x'.repeat(10)));
    cache.set('b', page('y'.repeat(10)));
    expect(cache.bytes).toBe(40);
    cache.set('c', page('z'.repeat(10)));
    expect(cache.bytes).toBe(40);
    expect(cache.get('a')).toBeUndefined();
    cache.set('big', page('é'.repeat(13)));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('b', page('w'.repeat(20)));
    expect(cache.bytes).toBe(40);
    expect(cache.get('b')?.response.body).toBe('w'.repeat(20));
  });

  it('stays within its limits under many distinct pages', async () => {
    const server = createMockServer({ quota: false });
    setPageCacheLimits({ entries: 20, bytes: 200_000 });
    let largest = 0;
    const cache = new PageCache();
    for (let n = 1; n <= 500; n++) {
      const response = await answer(server, get(server, `/calls/?page=${n}&page_size=${(n % 100) + 1}`));
      cache.set(String(n), { response, outcome: 'served' });
      largest = Math.max(largest, cache.size);
      expect(cache.size).toBeLessThanOrEqual(20);
      expect(cache.bytes).toBeLessThanOrEqual(200_000);
    }
    expect(largest).toBe(20);
  });

  it('gives a cached page one wire form (encoded once), any other response a fresh one', async () => {
    const server = createMockServer({ quota: false });
    const response = await answer(server, get(server, '/calls/'));
    const form = wireForm(response);
    expect(wireForm(response)).toBe(form);
    expect(form.bytes.equals(Buffer.from(response.body))).toBe(true);
    expect(form.headers).toEqual([
      'content-type',
      'application/json',
      'content-length',
      String(form.bytes.length),
    ]);
    const error = await answer(server, get(server, '/calls/', 'svc_live_nope'));
    expect(wireForm(error)).not.toBe(wireForm(error));
    expect(wireForm(error).headers).toEqual([
      'content-type',
      'application/json',
      'www-authenticate',
      'Bearer realm="api"',
      'content-length',
      String(Buffer.byteLength(error.body)),
    ]);
  });
});
