// The steps of `npm test` (scripts/test.mjs) and their order: a step names the steps it needs (`after`);
// everything else runs side by side, all at once, and the steps' priorities
// (`nice`, written to their session's autogroup too: scripts/run-steps.mjs) decide who gets the two cores.
//
// The run's length is its long chain: the build, then check:packages following the guides in one shell,
// one command after another (142 commands; 61 files and snippets run with `npx tsx` in 38 processes, about
// 1.3 s each). Alone, the guides take about 2 min; beside the rest at one priority they took 3 min 25 s, and
// `npm test` 4 min 15 s (measured with 120 commands, each `npx tsx` a process of its own). So the
// chain comes first: the build and the guides' shell (a session of its own, so an autogroup at normal
// priority whatever its step's) take the cores they need; test:unit takes most of the rest, and the other
// steps fill what is left. Measured on the 2-core machine: 3 min 32 s and 3 min 36 s (the guides 2 min 44 s
// and 2 min 49 s; test:unit 2 min 8 s beside them, 2 min 5 s at normal priority), 3 min 25 s in a fresh
// clone with CI=true, against 4 min 15 s with only the short steps at a lower priority.

/**
 * test:unit, beside the guides: a little below them, so that the guides' shell takes up to 1.3 of the two
 * cores (its npm installs and its examples' worker processes run side by side) and test:unit the rest. No
 * lower: its real-time tests and its time-limited example and CLI processes need a fair share, and starved
 * they fail. At this priority, with the short steps at the lowest, they passed in every run (test:unit
 * 2 min 4 s to 2 min 9 s); with the short steps at nice 5 and other work on the machine besides `npm test`,
 * an example process once outlived its 30 s.
 */
const BESIDE_THE_GUIDES = 3;
/**
 * check:packages' own work beside its guides (publint, attw, the registry rehearsal, the installs without
 * the optional peers): far below the guides, which wait for none of it.
 */
const CHECKS_BESIDE_THE_GUIDES = 10;
/** The short steps (type check, lint, docs and their checks): the cores' leftovers, as the chain allows. */
const LEFTOVERS = 19;

/** @type {import('./run-steps.mjs').Step[]} */
export const TEST_STEPS = [
  {
    name: 'system-packages',
    command: ['node', 'scripts/system-packages.mjs'],
    why: "installs redis-server, chromium, postgresql, python3-pytest, slirp4netns and python3-pytest-xdist where it may, which test:unit, check:docs-site and check:packages (the guides' database and network, the mock binary's pytest example, the testing guide's parallel pytest suite) run",
  },
  { name: 'build', command: ['npm', 'run', 'build'] },
  {
    name: 'check:packages',
    command: ['npm', 'run', 'check:packages'],
    after: ['system-packages', 'build'],
    nice: CHECKS_BESIDE_THE_GUIDES,
    why: 'packs dist; the guides it follows start mock servers on the ports they name (4010, 4011) in a network of their own, and use a PostgreSQL of their own (DATABASE_URL); its guides run in a shell of their own, at normal priority',
  },
  {
    name: 'typecheck',
    command: ['npm', 'run', 'typecheck'],
    after: ['build'],
    nice: LEFTOVERS,
    why: "`tsc -b` reuses the build's declaration projects (the packages' sources, checked once) and checks the rest against their declarations; beside the build, both would write them",
  },
  { name: 'lint', command: ['npm', 'run', 'lint'], nice: LEFTOVERS },
  {
    name: 'test:unit',
    command: ['npm', 'run', 'test:unit'],
    after: ['system-packages', 'build'],
    nice: BESIDE_THE_GUIDES,
    why: '`npx company-data-mock` (examples/testing) runs dist/cli.js once it exists: not while the build writes it',
  },
  {
    name: 'check:doc-samples',
    command: ['npm', 'run', 'check:doc-samples'],
    after: ['build'],
    nice: LEFTOVERS,
    why: 'the samples are checked against the declarations the build writes',
  },
  { name: 'docs', command: ['npm', 'run', 'docs'], nice: LEFTOVERS },
  {
    name: 'check:docs-site',
    command: ['npm', 'run', 'check:docs-site'],
    after: ['system-packages', 'docs'],
    nice: LEFTOVERS,
  },
  {
    name: 'check:links',
    command: ['npm', 'run', 'check:links'],
    after: ['docs'],
    nice: LEFTOVERS,
  },
];

export const JOBS_FLAG = '--jobs=';

/**
 * The `--jobs=<n>` argument, or the default: every step at once, as far as their `after` allows. The
 * priorities above share the cores; a limit would only keep a step at normal priority waiting for a short
 * one at the lowest (with four at once, test:unit started 10 s after the build, behind check:doc-samples).
 * Give a limit on a machine short of memory: the build, the type check and the docs take up to a gigabyte
 * each.
 *
 * @param {readonly string[]} args
 */
export function jobsFrom(args) {
  const flag = args.find((arg) => arg.startsWith(JOBS_FLAG));
  if (flag === undefined) return TEST_STEPS.length;
  const jobs = Number(flag.slice(JOBS_FLAG.length));
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new Error(`${flag}: give a whole number of steps to run at once, 1 or more (--jobs=2)`);
  }
  return jobs;
}
