/**
 * Figure 13: sessions in one mock (issue 36). What a session costs to create and to hold, and what 200 of
 * them cost the requests of a server: lists through `server.handle` (the engine, no transport, so the
 * routing's share is as large as it can be).
 */

import { createMockServer, type MockServer } from '@company-data/mock-server';
import { request } from 'undici';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { interleaveNamed } from '../lib/loop.js';
import { atLeast, atMost, type FigureResult, measurement } from '../lib/result.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-sessions') as (typeof FIGURES)[number];
const SESSIONS = 200;
const MB = 1024 * 1024;

/** Heap in use plus array buffers after two full collections: what the process holds. */
function held(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('figure 13 needs node --expose-gc');
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** One list and one call's detail, as a test's first requests: the page cache and the record memo fill. */
async function warm(server: MockServer, key: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}` };
  const list = await server.handle({ method: 'GET', path: '/v1/calls/', search: '?page_size=25', headers });
  if (list.drop || list.response.status !== 200) throw new Error('the list failed');
  const id = (JSON.parse(list.response.body) as { data: { id: string }[] }).data[0]?.id;
  const detail = await server.handle({ method: 'GET', path: `/v1/calls/${id}/`, search: '', headers });
  if (detail.drop || detail.response.status !== 200) throw new Error('the detail failed');
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number;
}

/** Runs figure 13. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 3 : 9;
  const count = ctx.quick ? 500 : 3_000;
  r.method(
    `In one process: a server, then ${SESSIONS} sessions of the default size made with server.sessions.create(), ` +
      'each timed alone, each then serving one list of 25 calls and one call (its page cache and record memo ' +
      `filled). Memory: heap in use plus array buffers after full collections, with the first session and with all ` +
      `${SESSIONS + 1}; beyond the first, per session. Lists: GET /v1/calls/?page_size=25 from one loop through ` +
      `the in-process dispatcher (undici.request + body.text): a server without sessions (its own key), against ` +
      `one session's lists with the ${SESSIONS} present, and each session's in turn; the first two also through ` +
      `server.handle (no transport); ${rounds} interleaved rounds of up to ${count} requests (3 s cap each) after a ` +
      'warm-up; medians.',
  );

  const server = createMockServer({ clock: 'frozen' });
  await warm(server, server.keys.valid);
  const first = server.sessions.create({ clock: 'frozen' });
  await warm(server, first.keys.valid);
  const withOne = held();
  const createMs: number[] = [];
  const keys = [first.keys.valid];
  for (let i = 1; i < SESSIONS + 1; i++) {
    const started = performance.now();
    const session = server.sessions.create({ clock: 'frozen' });
    createMs.push(performance.now() - started);
    keys.push(session.keys.valid);
    await warm(server, session.keys.valid);
  }
  const withAll = held();
  const perSession = (withAll - withOne) / SESSIONS;

  const create = r.measure(measurement('a session made (sessions.create)', 'ms', createMs));
  r.measure(measurement('memory per session beyond the first', 'MB', [perSession / MB]));
  r.check(atMost('create-p95', 'a session made, 95th percentile', percentile(createMs, 0.95), 5, 'ms'));
  r.check(atMost('memory', 'memory per session beyond the first', perSession / MB, 2, 'MB'));

  const single = createMockServer({ clock: 'frozen' });
  const path = '/v1/calls/?page_size=25';
  const singleHeaders = { authorization: `Bearer ${single.keys.valid}` };
  const routedHeaders = keys.map((key) => ({ authorization: `Bearer ${key}` }));
  let next = 0;
  const nextHeaders = () => {
    next = (next + 1) % routedHeaders.length;
    return routedHeaders[next] as { authorization: string };
  };
  const search = '?page_size=25';
  // Requests of one session while the others are there: what the sessions' presence costs (the route by key).
  const oneHeaders = routedHeaders[SESSIONS / 2] as { authorization: string };
  const timings = await interleaveNamed(
    {
      single: {
        label: 'a server without sessions',
        op: async () =>
          (
            await request(`${single.apiRoot}${path}`, {
              headers: singleHeaders,
              dispatcher: single.dispatcher,
            })
          ).body.text(),
      },
      present: {
        label: `one session, ${SESSIONS} present`,
        op: async () =>
          (
            await request(`${server.apiRoot}${path}`, { headers: oneHeaders, dispatcher: server.dispatcher })
          ).body.text(),
      },
      rotating: {
        label: `each of ${SESSIONS} sessions in turn`,
        op: async () =>
          (
            await request(`${server.apiRoot}${path}`, {
              headers: nextHeaders(),
              dispatcher: server.dispatcher,
            })
          ).body.text(),
      },
      singleEngine: {
        label: 'handle, a server without sessions',
        op: () => single.handle({ method: 'GET', path: '/v1/calls/', search, headers: singleHeaders }),
      },
      presentEngine: {
        label: `handle, one session, ${SESSIONS} present`,
        op: () => server.handle({ method: 'GET', path: '/v1/calls/', search, headers: oneHeaders }),
      },
    },
    { rounds, count, maxMs: 3_000, warmup: 2_000, log: ctx.log },
  );
  const rate = (wall: number[]) => wall.map((us) => 1e6 / us);
  const alone = r.measure(
    measurement('lists, a server without sessions', 'req/s', rate(timings.single.wall)),
  );
  const present = r.measure(
    measurement(`lists of one session, ${SESSIONS} sessions present`, 'req/s', rate(timings.present.wall)),
  );
  const rotating = r.measure(
    measurement(`lists of each of the ${SESSIONS} sessions in turn`, 'req/s', rate(timings.rotating.wall)),
  );
  r.check(
    atLeast(
      'throughput',
      `list throughput with ${SESSIONS} sessions present against none`,
      present.median / alone.median,
      0.9,
    ),
  );
  const engineAlone = r.measure(
    measurement('lists through handle, a server without sessions', 'req/s', rate(timings.singleEngine.wall)),
  );
  const enginePresent = r.measure(
    measurement(
      `lists through handle, one session, ${SESSIONS} present`,
      'req/s',
      rate(timings.presentEngine.wall),
    ),
  );
  r.note(
    `Lists of each session in turn (every request to another world's data): ${(rotating.median / alone.median).toFixed(2)}× ` +
      `a server without sessions, ${(1e6 / rotating.median - 1e6 / alone.median).toFixed(1)} µs more a request: the ` +
      `${SESSIONS} worlds' pages (14 KB each) read in turn from memory no processor cache holds, as ${SESSIONS} servers ` +
      `would be. Through handle alone (a cached page, no transport), the route by key costs ` +
      `${(1e6 / enginePresent.median - 1e6 / engineAlone.median).toFixed(2)} µs a request ` +
      `(${(enginePresent.median / engineAlone.median).toFixed(2)}×).`,
  );
  r.note(
    `Made in ${create.median.toFixed(2)} ms (median; the slowest ${Math.max(...createMs).toFixed(2)} ms). ` +
      `Memory with the first session ${(withOne / MB).toFixed(1)} MB, with all ${SESSIONS + 1} ` +
      `${(withAll / MB).toFixed(1)} MB: ${(perSession / 1024) | 0} KiB each beyond the first.`,
  );
  await server.close();
  await single.close();
  await largeSessions(r);
  return r.build();
}

/**
 * Two sessions of 1,000,000 calls: the second shares the first's generated tables (records, filter
 * indexes), so it holds only its own and its first filtered list finds the index built.
 */
async function largeSessions(r: ResultBuilder): Promise<void> {
  const sizes = { calls: 1_000_000 };
  const server = createMockServer({ clock: 'frozen', sizes });
  const filtered = async (key: string) => {
    const started = performance.now();
    const headers = { authorization: `Bearer ${key}` };
    const result = await server.handle({
      method: 'GET',
      path: '/v1/calls/',
      search: '?page_size=25&source=voice_agent',
      headers,
    });
    if (result.drop || result.response.status !== 200) throw new Error('the filtered list failed');
    return performance.now() - started;
  };
  const firstMs = await filtered(server.keys.valid);
  const before = held();
  const session = server.sessions.create({ clock: 'frozen', sizes });
  const secondMs = await filtered(session.keys.valid);
  const perSession = (held() - before) / MB;
  r.measure(measurement('a second session of 1,000,000 calls, held beyond the first', 'MB', [perSession]));
  r.note(
    `Two worlds of 1,000,000 calls: the second holds ${perSession.toFixed(2)} MB more; its first filtered list ` +
      `(?source=voice_agent) took ${secondMs.toFixed(1)} ms, the first world's ${firstMs.toFixed(0)} ms (the filter's ` +
      'index built then, and shared since).',
  );
  await server.close();
}
