/**
 * Figure 4d: lists while the data changes. The mock holds 1,000,000 calls and its activity makes 100 calls
 * a second arrive (by its running clock); every arrival changes the first page, the counts and the page
 * numbers, so the page cache and the indexes must be updated precisely rather than dropped. Two targets:
 * list throughput over HTTP during arrivals at least half that of the same list standing still, and a deep
 * page (about 40,000 of 40,000) within 1.5× of page 1 during arrivals.
 */

import type { ActivityOptions } from '@company-data/mock-server';
import { Agent } from 'undici';
import { deepPageSizes, pageCycle, pageReader, probeDeepPage, SPREAD } from '../lib/deep-pages.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { type LoadResult, load } from '../lib/load.js';
import { interleaveNamed, type Variant } from '../lib/loop.js';
import { atLeast, atMost, type FigureResult, measurement } from '../lib/result.js';
import { type HostedServer, startHosted } from '../lib/servers.js';
import { median, rotate } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-lists-arriving') as (typeof FIGURES)[number];
const PATH = '/calls/?page_size=25';
const PER_SECOND = 100;
/** Calls only: 100 a second, 10 % of them to be excused minutes later (after the figure ends). */
const ARRIVING: ActivityOptions = {
  callsPerMinute: PER_SECOND * 60,
  recordingsPerHour: 0,
  deactivationsPerDay: 0,
  callDeletionsPerHour: 0,
};
/** Runs figure 4d. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const { total, deep } = deepPageSizes(ctx.quick);
  const rounds = ctx.quick ? 2 : 4;
  const seconds = ctx.quick ? 2 : 3;
  const connections = 10;
  const pageRounds = ctx.quick ? 3 : 5;
  const pageCount = ctx.quick ? 200 : 500;
  r.method(
    `The mock's own listener in a child process with ${total.toLocaleString('en-US')} calls, throttling off, its clock running, ` +
      `and activity ${JSON.stringify(ARRIVING)} (${PER_SECOND} calls a second) switched on and off between runs ` +
      `through setActivity. Throughput: autocannon, GET /v1${PATH} (page 1, what every arrival changes), ` +
      `${connections} connections, ${seconds} s per run, ${rounds} interleaved rounds of still / arriving; req/s = completed / duration. ` +
      `Deep page: sequential requests over HTTP (one keep-alive connection) during arrivals, GET /v1${PATH}&page=<n> for ` +
      `pages 1–${SPREAD.toLocaleString('en-US')} and ${(deep - SPREAD + 1).toLocaleString('en-US')}–${deep.toLocaleString('en-US')} in turn, ` +
      `${pageRounds} interleaved rounds of up to ${pageCount} requests (3 s cap) after 100 warm-up requests each.`,
  );
  const begin = performance.now();
  const server: HostedServer = await startHosted(
    { kind: 'mock', mockOptions: { quota: false, sizes: { calls: total } } },
    ['--max-old-space-size=6144'],
  );
  const agent = new Agent({ connections: 1 });
  try {
    const headers = { authorization: `Bearer ${server.keys.valid}` };
    const get = pageReader(`${server.baseURL}${PATH}`, server.keys.valid as string, agent);
    const count = async () => (await get('')).pagination.count;
    await probeDeepPage(get, deep);
    r.note(
      `Building the ${total.toLocaleString('en-US')}-call mock and answering the first request took ${((performance.now() - begin) / 1000).toFixed(1)} s.`,
    );
    const setActivity = (activity: ActivityOptions | false) => server.call('setActivity', activity);

    // Warm both states up.
    await load({ url: `${server.baseURL}${PATH}`, connections, seconds: 2, headers });
    await setActivity(ARRIVING);
    await load({ url: `${server.baseURL}${PATH}`, connections, seconds: 2, headers });
    await setActivity(false);

    const states = ['still', 'arriving'] as const;
    const runs: Record<(typeof states)[number], LoadResult[]> = { still: [], arriving: [] };
    const arrivalRates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const state of rotate(states, round)) {
        const before = await count();
        const started = performance.now();
        if (state === 'arriving') await setActivity(ARRIVING);
        const result = await load({ url: `${server.baseURL}${PATH}`, connections, seconds, headers });
        if (state === 'arriving') {
          const after = await count();
          await setActivity(false);
          arrivalRates.push((after - before) / ((performance.now() - started) / 1000));
        }
        runs[state].push(result);
        ctx.log(`${state}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, non-2xx ${result.non2xx}`);
      }
    }
    const labels = {
      still: 'page 1, standing still',
      arriving: `page 1, ${PER_SECOND} calls a second arriving`,
    };
    const rps = (state: (typeof states)[number]) => {
      const list = runs[state];
      const bad = list.reduce((n, x) => n + x.non2xx + x.errors, 0);
      if (bad > 0) r.note(`${labels[state]}: ${bad} non-2xx responses or errors.`);
      return r.measure(
        measurement(
          `${labels[state]}, ${connections} connections`,
          'req/s',
          list.map((x) => x.rps),
          {
            'p50 ms': median(list.map((x) => x.p50)),
            'p99 ms': median(list.map((x) => x.p99)),
            ...(bad > 0 ? { 'non-2xx or errors': bad } : {}),
          },
        ),
      ).median;
    };
    const stillRps = rps('still');
    const arrivingRps = rps('arriving');
    r.note(
      `Calls that arrived per second during the arriving runs (count after − before, over the run's wall time): ${arrivalRates.map((rate) => rate.toFixed(0)).join(', ')}.`,
    );
    // Without arrivals at the rate asked for, the ratios below would measure nothing.
    r.check(
      atLeast(
        'arriving.rate',
        'calls arrived per second during the arriving runs (median)',
        median(arrivalRates),
        PER_SECOND * 0.9,
        'calls/s',
      ),
    );
    r.check(
      atLeast(
        'arriving.throughput',
        `page 1 during arrivals / page 1 standing still, ${connections} connections`,
        arrivingRps / stillRps,
        0.5,
      ),
    );

    await setActivity(ARRIVING);
    const lastFrom = deep - SPREAD + 1;
    const first = pageCycle(1);
    const last = pageCycle(lastFrom);
    const variants = {
      first: {
        label: `pages 1–${SPREAD.toLocaleString('en-US')}, during arrivals`,
        op: () => get(`&page=${first()}`),
      },
      deep: {
        label: `pages ${lastFrom.toLocaleString('en-US')}–${deep.toLocaleString('en-US')}, during arrivals`,
        op: () => get(`&page=${last()}`),
      },
    } satisfies Record<string, Variant>;
    const before = await count();
    const started = performance.now();
    const timings = await interleaveNamed(variants, {
      rounds: pageRounds,
      count: pageCount,
      warmup: 100,
      maxMs: 3_000,
      log: ctx.log,
    });
    const arrived = (await count()) - before;
    await setActivity(false);
    const [firstUs, deepUs] = (['first', 'deep'] as const).map(
      (name) => r.measure(measurement(variants[name].label, 'µs/request', timings[name].wall)).median,
    ) as [number, number];
    r.note(
      `${arrived.toLocaleString('en-US')} calls arrived during the deep-page part (${(arrived / ((performance.now() - started) / 1000)).toFixed(0)} a second).`,
    );
    r.check(
      atMost(
        'arriving.deep-page',
        `deep page / page 1 latency, during arrivals (pages ${lastFrom.toLocaleString('en-US')}–${deep.toLocaleString('en-US')} vs 1–${SPREAD.toLocaleString('en-US')})`,
        deepUs / firstUs,
        1.5,
      ),
    );
    return r.build();
  } finally {
    await agent.close();
    await server.close();
  }
}
