// `npm test`: every check that proves the project, side by side as far as the steps allow (the long chain at
// the highest priority, the short steps at the lowest), each one's output printed whole when it ends, a table
// of their times and one line at the end (scripts/run-steps.mjs).
// The first failure stops the run.
// The steps, their order and why: scripts/test-steps.mjs.
//
//   node scripts/test.mjs [--jobs=<n>] [--keep-going]
//
// --jobs: steps at once, at most (default: all that may start). --keep-going: after a failure, run every step
// that does not need the failed one, to see all failures and every step's time in one run.
import path from 'node:path';
import { ownTempDir } from './lib/own-temp-dir.mjs';
import { runSteps } from './run-steps.mjs';
import { JOBS_FLAG, jobsFrom, TEST_STEPS } from './test-steps.mjs';

// The steps' commands are relative to the repository root.
process.chdir(path.resolve(import.meta.dirname, '..'));

const args = process.argv.slice(2);
const KEEP_GOING = '--keep-going';
const unknown = args.filter((arg) => !arg.startsWith(JOBS_FLAG) && arg !== KEEP_GOING);
if (unknown.length > 0) {
  console.error(
    `test: unknown argument ${unknown.join(' ')}\nusage: npm test -- [--jobs=<n>] [${KEEP_GOING}]`,
  );
  process.exit(2);
}
let jobs;
try {
  jobs = jobsFrom(args);
} catch (error) {
  console.error(`test: ${error instanceof Error ? error.message : error}`);
  process.exit(2);
}
// The steps run in process groups of their own (so stopping one stops what it started): Ctrl-C reaches only
// this process, which stops them.
const controller = new AbortController();
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.on(signal, () => controller.abort());
const keepGoing = args.includes(KEEP_GOING);
// Every step's temporary files go to a folder of the run's own, which must be empty again at the end.
const temp = ownTempDir();
process.env.TMPDIR = temp.path;
let ok = false;
try {
  ({ ok } = await runSteps(TEST_STEPS, { jobs, signal: controller.signal, keepGoing }));
} finally {
  const left = temp.leftovers();
  temp.remove();
  // A step stopped mid-run (Ctrl-C, or another step failed) cannot clean up: only a run that otherwise passed
  // is held to an empty folder.
  if (left.length > 0 && ok && !controller.signal.aborted) {
    console.error(
      `\nnpm test failed: its steps left ${left.length} entries in the temporary folder (removed now): ${left.join(', ')}. A test or check that creates a temporary file or folder removes it when it ends.`,
    );
    ok = false;
  }
}
process.exitCode = ok ? 0 : 1;
