// Runs one example against a throwaway mock server, so it works without an account:
//
//   node examples/with-mock.mjs [--mock-<option>[=<value>] …] examples/list-active-users.ts [arguments of the example]
//
// Options before the example that start with `--mock-` go to the mock server's command, without that prefix:
// `--mock-calls=2400 --mock-latency=400` starts `company-data-mock --calls 2400 --latency 400`, `--mock-freeze`
// passes `--freeze` (`company-data-mock --help` lists them all). Without any, the mock is the default one.
//
// It starts the mock server's CLI (`company-data-mock --port 0 --json`) from this repository's sources
// (compiled into one file first, as the published command is: scripts/lib/source-bundle.mjs), sets
// COMPANY_DATA_API_KEY, COMPANY_DATA_BASE_URL, COMPANY_DATA_AUDIENCE_WEBHOOK and COMPANY_DATA_LEAD_WEBHOOK
// from what it prints, runs the example with tsx and stops the server when the example ends. Nothing is built
// first: workspace packages resolve to their TypeScript sources.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { FROM_SOURCE, mockEnv, startMockCli } from '../scripts/lib/mock-cli.mjs';

/** What marks an option for the mock server before the example's file. */
const MOCK_OPTION = '--mock-';

/**
 * Splits the command line: the mock server's options (`--mock-<option>[=<value>]`, before the example), the
 * example, and the example's own arguments.
 *
 * @param {readonly string[]} argv
 */
function withMockArguments(argv) {
  const mockArgs = [];
  let index = 0;
  for (; index < argv.length && argv[index]?.startsWith(MOCK_OPTION); index++) {
    const option = (argv[index] ?? '').slice(MOCK_OPTION.length);
    const equals = option.indexOf('=');
    if (equals === -1) mockArgs.push(`--${option}`);
    else mockArgs.push(`--${option.slice(0, equals)}`, option.slice(equals + 1));
  }
  const [example, ...args] = argv.slice(index);
  return { mockArgs, example, args };
}

const { mockArgs, example, args } = withMockArguments(process.argv.slice(2));
if (!example) {
  console.error(
    'Usage: node examples/with-mock.mjs [--mock-<option>[=<value>] …] <example file> [arguments]\n' +
      '  --mock-<option>: an option of company-data-mock (e.g. --mock-latency=400), see company-data-mock --help',
  );
  process.exit(2);
}

// The mock's own messages matter only when it fails to start (the error then shows them); afterwards they
// would interleave with the example's, so they are kept, not shown.
/** @type {import('../scripts/lib/mock-cli.mjs').MockCli<import('../scripts/lib/mock-cli.mjs').MockCliSummary>} */
let mock;
try {
  mock = await startMockCli({ args: mockArgs });
} catch (error) {
  // A `--mock-` option the command refused: its own message says which and how to fix it.
  console.error(/** @type {Error} */ (error).message);
  process.exit(2);
}
const { baseURL } = mock.summary;
console.error(`Mock server at ${baseURL}; it stops when the example ends.`);

const child = spawn(process.execPath, [...FROM_SOURCE, example, ...args], {
  stdio: 'inherit',
  env: { ...process.env, ...mockEnv(mock.summary) },
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

const [code, signal] = await once(child, 'exit');
await mock.stop();
if (signal) {
  // Killed by a signal: end by the same signal, so the shell (and `$?`) sees what happened.
  for (const name of ['SIGINT', 'SIGTERM']) process.off(name, relay);
  process.kill(process.pid, signal);
} else process.exitCode = code;
