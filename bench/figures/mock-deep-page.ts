/**
 * Figure 4c: the cost of a deep page. With 1,000,000 calls, page 40,000 (the last, page_size 25) must cost
 * about what page 1 costs: lists should come from pre-sorted indexes, not a sort or scan per request.
 */
import { request } from 'undici';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { interleave, runFor, type Variant } from '../lib/loop.js';
import { loadMock } from '../lib/packages.js';
import { describeDifference, describeProfile, startProfile } from '../lib/profile.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-deep-page') as (typeof FIGURES)[number];

/** Runs figure 4c. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const total = ctx.quick ? 100_000 : 1_000_000;
  const deep = total / 25;
  const rounds = ctx.quick ? 3 : 5;
  const count = ctx.quick ? 200 : 600;
  r.method(
    `createMockServer({ sizes: { calls: ${total.toLocaleString('en-US')} } }), requests through its in-process ` +
      `dispatcher (so only the server's work and the client's parsing are timed): GET /v1/calls/?page_size=25 ` +
      `for page 1 and page ${deep.toLocaleString('en-US')} (the last), default ordering and ascending. ` +
      `${rounds} interleaved rounds of up to ${count} requests (3 s cap) after 200 warm-up requests each.`,
  );
  const { createMockServer } = await loadMock();
  const begin = performance.now();
  const mock = createMockServer({ sizes: { calls: total }, throttle: false });
  const headers = { authorization: `Bearer ${mock.keys.valid}` };
  const get = async (query: string) => {
    const res = await request(`${mock.baseURL}/calls/?page_size=25${query}`, {
      headers,
      dispatcher: mock.dispatcher,
    });
    const body = JSON.parse(await res.body.text()) as {
      data: unknown[];
      pagination: { page: number; total_pages: number };
    };
    if (res.statusCode !== 200 || body.data.length !== 25)
      throw new Error(`unexpected answer for ${query}: ${res.statusCode}`);
    return body;
  };
  try {
    const probe = await get(`&page=${deep}`);
    const buildSeconds = (performance.now() - begin) / 1000;
    if (probe.pagination.total_pages !== deep)
      throw new Error(`expected ${deep} pages, got ${probe.pagination.total_pages}`);
    const variants: Variant[] = [
      { label: 'page 1', op: () => get('') },
      { label: `page ${deep.toLocaleString('en-US')}`, op: () => get(`&page=${deep}`) },
      { label: 'page 1, ordering=created_at', op: () => get('&ordering=created_at') },
      {
        label: `page ${deep.toLocaleString('en-US')}, ordering=created_at`,
        op: () => get(`&page=${deep}&ordering=created_at`),
      },
    ];
    const results = await interleave(variants, { rounds, count, warmup: 200, maxMs: 3_000, log: ctx.log });
    const medians = variants.map(
      (v, i) => r.measure(measurement(v.label, 'µs/request', results.wall[i] ?? [])).median,
    );
    const [first = 0, last = 0, firstAsc = 0, lastAsc = 0] = medians;
    const check = r.check(
      atMost('deep-page.ratio', `page ${deep.toLocaleString('en-US')} / page 1 latency`, last / first, 1.5),
    );
    const checkAsc = r.check(
      atMost(
        'deep-page.ratio-asc',
        `page ${deep.toLocaleString('en-US')} / page 1, ordering=created_at`,
        lastAsc / firstAsc,
        1.5,
      ),
    );
    r.note(
      `Building the ${total.toLocaleString('en-US')}-call mock and answering the first request took ${buildSeconds.toFixed(1)} s.`,
    );
    for (const [c, slowVariant, fastVariant] of [
      [check, variants[1], variants[0]],
      [checkAsc, variants[3], variants[2]],
    ] as const) {
      if (c.pass !== false || !slowVariant || !fastVariant) continue;
      const profiled = async (variant: Variant) => {
        const stop = await startProfile();
        const ops = await runFor(variant.op, 2_000, 2_000);
        return { label: variant.label, summary: await stop(), ops };
      };
      const slow = await profiled(slowVariant);
      const fast = await profiled(fastVariant);
      c.note = `${describeDifference(slow, fast)} ${describeProfile(`"${slow.label}"`, slow.summary)}`;
    }
    return r.build();
  } finally {
    await mock.close();
  }
}
