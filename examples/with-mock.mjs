// Runs one example against a throwaway mock server, so it works without an account:
//
//   node examples/with-mock.mjs examples/list-active-users.ts [arguments of the example]
//
// It starts the mock server's CLI (`company-data-mock --port 0 --json`) from this repository's sources
// (compiled into one file first, as the published command is: scripts/lib/source-bundle.mjs), sets
// COMPANY_DATA_API_KEY, COMPANY_DATA_BASE_URL, COMPANY_DATA_AUDIENCE_WEBHOOK and COMPANY_DATA_LEAD_WEBHOOK
// from what it prints, runs the example with tsx and stops the server when the example ends. Nothing is built
// first: workspace packages resolve to their TypeScript sources.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { FROM_SOURCE, mockEnv, startMockCli } from '../scripts/lib/mock-cli.mjs';

const [example, ...args] = process.argv.slice(2);
if (!example) {
  console.error('Usage: node examples/with-mock.mjs <example file> [arguments]');
  process.exit(2);
}

// The mock's own messages matter only when it fails to start (the error then shows them); afterwards they
// would interleave with the example's, so they are kept, not shown.
const mock = await startMockCli();
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
