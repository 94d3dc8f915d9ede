// Runs one example against a throwaway mock server, so it works without an account:
//
//   node examples/with-mock.mjs [--keep] [--advance <n>s|m|h|d] [--mock-<option>[=<value>] …] examples/list-active-users.ts [arguments of the example]
//   node examples/with-mock.mjs --stop
//
// Options before the example that start with `--mock-` go to the mock server's command, without that prefix:
// `--mock-calls=2400 --mock-latency=400` starts `company-data-mock --calls 2400 --latency 400`, `--mock-freeze`
// passes `--freeze` (`company-data-mock --help` lists them all). Without any, the mock is the default one.
//
// `--keep` keeps one mock across runs (scripts/lib/kept-mock.mjs), so the next run sees what this one changed:
// it starts one with the `--mock-` options if none runs, and uses the one that runs otherwise. `--stop` stops
// it; unused for 30 minutes, it stops by itself. `--advance 1h` moves the mock's clock an hour on before the
// example runs: with `--mock-activity`, an hour of the company's life (calls arrive, are excused, deleted).
//
// It starts the mock server's CLI (`company-data-mock --port 0 --json`) from this repository's sources
// (compiled into one file first, as the published command is: scripts/lib/source-bundle.mjs), sets
// COMPANY_DATA_API_KEY, COMPANY_DATA_BASE_URL, COMPANY_DATA_AUDIENCE_WEBHOOK and COMPANY_DATA_LEAD_WEBHOOK
// from what it prints, runs the example with tsx and stops the server when the example ends. Nothing is built
// first: workspace packages resolve to their TypeScript sources.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tsImport } from 'tsx/esm/api';
import { KEPT_MOCK_IDLE_MS, stopKeptMock, touchKeptMock, useKeptMock } from '../scripts/lib/kept-mock.mjs';
import { FROM_SOURCE, mockEnv, startMockCli } from '../scripts/lib/mock-cli.mjs';

/** What marks an option for the mock server before the example's file. */
const MOCK_OPTION = '--mock-';
const USAGE =
  'Usage: node examples/with-mock.mjs [--keep] [--advance <n>s|m|h|d] [--mock-<option>[=<value>] …] <example file> [arguments]\n' +
  '       node examples/with-mock.mjs --stop\n' +
  '  --keep: keep one mock across runs (the next run with --keep uses it); --stop stops it\n' +
  '  --advance: move the mock clock on this much before the example runs (e.g. 1h)\n' +
  '  --mock-<option>: an option of company-data-mock (e.g. --mock-latency=400), see company-data-mock --help';

/**
 * @param {string} message
 * @returns {never}
 */
function usageError(message) {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/**
 * Splits the command line: this script's own options and the mock server's (`--mock-<option>[=<value>]`),
 * before the example, then the example and its own arguments.
 *
 * @param {readonly string[]} argv
 */
function withMockArguments(argv) {
  const mockArgs = [];
  let keep = false;
  let stop = false;
  /** @type {string | undefined} */
  let advance;
  let index = 0;
  for (; index < argv.length && argv[index]?.startsWith('--'); index++) {
    const arg = argv[index] ?? '';
    if (arg === '--keep') keep = true;
    else if (arg === '--stop') stop = true;
    else if (arg === '--advance') advance = argv[++index] ?? '';
    else if (arg.startsWith('--advance=')) advance = arg.slice('--advance='.length);
    else if (arg.startsWith(MOCK_OPTION)) {
      const option = arg.slice(MOCK_OPTION.length);
      const equals = option.indexOf('=');
      if (equals === -1) mockArgs.push(`--${option}`);
      else mockArgs.push(`--${option.slice(0, equals)}`, option.slice(equals + 1));
    } else usageError(`Unknown option ${arg}: options of the mock server start with --mock-.`);
  }
  const [example, ...args] = argv.slice(index);
  return { keep, stop, advance, mockArgs, example, args };
}

const { keep, stop, advance, mockArgs, example, args } = withMockArguments(process.argv.slice(2));
if (stop) {
  if (example) usageError('--stop stops the kept mock and runs no example.');
  const stopped = await stopKeptMock();
  console.error(stopped ? `Stopped the kept mock at ${stopped.summary.baseURL}.` : 'No kept mock runs.');
  process.exit(0);
}
if (!example) usageError('Give the example to run.');
/** @type {number | undefined} */
let advanceMs;
if (advance !== undefined) {
  // The copy commands' own reading of a duration, from source.
  /** @type {typeof import('../packages/cli/src/duration.js')} */
  const { parseDuration } = await tsImport('../packages/cli/src/duration.ts', import.meta.url);
  advanceMs = parseDuration(advance);
  if (advanceMs === undefined) usageError(`--advance ${advance}: expected a duration such as 1h.`);
}

// The mock's own messages matter only when it fails to start (the error then shows them); afterwards they
// would interleave with the example's, so they are kept, not shown.
/** @type {import('../scripts/lib/mock-cli.mjs').MockCliSummary} */
let summary;
/** @type {(() => Promise<unknown>) | undefined} */
let stopMock;
try {
  if (keep) {
    const kept = await useKeptMock(mockArgs);
    summary = kept.summary;
    console.error(
      `${kept.started ? 'Kept mock started' : `Kept mock (since ${kept.since})`} at ${summary.baseURL}; it keeps running for the next run with --keep, until \`node examples/with-mock.mjs --stop\` or ${KEPT_MOCK_IDLE_MS / 60_000} minutes unused.`,
    );
  } else {
    const mock = await startMockCli({ args: mockArgs });
    summary = mock.summary;
    stopMock = mock.stop;
    console.error(`Mock server at ${summary.baseURL}; it stops when the example ends.`);
  }
} catch (error) {
  // A `--mock-` option the command refused: its own message says which and how to fix it.
  console.error(/** @type {Error} */ (error).message);
  process.exit(2);
}
if (advanceMs !== undefined) {
  const response = await fetch(new URL('clock/advance', summary.adminURL), {
    method: 'POST',
    headers: { authorization: `Bearer ${summary.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ms: advanceMs }),
  });
  const answer = /** @type {{ now: string, error?: { detail: string } }} */ (await response.json());
  if (!response.ok) {
    console.error(`The mock refused to move its clock on ${advance}: ${answer.error?.detail}`);
    await stopMock?.();
    process.exit(2);
  }
  console.error(`Mock clock moved on ${advance}, to ${answer.now}.`);
}
const child = spawn(process.execPath, [...FROM_SOURCE, example, ...args], {
  stdio: 'inherit',
  env: { ...process.env, ...mockEnv(summary) },
});
// Ctrl+C in a terminal reaches the whole process group, the example and the mock server included: passing
// it on at once would deliver it twice. So a SIGINT is passed on only if the example still runs a while
// later (it was sent to this process alone); a SIGTERM, which a harness sends to one process, at once.
// This process waits for the example to end, and ends as it did.
const SIGINT_GRACE_MS = 1_000;
const relay = (/** @type {NodeJS.Signals} */ signal) => {
  if (signal === 'SIGTERM') child.kill(signal);
  else
    setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    }, SIGINT_GRACE_MS).unref();
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, relay);

// A kept mock is in use while the example runs, however long that is.
const using = keep ? setInterval(touchKeptMock, 60_000) : undefined;
const [code, signal] = await once(child, 'exit');
clearInterval(using);
if (keep) touchKeptMock();
await stopMock?.();
if (signal) {
  // Killed by a signal: end by the same signal, so the shell (and `$?`) sees what happened.
  for (const name of ['SIGINT', 'SIGTERM']) process.off(name, relay);
  process.kill(process.pid, signal);
} else process.exitCode = code;
