// The steps of `npm test` (scripts/test.mjs) and their order: a step names the steps it needs (`after`) and
// what it needs alone (`locks`); everything else may run side by side. Where several could start, the list's
// order decides: the long chain (build, then check:packages) comes first, so it starts at once.
//
// The run is bound by CPU time, not by waits: its steps need about 510 CPU-seconds (each measured alone on the
// 2-core machine: test:unit 182, check:packages 212, the build 47, the other six 70), so at least 4 min 15 s
// on two cores however they are ordered; only less work goes faster. The long
// chain runs at normal priority and every other step at a lower one (`nice`): they take what the chain
// leaves, so the chain runs as fast as alone and the others fill the cores around it, rather than all
// slowing each other down and the chain ending last, alone on one core (as check:packages's guides, one
// command after another, did for the last 45 s of a run).
import { availableParallelism } from 'node:os';

/** The priority of the steps off the long chain: a quarter of a normal step's share of a busy core. */
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
    why: '`npx company-data-mock` (examples/testing) runs dist/cli.js once it exists: not while the build writes it',
    nice: BESIDE_THE_CHAIN,
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
 * start, test:unit on child processes, Redis and real time; the extra steps fill those waits, and at a lower
 * priority they cost the chain nothing. Two beside the chain also let test:unit start as soon as the build
 * has passed, whatever else still runs. Measured on the 2-core machine before the priorities, both runs
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
