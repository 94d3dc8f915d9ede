/**
 * Figure 3: heap growth while the SDK iterates 1,000,000 calls from the in-process mock (no sockets),
 * sampled after forced garbage collection. The mock's data is built before the baseline sample, so only
 * what iteration retains counts.
 */
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { loadMock, loadSdk } from '../lib/packages.js';
import { below, type FigureResult, measurement } from '../lib/result.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'memory') as (typeof FIGURES)[number];
const MB = 1024 * 1024;

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Runs figure 3. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const total = ctx.quick ? 100_000 : 1_000_000;
  const pageSize = 100;
  const samplesEvery = total / 20;
  const maxSeconds = 80;
  r.method(
    `createMockServer({ sizes: { calls: ${total.toLocaleString('en-US')} } }) and the SDK with the mock's in-process ` +
      `dispatcher, in a process started with --expose-gc. Baseline heap after forced GC once the mock and client ` +
      `exist; then \`for await\` over every call (page_size ${pageSize}), with a forced-GC sample of heapUsed every ` +
      `${samplesEvery.toLocaleString('en-US')} calls. Growth = highest sample − baseline. One pass (capped at ${maxSeconds} s): ` +
      `the value is a maximum over 20 samples, not a timing.`,
  );
  const { createMockServer } = await loadMock();
  const { CompanyData } = await loadSdk();
  const buildStart = performance.now();
  const mock = createMockServer({ sizes: { calls: total }, throttle: false });
  const client = new CompanyData({
    apiKey: mock.keys.valid,
    baseURL: mock.baseURL,
    dispatcher: mock.dispatcher,
  });
  // Touch the data once so lazily built indexes exist before the baseline.
  const first = await client.calls.list({ page_size: 1 });
  const buildSeconds = (performance.now() - buildStart) / 1000;
  const baseline = heapAfterGc();
  ctx.log(`mock built in ${buildSeconds.toFixed(1)} s; baseline heap ${(baseline / MB).toFixed(0)} MB`);

  const samples: number[] = [];
  const begin = performance.now();
  const stopAt = begin + maxSeconds * 1000;
  let count = 0;
  let lastId = '';
  for await (const call of client.calls.list({ page_size: pageSize })) {
    lastId = call.id;
    count++;
    if (count % samplesEvery === 0) {
      samples.push((heapAfterGc() - baseline) / MB);
      ctx.log(`${count} calls: +${samples.at(-1)?.toFixed(1)} MB`);
      if (performance.now() > stopAt) break;
    }
    if (count > total) break;
  }
  const seconds = (performance.now() - begin) / 1000;
  const final = (heapAfterGc() - baseline) / MB;
  const peak = Math.max(...samples, final);
  r.measure(
    measurement('heap growth, highest forced-GC sample', 'MB', [peak], {
      'final growth MB': final,
      samples: samples.length,
      'baseline heap MB': baseline / MB,
    }),
  );
  r.measure(measurement('iteration throughput (in-process, validation on)', 'calls/s', [count / seconds]));
  r.check(below('memory.growth', 'heap growth while iterating 1,000,000 calls', peak, 64, 'MB'));
  const complete = count === total && first.pagination.count === total;
  r.check({
    id: 'memory.complete',
    label: 'every call yielded',
    value: count,
    unit: 'calls',
    target: `= ${total.toLocaleString('en-US')}`,
    pass: complete,
    ...(complete ? {} : { note: `iteration stopped at ${count} (time cap or a short listing)` }),
  });
  r.note(
    `Samples (MB over baseline): ${samples.map((s) => s.toFixed(1)).join(', ')}; mock build ${buildSeconds.toFixed(1)} s; ` +
      `last id ${lastId.slice(0, 8)}…; mock journal holds ${mock.journal().length} entries at the end.`,
  );
  await mock.close();
  return r.build();
}
