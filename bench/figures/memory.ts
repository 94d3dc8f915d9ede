/**
 * Figure 3: heap growth while the SDK iterates 1,000,000 calls from the in-process mock (no sockets),
 * sampled after forced garbage collection. The mock's data is built before the baseline sample, so only
 * what iteration retains counts. A second pass yields one event-loop turn per page, as a real socket
 * would, which separates what the SDK retains from work the runtime defers to `setImmediate`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createMockServer } from '@company-data/mock-server';
import { CompanyData } from '@company-data/sdk';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { below, type FigureResult, measurement } from '../lib/result.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'memory') as (typeof FIGURES)[number];
const MB = 1024 * 1024;
const PAGE_SIZE = 100;
const MAX_SECONDS = 60;
/** Forced-GC samples per pass: each one is a full collection of a heap that may hold hundreds of MB. */
const SAMPLES = 10;

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  return process.memoryUsage().heapUsed;
}

/** One pass over every call. */
interface Pass {
  /** Highest forced-GC sample over the baseline, MB. */
  peak: number;
  /** Growth after the last call, MB. */
  final: number;
  /** Every sample, MB over the baseline. */
  samples: number[];
  /** Calls yielded. */
  count: number;
  /** Calls per second (samples included). */
  rate: number;
  /** Baseline heap, MB. */
  baseline: number;
}

async function pass(total: number, yieldPerPage: boolean, log: (m: string) => void): Promise<Pass> {
  const mock = createMockServer({ sizes: { calls: total }, quota: false });
  const client = new CompanyData({
    apiKey: mock.keys.valid,
    baseURL: mock.baseURL,
    dispatcher: mock.dispatcher,
  });
  // One request first, so lazily built indexes exist before the baseline.
  const first = await client.calls.list({ page_size: 1 });
  if (first.pagination.count !== total)
    throw new Error(`the mock lists ${first.pagination.count} calls, not ${total}`);
  await nextTurn();
  const baseline = heapAfterGc();
  const samplesEvery = total / SAMPLES;
  const samples: number[] = [];
  const begin = performance.now();
  const stopAt = begin + MAX_SECONDS * 1000;
  let count = 0;
  for await (const _call of client.calls.list({ page_size: PAGE_SIZE })) {
    count++;
    if (yieldPerPage && count % PAGE_SIZE === 0) await nextTurn();
    if (count % samplesEvery === 0) {
      samples.push((heapAfterGc() - baseline) / MB);
      if (performance.now() > stopAt) break;
    }
    if (count >= total) break;
  }
  const rate = count / ((performance.now() - begin) / 1000);
  const final = (heapAfterGc() - baseline) / MB;
  log(
    `${yieldPerPage ? 'yielding' : 'plain'} pass: ${count} calls, peak +${Math.max(...samples).toFixed(1)} MB`,
  );
  await client.close();
  await mock.close();
  return { peak: Math.max(...samples, final), final, samples, count, rate, baseline: baseline / MB };
}

/** Runs figure 3. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const total = ctx.quick ? 100_000 : 1_000_000;
  r.method(
    `createMockServer({ sizes: { calls: ${total.toLocaleString('en-US')} } }) and the SDK with the mock's in-process ` +
      `dispatcher, in a process started with --expose-gc. Baseline heap after forced GC once the mock and client ` +
      `exist; then \`for await\` over every call (page_size ${PAGE_SIZE}), with a forced-GC sample of heapUsed every ` +
      `${(total / SAMPLES).toLocaleString('en-US')} calls. Growth = highest sample − baseline. The plain pass is the figure; a ` +
      `second pass (fresh mock and client) awaits one setImmediate per page, the event-loop turn a real socket ` +
      `forces, to tell the SDK's own retention from deferred runtime work. One pass each (capped at ${MAX_SECONDS} s): ` +
      `the value is a maximum over ${SAMPLES} samples, not a timing.`,
  );
  const plain = await pass(total, false, ctx.log);
  await nextTurn();
  const yielding = await pass(total, true, ctx.log);

  const extra = (p: Pass) => ({ 'final growth MB': p.final, 'baseline heap MB': p.baseline, calls: p.count });
  r.measure(
    measurement('plain for-await: heap growth, highest forced-GC sample', 'MB', [plain.peak], extra(plain)),
  );
  r.measure(measurement('one event-loop turn per page: heap growth', 'MB', [yielding.peak], extra(yielding)));
  r.measure(measurement('iteration throughput, plain pass (validation on)', 'calls/s', [plain.rate]));
  const growth = r.check(
    below(
      'memory.growth',
      `heap growth while iterating ${total.toLocaleString('en-US')} calls`,
      plain.peak,
      64,
      'MB',
    ),
  );
  r.check(
    below(
      'memory.growth-yielding',
      'same, one event-loop turn per page (SDK retention alone)',
      yielding.peak,
      64,
      'MB',
    ),
  );
  const complete = plain.count === total && yielding.count === total;
  r.check({
    id: 'memory.complete',
    label: 'every call yielded (both passes)',
    value: Math.min(plain.count, yielding.count),
    unit: 'calls',
    target: `= ${total.toLocaleString('en-US')}`,
    pass: complete,
    ...(complete ? {} : { note: `iteration stopped at ${plain.count} / ${yielding.count} (time cap)` }),
  });
  r.note(`Plain pass samples (MB over baseline): ${plain.samples.map((s) => s.toFixed(1)).join(', ')}.`);
  r.note(
    `Yielding pass samples (MB over baseline): ${yielding.samples.map((s) => s.toFixed(1)).join(', ')}.`,
  );
  if (growth.pass === false && yielding.peak < 64) {
    const perPage = ((plain.peak * MB) / (plain.count / PAGE_SIZE) / 1024).toFixed(0);
    growth.note =
      `≈ ${perPage} KB per page in the plain pass, ${yielding.peak.toFixed(1)} MB when the loop yields one ` +
      `event-loop turn per page: what grows waits for the event loop, not in the SDK's iteration.`;
  }
  return r.build();
}
