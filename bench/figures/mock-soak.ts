/**
 * Figure 12b: the soak (issue 39). The `company-data-mock` command over 100,000 seeded calls, its activity
 * bringing 100 calls a second (10 % excused later, 2 deleted a second), on a frozen clock moved an hour at a
 * time for 24 hours: about 8.6 million calls arrive. The bound: the process stays under 512 MB, and grows by
 * under 64 bytes per arrived call.
 */
import { Agent } from 'undici';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { type LongRun, longRun } from '../lib/long-run.js';
import { measureLongRunMemory } from '../lib/long-run-memory.js';
import { atMost, below, type FigureResult, measurement } from '../lib/result.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-soak') as (typeof FIGURES)[number];
const ACTIVITY = 'calls=100/s,excused=10%,deletions=2/s';
const MB = 2 ** 20;
/** The soak's bounds (docs/mock-server.md says them): the whole process, and its growth per arrived call. */
const MAX_RSS_MB = 512;
const MAX_BYTES_PER_CALL = 64;

/** Runs figure 12b. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const hours = ctx.quick ? 2 : 24;
  const args = ['--calls', '100000', '--freeze', '--activity', ACTIVITY];
  r.method(
    `company-data-mock ${args.join(' ')} (from the sources, one bundled file run by plain node), its clock ` +
      `moved an hour at a time for ${hours} hours; after each move, the memory (after a full garbage collection, as ` +
      `in figure 12a) and records of the admin summary. ` +
      `The lists are timed at the start and the end only, as in figure 12a (3 rounds of 300 requests).`,
  );
  const agent = new Agent({ connections: 1 });
  let run: LongRun;
  try {
    run = await longRun({ args, hours, timeEveryHour: false, rounds: 3, count: 300, log: ctx.log }, agent);
  } finally {
    await agent.close();
  }
  const { points } = run;
  const { start, end, arrived } = measureLongRunMemory(r, run, hours, {
    start: 'RSS at the start, after the warm-up (as figure 12a)',
    end: `RSS after ${hours} hours`,
  });
  r.check(
    atMost('soak.rss', `RSS after ${hours} hours of 100 calls a second`, end.rss / MB, MAX_RSS_MB, 'MB'),
  );
  r.check(
    below(
      'soak.per-call',
      'RSS growth per arrived call',
      (end.rss - start.rss) / arrived,
      MAX_BYTES_PER_CALL,
      'bytes',
    ),
  );
  for (const name of ['newest', 'oldest', 'filtered', 'cached'])
    r.measure(
      measurement(`list "${name}": the mock's CPU at the start and the end`, 'µs/request', [
        Math.round(start.lists[name]?.cpu ?? 0),
        Math.round(end.lists[name]?.cpu ?? 0),
      ]),
    );
  r.note(
    `Per hour (rss MB, calls): ${points.map((point) => `${point.hour} h ${Math.round(point.rss / MB)}/${point.calls}`).join(', ')}.`,
  );
  return r.build();
}
