/**
 * Figure 4c: the cost of a deep page. With 1,000,000 calls, the last pages (page_size 25) must cost about
 * what the first pages cost: lists should come from pre-sorted indexes, not a sort or scan per request.
 * Each variant walks through 2,000 different pages in turn, more than the mock's page cache keeps, so every
 * request is built afresh: the figure measures the indexes, not the cache.
 */

import { createMockServer } from '@company-data/mock-server';
import { deepPageSizes, pageCycle, pageReader, probeDeepPage, SPREAD } from '../lib/deep-pages.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { interleaveNamed, runFor, type Variant } from '../lib/loop.js';
import { describeDifference, describeProfile, startProfile } from '../lib/profile.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-deep-page') as (typeof FIGURES)[number];
/** Runs figure 4c. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const { total, deep } = deepPageSizes(ctx.quick);
  const rounds = ctx.quick ? 3 : 5;
  const count = ctx.quick ? 200 : 600;
  r.method(
    `createMockServer({ sizes: { calls: ${total.toLocaleString('en-US')} } }), requests through its in-process ` +
      `dispatcher (so only the server's work and the client's parsing are timed): GET /v1/calls/?page_size=25 ` +
      `for pages 1–${SPREAD.toLocaleString('en-US')} and the last ${SPREAD.toLocaleString('en-US')} pages (to ${deep.toLocaleString('en-US')}) in turn, ` +
      `so that no answer comes from the page cache, default ordering and ascending. ` +
      `${rounds} interleaved rounds of up to ${count} requests (3 s cap) after 200 warm-up requests each.`,
  );
  const begin = performance.now();
  const mock = createMockServer({ sizes: { calls: total }, quota: false });
  const get = pageReader(`${mock.baseURL}/calls/?page_size=25`, mock.keys.valid as string, mock.dispatcher);
  try {
    await probeDeepPage(get, deep);
    const buildSeconds = (performance.now() - begin) / 1000;
    const lastFrom = deep - SPREAD + 1;
    const deepLabel = `pages ${lastFrom.toLocaleString('en-US')}–${deep.toLocaleString('en-US')}`;
    const firstLabel = `pages 1–${SPREAD.toLocaleString('en-US')}`;
    const [first, last, firstAsc, lastAsc] = [1, lastFrom, 1, lastFrom].map(pageCycle) as [
      () => number,
      () => number,
      () => number,
      () => number,
    ];
    const variants = {
      first: { label: firstLabel, op: () => get(`&page=${first()}`) },
      deep: { label: deepLabel, op: () => get(`&page=${last()}`) },
      firstAsc: {
        label: `${firstLabel}, ordering=created_at`,
        op: () => get(`&page=${firstAsc()}&ordering=created_at`),
      },
      deepAsc: {
        label: `${deepLabel}, ordering=created_at`,
        op: () => get(`&page=${lastAsc()}&ordering=created_at`),
      },
    } satisfies Record<string, Variant>;
    type Name = keyof typeof variants;
    const results = await interleaveNamed(variants, {
      rounds,
      count,
      warmup: 200,
      maxMs: 3_000,
      log: ctx.log,
    });
    const median = (name: Name) =>
      r.measure(measurement(variants[name].label, 'µs/request', results[name].wall)).median;
    const [firstMs, lastMs, firstAscMs, lastAscMs] = (['first', 'deep', 'firstAsc', 'deepAsc'] as const).map(
      median,
    ) as [number, number, number, number];
    const checks = [
      {
        check: r.check(
          atMost('deep-page.ratio', `${deepLabel} / ${firstLabel} latency`, lastMs / firstMs, 1.5),
        ),
        slow: 'deep',
        fast: 'first',
      },
      {
        check: r.check(
          atMost(
            'deep-page.ratio-asc',
            `${deepLabel} / ${firstLabel}, ordering=created_at`,
            lastAscMs / firstAscMs,
            1.5,
          ),
        ),
        slow: 'deepAsc',
        fast: 'firstAsc',
      },
    ] as const;
    r.note(
      `Building the ${total.toLocaleString('en-US')}-call mock and answering the first request took ${buildSeconds.toFixed(1)} s.`,
    );
    for (const { check, slow: slowName, fast: fastName } of checks) {
      if (check.pass !== false) continue;
      const profiled = async (name: Name) => {
        const stop = await startProfile();
        const ops = await runFor(variants[name].op, 2_000, 2_000);
        return { label: variants[name].label, summary: await stop(), ops };
      };
      const slow = await profiled(slowName);
      const fast = await profiled(fastName);
      check.note = `${describeDifference(slow, fast)} ${describeProfile(`"${slow.label}"`, slow.summary)}`;
    }
    return r.build();
  } finally {
    await mock.close();
  }
}
