/**
 * Figure 14: what the watch page (`/__admin/ui`) costs the API's path when no page is open. A mock whose page
 * was opened and closed again against one whose page was never opened, and one with a page open (for
 * information): lists through `server.handle` in this process (the engine, no transport: the CPU of the
 * request itself), and over HTTP to mocks in child processes under load (the server's CPU per request).
 */

import { createMockServer, type MockRequest, type MockServer } from '@company-data/mock-server';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { type LoadResult, load } from '../lib/load.js';
import { interleaveNamed } from '../lib/loop.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import type { Started } from '../lib/server-host.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { median, rotate } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-watch-page') as (typeof FIGURES)[number];
const PATH = '/calls/?page_size=25';
const ADMIN_TOKEN = 'bench-admin';

/** A page's events, opened through the engine as any way in opens them; returns what closes them. */
async function openEvents(server: MockServer): Promise<() => void> {
  const result = await server.handle({
    method: 'GET',
    path: '/__admin/events',
    search: '',
    headers: { authorization: `Bearer ${server.adminToken}` },
  });
  if (result.drop || result.stream === undefined) throw new Error('the events did not open');
  // A page that reads every event: the pieces are taken and let go.
  return result.stream.open(
    () => true,
    () => undefined,
  );
}

/** Opens a hosted mock's events over HTTP, as the page does, reads the hello, and leaves. */
async function openAndCloseOverHttp(apiRoot: string): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(`${apiRoot}/__admin/events`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  if (!new TextDecoder().decode(value).startsWith('event: hello'))
    throw new Error('no hello from the events');
  controller.abort();
}

/** Runs figure 14. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 3 : 9;
  const count = ctx.quick ? 2_000 : 20_000;
  const httpRounds = ctx.quick ? 2 : 6;
  const seconds = ctx.quick ? 1 : 3;
  r.method(
    `The same list (GET /v1${PATH}, a cached page) from mocks whose watch page was never opened, opened and ` +
      `closed again, and open (its events read by a page that takes every piece; for information). In this ` +
      `process through server.handle (the engine, no transport): ${rounds} interleaved rounds of up to ${count} ` +
      `requests (3 s cap each) after 2,000 warm-up requests, CPU µs per request. Over HTTP, two mocks listening ` +
      `in one child process (the page of one opened over HTTP with the admin token, its hello read, then left): ` +
      `autocannon, 10 connections, ${seconds} s a run, ${httpRounds} interleaved rounds; the child's CPU µs per ` +
      `request of the run.`,
  );

  const never = createMockServer({ quota: false });
  const closed = createMockServer({ quota: false });
  const open = createMockServer({ quota: false });
  const hosted: HostedServer[] = [];
  try {
    (await openEvents(closed))();
    const closeOpen = await openEvents(open);
    const list = (server: MockServer): MockRequest => ({
      method: 'GET',
      path: '/v1/calls/',
      search: 'page_size=25',
      headers: { authorization: `Bearer ${server.keys.valid}` },
    });
    const requests = { never: list(never), closed: list(closed), open: list(open) };
    const timings = await interleaveNamed(
      {
        never: { label: 'page never opened', op: () => never.handle(requests.never) },
        closed: { label: 'page opened, then closed', op: () => closed.handle(requests.closed) },
        open: { label: 'page open', op: () => open.handle(requests.open) },
      },
      { rounds, count, maxMs: 3_000, warmup: 2_000, log: ctx.log },
    );
    closeOpen();
    const neverCpu = r.measure(measurement('handle, page never opened', 'CPU µs/req', timings.never.cpu));
    const closedCpu = r.measure(
      measurement('handle, page opened then closed', 'CPU µs/req', timings.closed.cpu),
    );
    const openCpu = r.measure(
      measurement('handle, page open (for information)', 'CPU µs/req', timings.open.cpu),
    );
    r.check(
      atMost(
        'handle.closed-vs-never',
        'CPU per request through handle, page closed / never opened',
        closedCpu.median / neverCpu.median,
        1.05,
      ),
    );
    r.note(
      `A page open costs ${(openCpu.median - neverCpu.median).toFixed(2)} µs of CPU a request ` +
        `(${(openCpu.median / neverCpu.median).toFixed(2)}×): the request's event, its answer's first 16,384 ` +
        `characters copied into it as JSON (for information, no target).`,
    );

    // Both mocks in one child process, which shares its JIT and its cores between them: two processes differed
    // by more than what is measured here on a busy machine.
    const mockOptions = { quota: false as const, adminToken: ADMIN_TOKEN };
    const host = await startHosted({ kind: 'mock', mockOptions });
    hosted.push(host);
    const hostNever = { baseURL: host.baseURL, apiRoot: host.apiRoot, keys: host.keys };
    const hostClosed = await host.call<Started>('startBeside', mockOptions);
    await openAndCloseOverHttp(hostClosed.apiRoot);
    const headers = { authorization: `Bearer ${hostNever.keys.valid}` };
    const closedHeaders = { authorization: `Bearer ${hostClosed.keys.valid}` };
    const variants = [
      { name: 'never', baseURL: hostNever.baseURL, headers },
      { name: 'closed', baseURL: hostClosed.baseURL, headers: closedHeaders },
    ];
    for (const { baseURL, headers: auth } of variants)
      await load({ url: `${baseURL}${PATH}`, connections: 10, seconds: 1, headers: auth });
    const cpu = new Map<string, number[]>();
    const runs = new Map<string, LoadResult[]>();
    for (let round = 0; round < httpRounds; round++) {
      for (const { name, baseURL, headers: auth } of rotate(variants, round)) {
        const before = await host.cpu();
        const result = await load({ url: `${baseURL}${PATH}`, connections: 10, seconds, headers: auth });
        const after = await host.cpu();
        cpu.set(name, [
          ...(cpu.get(name) ?? []),
          (after.cpuMicros - before.cpuMicros) / Math.max(1, result.total),
        ]);
        runs.set(name, [...(runs.get(name) ?? []), result]);
        ctx.log(`${name}: ${Math.round(result.rps)} req/s`);
      }
    }
    const rps = (name: string) => (runs.get(name) ?? []).map((result) => result.rps);
    const bad = [...runs.values()].flat().reduce((n, result) => n + result.non2xx + result.errors, 0);
    if (bad > 0) r.note(`${bad} non-2xx responses or errors over HTTP.`);
    const httpNever = r.measure(
      measurement('HTTP listener, page never opened', 'server CPU µs/req', cpu.get('never') ?? [], {
        'req/s': median(rps('never')),
      }),
    );
    const httpClosed = r.measure(
      measurement('HTTP listener, page opened then closed', 'server CPU µs/req', cpu.get('closed') ?? [], {
        'req/s': median(rps('closed')),
      }),
    );
    r.check(
      atMost(
        'http.closed-vs-never',
        'server CPU per request over HTTP, page closed / never opened',
        httpClosed.median / httpNever.median,
        1.05,
      ),
    );
    r.note(
      'Why a closed page costs nothing: the page is three rows of the admin API, whose prefix the engine checked ' +
        'before the page existed (the engine still has two side routes); with no page open, the engine’s ' +
        'request hook is the request log’s (none here), as before, and the feed builds no event. What the API’s ' +
        'path gained is a read of that hook through a getter, a journal entry’s `unmatched` field and, in each way ' +
        'in, one look at the answer’s `stream`.',
    );
    return r.build();
  } finally {
    await Promise.all([
      never.close(),
      closed.close(),
      open.close(),
      ...hosted.map((server) => server.close()),
    ]);
  }
}
