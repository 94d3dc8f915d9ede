/**
 * Figure 12a: a mock that lives for hours (issue 39). The `company-data-mock` command over 100,000 seeded
 * calls, its activity bringing 20 calls a second (10 % excused later, 2 deleted a second), on a frozen clock
 * moved an hour at a time for 12 hours: about 800,000 calls arrive. Targets: the process grows by at most
 * 100 MB, under 100 bytes per arrived call, and its lists answer within 1.2× of their speed at the start.
 */
import { Agent } from 'undici';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { type Checkpoint, type ListSpeed, type LongRun, longRun } from '../lib/long-run.js';
import { measureLongRunMemory } from '../lib/long-run-memory.js';
import { atMost, below, type FigureResult, measurement } from '../lib/result.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'mock-long-run') as (typeof FIGURES)[number];
const ACTIVITY = 'calls=20/s,excused=10%,deletions=2/s';
const MB = 2 ** 20;

/** Runs figure 12a. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const hours = ctx.quick ? 2 : 12;
  const rounds = ctx.quick ? 2 : 11;
  const count = ctx.quick ? 50 : 300;
  const args = ['--calls', '100000', '--freeze', '--activity', ACTIVITY];
  r.method(
    `company-data-mock ${args.join(' ')} (from the sources, one bundled file run by plain node), its clock ` +
      `moved an hour at a time (POST /__admin/clock/advance) for ${hours} hours. After each move: the events ` +
      `applied by the next request (timed), then the memory and records the admin summary reports (GET /__admin/: ` +
      `the process's own process.memoryUsage()), read after a full garbage collection in the mock's process (the ` +
      `bench runs its node with --expose-gc and a preload that collects on SIGUSR2; the mock is unchanged), so ` +
      `that a reading is what the mock holds, not what garbage its last requests left. At the start (after a ` +
      `warm-up) and after the last hour, three lists over HTTP on one keep-alive connection, sequential requests ` +
      `of 25 calls, each cycling through more pages than the page cache keeps (so every request builds its page), ` +
      `and page 1 answered from the page cache (no page built): ${rounds} interleaved rounds of ` +
      `${count} requests each; a list's speed is the median of the rounds' CPU time per request of the mock's ` +
      `main thread (from /proc/<pid>/schedstat, in nanoseconds), with the median of the rounds' wall time beside it. After the last hour ` +
      `the lists are timed in the same rounds as those of a fresh mock (the same command, started then, after ` +
      `the same warm-up), each round going from one to the other, so that the shared machine's slower phases ` +
      `meet both: the check compares the two. The memory at the start and at the end is read after the lists were timed, ` +
      `so that both readings follow the same requests (the page cache, at most 16 MiB, full), after a warm-up ` +
      `that reads the lists once and moves the clock 5 minutes (6,000 calls arrive; the heap's young generation ` +
      `grows to its working size): the growth between them is what the hours of activity add.`,
  );
  const agent = new Agent({ connections: 1 });
  let run: LongRun;
  try {
    run = await longRun(
      { args, hours, timeEveryHour: false, againstFresh: true, rounds, count, log: ctx.log },
      agent,
    );
  } finally {
    await agent.close();
  }
  const { points } = run;
  const { start, end, arrived } = measureLongRunMemory(r, run, hours, {
    start: 'RSS at the start: after the warm-up (5 minutes of activity) and the lists timed',
    end: `RSS after ${hours} hours and the lists timed`,
  });
  const grown = end.rss - start.rss;
  r.check(atMost('long-run.growth', `RSS growth over ${hours} hours`, grown / MB, 100, 'MB'));
  r.check(below('long-run.per-call', 'RSS growth per arrived call', grown / arrived, 100, 'bytes'));
  const speed = (point: Checkpoint, name: string) => point.lists[name] as ListSpeed;
  const fresh = run.freshLists ?? {};
  for (const name of ['newest', 'oldest', 'filtered', 'cached'] as const) {
    const label = {
      newest: 'the newest pages of /calls/',
      oldest: 'the oldest pages of /calls/',
      filtered: 'pages of /calls/?source=voice_agent',
      cached: '/calls/ page 1 from the page cache (no page built)',
    }[name];
    const now = fresh[name] as ListSpeed;
    r.measure(
      measurement(
        `${label}: the mock's CPU after ${hours} hours, and a fresh mock's in the same rounds`,
        'µs/request',
        [Math.round(speed(end, name).cpu), Math.round(now.cpu)],
        {
          [`wall µs/request after ${hours} hours`]: Math.round(speed(end, name).wall),
          'wall µs/request, fresh': Math.round(now.wall),
          'CPU µs/request at the start of the run': Math.round(speed(start, name).cpu),
        },
      ),
    );
    if (name !== 'cached')
      r.check(
        atMost(
          `long-run.lists.${name}`,
          `${label}: the mock's CPU per request after ${hours} hours / a fresh mock's, timed in the same rounds`,
          speed(end, name).cpu / now.cpu,
          1.2,
        ),
      );
  }
  r.note(
    `Per hour (rss MB, heap used/reserved MB, array buffers MB, calls): ${points
      .map(
        (point) =>
          `${point.hour} h ${Math.round(point.rss / MB)}, ${Math.round(point.heapUsed / MB)}/${Math.round(point.heapTotal / MB)}, ${Math.round(point.arrayBuffers / MB)}, ${point.calls}`,
      )
      .join('; ')}.`,
  );
  r.note(
    `The change journal kept its newest 10,000 changes and dropped ${end.changesDropped.toLocaleString('en-US')} (each arrival, excusal and deletion is one).`,
  );
  return r.build();
}
