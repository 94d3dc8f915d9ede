// The steps of `npm test` (scripts/test.mjs) and their order: a step names the steps it needs (`after`) and
// what it needs alone (`locks`); everything else may run side by side. Where several could start, the list's
// order decides: the long chain (build, then check:packages) comes first, so it starts at once.
import { availableParallelism } from 'node:os';

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
  { name: 'typecheck', command: ['npm', 'run', 'typecheck'] },
  { name: 'lint', command: ['npm', 'run', 'lint'] },
  {
    name: 'test:unit',
    command: ['npm', 'run', 'test:unit'],
    after: ['system-packages', 'build'],
    why: '`npx company-data-mock` (examples/testing) runs dist/cli.js once it exists: not while the build writes it',
  },
  { name: 'check:doc-samples', command: ['npm', 'run', 'check:doc-samples'] },
  { name: 'docs', command: ['npm', 'run', 'docs'] },
  {
    name: 'check:docs-site',
    command: ['npm', 'run', 'check:docs-site'],
    after: ['system-packages', 'docs'],
  },
  { name: 'check:links', command: ['npm', 'run', 'check:links'], after: ['docs'] },
];

export const JOBS_FLAG = '--jobs=';

/**
 * The `--jobs=<n>` argument, or the default: one step per core, plus one (three on two cores). The steps
 * are not all busy on a core all the time: check:packages waits on npm installs and the programs the guides
 * start, test:unit on child processes, Redis and real time; the extra step fills those waits. Measured on
 * the 2-core machine, both runs beside other work (load average 5 to 11): 3 at once took 4 min 43 s, 2 took
 * 8 min 48 s.
 *
 * @param {readonly string[]} args
 */
export function jobsFrom(args) {
  const flag = args.find((arg) => arg.startsWith(JOBS_FLAG));
  if (flag === undefined) return availableParallelism() + 1;
  const jobs = Number(flag.slice(JOBS_FLAG.length));
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new Error(`${flag}: give a whole number of steps to run at once, 1 or more (--jobs=2)`);
  }
  return jobs;
}
