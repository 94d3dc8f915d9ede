#!/usr/bin/env node
// The `company-data` command. Ctrl+C (or SIGTERM) stops it cleanly: a snapshot aborts its requests, writes
// nothing and keeps what it fetched for the next run; a second Ctrl+C exits at once.
import { runCli } from './command/run.js';

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    controller.abort(new Error(`received ${signal}`));
    process.once(signal, () => process.exit(130));
  });
}
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});
