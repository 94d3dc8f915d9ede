/**
 * Figure 4a: requests per second through the mock's own HTTP listener, against a bare node:http server
 * returning the very same bytes (the practical limit) and msw's `getResponse` behind node:http with one
 * catch-all handler (msw's best case: a single predicate to match), at 10 and 50 connections. Each server
 * runs in its own child process; autocannon runs here.
 */

import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { type LoadResult, load } from '../lib/load.js';
import { describeDifference, describeProfile } from '../lib/profile.js';
import { atLeast, atMost, type FigureResult, measurement } from '../lib/result.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { median, rotate } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-throughput') as (typeof FIGURES)[number];
const PATH = '/calls/?page_size=25';
const LABELS: Record<HostedServer['kind'], string> = {
  mock: 'mock server listener',
  bare: 'bare node:http, same bytes',
  'msw-naive': "msw getResponse, one catch-all handler (msw's best case)",
};

/** Runs figure 4a. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 1 : 4;
  const seconds = ctx.quick ? 2 : 3;
  const levels = [10, 50];
  r.method(
    `autocannon (in the figure's process) against each server in its own child process, all on 127.0.0.1: ` +
      `GET /v1${PATH} with a valid key, ${seconds} s per run, ${rounds} interleaved rounds per connection level ` +
      `(${levels.join(' and ')} connections), after a 2 s warm-up of each server. req/s = completed / duration; ` +
      `p50/p99 are medians over rounds of each run's percentiles of exact per-response latency. Server CPU µs/req is its CPU time per completed request. Server CPU % is the server ` +
      `process's CPU time over wall time during the run: near 100 % the server is the bottleneck; well below, the ` +
      `load generator or other work on the two shared cores limits what is measured. The mock runs with its ` +
      `default data set and throttling off.`,
  );

  const servers: HostedServer[] = [];
  try {
    const own = await startHosted({ kind: 'mock', mockOptions: { quota: false } });
    servers.push(own);
    const headers = { authorization: `Bearer ${own.keys.valid}` };
    const res = await fetch(`${own.baseURL}${PATH}`, { headers });
    if (res.status !== 200) throw new Error(`the mock answered ${res.status} to GET ${PATH}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    const naive = await startHosted({ kind: 'msw-naive', mockOptions: { quota: false } });
    servers.push(naive);
    const naiveRes = await fetch(`${naive.baseURL}${PATH}`, { headers });
    const naiveBytes = Buffer.from(await naiveRes.arrayBuffer());
    if (naiveRes.status !== 200 || !naiveBytes.equals(bytes)) {
      r.note(
        `${LABELS['msw-naive']} answered ${naiveRes.status} with ${naiveBytes.length} bytes (listener: ${bytes.length}); bytes differ.`,
      );
    }
    const bare = await startHosted({ kind: 'bare', bodyBase64: bytes.toString('base64') });
    servers.push(bare);
    r.note(`Response body: ${bytes.length} bytes (the mock's own page 1).`);

    for (const server of servers) {
      await load({ url: `${server.baseURL}${PATH}`, connections: 10, seconds: ctx.quick ? 1 : 2, headers });
    }
    const runs = new Map<string, LoadResult[]>();
    // CPU share of the server process during each run: near 100 % means the server is the bottleneck; well
    // below means the load generator (sharing the machine's two cores) limits what is measured.
    const busy = new Map<string, number[]>();
    // Server CPU time per request: far less sensitive to a busy machine than req/s, a cross-check of the ratios.
    const cpuPerRequest = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const connections of levels) {
        for (const server of rotate(servers, round + connections)) {
          const key = `${server.kind}@${connections}`;
          const before = await server.cpu();
          const result = await load({ url: `${server.baseURL}${PATH}`, connections, seconds, headers });
          const after = await server.cpu();
          busy.set(key, [
            ...(busy.get(key) ?? []),
            (100 * (after.cpuMicros - before.cpuMicros)) / (after.wallMicros - before.wallMicros),
          ]);
          cpuPerRequest.set(key, [
            ...(cpuPerRequest.get(key) ?? []),
            (after.cpuMicros - before.cpuMicros) / Math.max(1, result.total),
          ]);
          runs.set(key, [...(runs.get(key) ?? []), result]);
          ctx.log(`${key}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, non-2xx ${result.non2xx}`);
        }
      }
    }

    const rps = new Map<string, number>();
    const p99 = new Map<string, number>();
    for (const connections of levels) {
      for (const server of servers) {
        const key = `${server.kind}@${connections}`;
        const list = runs.get(key) ?? [];
        const bad = list.reduce((n, x) => n + x.non2xx + x.errors, 0);
        const m = r.measure(
          measurement(
            `${LABELS[server.kind]}, ${connections} connections`,
            'req/s',
            list.map((x) => x.rps),
            {
              'p50 ms': median(list.map((x) => x.p50)),
              'p99 ms': median(list.map((x) => x.p99)),
              'server CPU %': median(busy.get(key) ?? [0]),
              'server CPU µs/req': median(cpuPerRequest.get(key) ?? [0]),
              ...(bad > 0 ? { 'non-2xx or errors': bad } : {}),
            },
          ),
        );
        rps.set(key, m.median);
        p99.set(key, median(list.map((x) => x.p99)));
        if (bad > 0)
          r.note(`${LABELS[server.kind]} at ${connections} connections: ${bad} non-2xx responses or errors.`);
      }
    }

    for (const connections of levels) {
      const of = (kind: HostedServer['kind']) => rps.get(`${kind}@${connections}`) as number;
      r.check(
        atLeast(
          `throughput.vs-bare-${connections}`,
          `listener / bare node:http, ${connections} connections`,
          of('mock') / of('bare'),
          0.6,
        ),
      );
      r.check(
        atMost(
          `latency.p99-vs-bare-${connections}`,
          `listener p99 / bare node:http p99, ${connections} connections`,
          (p99.get(`mock@${connections}`) as number) / (p99.get(`bare@${connections}`) as number),
          2,
        ),
      );
      r.check(
        atLeast(
          `throughput.vs-naive-${connections}`,
          `listener / msw getResponse (one catch-all handler), ${connections} connections`,
          of('mock') / of('msw-naive'),
          4,
        ),
      );
    }

    for (const connections of levels) {
      const cpu = (kind: string) => median(cpuPerRequest.get(`${kind}@${connections}`) ?? [Number.NaN]);
      r.note(
        `Cross-check from server CPU time per request at ${connections} connections (steadier than req/s when other work shares the cores, though not immune to it): ` +
          `bare / listener = ${(cpu('bare') / cpu('mock')).toFixed(2)}×, msw / listener = ` +
          `${(cpu('msw-naive') / cpu('mock')).toFixed(2)}× (the throughput ratios a saturated server would show).`,
      );
    }

    // A miss gets short CPU profiles of the listener and of the bare server under the same load, compared
    // per request, to name what limits it.
    const missed = r.checks.filter((c) => c.pass === false);
    if (missed.length > 0) {
      const profiled = async (server: HostedServer) => {
        await server.profileStart();
        const result = await load({ url: `${server.baseURL}${PATH}`, connections: 50, seconds: 3, headers });
        return { label: LABELS[server.kind], summary: await server.profileStop(), ops: result.total };
      };
      const slow = await profiled(own);
      const fast = await profiled(bare);
      const text = `${describeDifference(slow, fast)} ${describeProfile('the mock listener process under 50 connections', slow.summary)}`;
      missed.forEach((check, i) => {
        check.note = i === 0 ? text : `same profile as "${missed[0]?.label}" above.`;
      });
    }
    return r.build();
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}
