// The steps of `npm test` (scripts/test.mjs) and their order: a step names the steps it needs (`after`) and
// what it needs alone (`locks`); everything else may run side by side. Where several could start, the list's
// order decides: the long chain (build, then check:packages) comes first, so it starts at once.
//
// The run is bound by CPU time, not by waits. Its steps need about 500 CPU-seconds, each measured alone on
// the 2-core machine (load average 1 to 5 from other work): check:packages 212 (its guides, one command
// after another, about 150; 57 of their 120 commands are `npx tsx`, about 1.6 CPU-s each), test:unit 182,
// the build 47, typecheck 20, docs 20, check:doc-samples 11, check:docs-site 3, check:links 3, lint 2. So
// about 4 min 10 s on two cores however the steps are ordered: only less work goes faster. What the order
// decides is whether both cores stay busy to the end. The long chain and test:unit run at normal priority,
// the short steps at a lower one (`nice`, their session's autogroup too: scripts/run-steps.mjs): they take
// what the others leave, so the build runs nearly as fast as alone and they fill the cores around the long
// steps. Measured, the build beside them: 1 min 18 s at the same priority (in a full run), 43 s at the lower
// one (the build and the short steps alone, other work on the machine: 1.86 cores busy), 30 s alone.
import { availableParallelism } from 'node:os';

/**
 * The priority of the short steps beside the chain (all but test:unit): a quarter of a normal step's share
 * of a busy core. test:unit runs at normal priority, beside check:packages: its real-time tests and its
 * example and CLI processes have time limits, and starved of CPU they fail. At a lower priority beside
 * check:packages (not a full npm test) its slowest example tests took 60 s of their 90 at nice 5, and at
 * nice 3, with other work on the machine, an example process outlived its 30 s and a fleet test's pause
 * came late.
 */
const BESIDE_THE_CHAIN = 5;

/** @type {import('./run-steps.mjs').Step[]} */
export const TEST_STEPS = [
  {
    name: 'system-packages',
    command: ['node', 'scripts/system-packages.mjs'],
    why: 'installs redis-server and chromium where it may, which test:unit and check:docs-site run',
  },
  { name: 'build', command: ['npm', 'run', 'build'] },
  {
    name: 'check:packages',
    command: ['npm', 'run', 'check:packages'],
    after: ['build'],
    locks: ['ports 4010/4011'],
    why: 'packs dist; the guides it follows start mock servers on the ports they name, 4010 and 4011',
  },
  { name: 'typecheck', command: ['npm', 'run', 'typecheck'], nice: BESIDE_THE_CHAIN },
  { name: 'lint', command: ['npm', 'run', 'lint'], nice: BESIDE_THE_CHAIN },
  {
    name: 'test:unit',
    command: ['npm', 'run', 'test:unit'],
    after: ['system-packages', 'build'],
    why: '`npx company-data-mock` (examples/testing) runs dist/cli.js once it exists: not while the build writes it; at normal priority: its real-time tests and time-limited processes fail when starved',
  },
  { name: 'check:doc-samples', command: ['npm', 'run', 'check:doc-samples'], nice: BESIDE_THE_CHAIN },
  { name: 'docs', command: ['npm', 'run', 'docs'], nice: BESIDE_THE_CHAIN },
  {
    name: 'check:docs-site',
    command: ['npm', 'run', 'check:docs-site'],
    after: ['system-packages', 'docs'],
    nice: BESIDE_THE_CHAIN,
  },
  {
    name: 'check:links',
    command: ['npm', 'run', 'check:links'],
    after: ['docs'],
    nice: BESIDE_THE_CHAIN,
  },
];

export const JOBS_FLAG = '--jobs=';

/**
 * The `--jobs=<n>` argument, or the default: one step per core, plus two (four on two cores). The steps
 * are not all busy on a core all the time: check:packages waits on npm installs and the programs the guides
 * start, test:unit on child processes, Redis and real time; the extra steps fill those waits, and the short
 * ones, at a lower priority, cost the long ones little. Two beside the chain also let test:unit start as soon
 * as the build has passed, whatever else still runs. Measured on the 2-core machine before the priorities, both runs
 * beside other work (load average 5 to 11): 3 at once took 4 min 43 s, 2 took 8 min 48 s.
 *
 * @param {readonly string[]} args
 */
export function jobsFrom(args) {
  const flag = args.find((arg) => arg.startsWith(JOBS_FLAG));
  if (flag === undefined) return availableParallelism() + 2;
  const jobs = Number(flag.slice(JOBS_FLAG.length));
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new Error(`${flag}: give a whole number of steps to run at once, 1 or more (--jobs=2)`);
  }
  return jobs;
}
