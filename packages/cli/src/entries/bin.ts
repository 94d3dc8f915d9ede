#!/usr/bin/env node
// The `company-data` command. Ctrl+C (or SIGTERM) stops it cleanly: a snapshot aborts its requests, writes
// nothing and keeps what it fetched for the next run; a second Ctrl+C exits at once. Every failure is one
// line on stderr and an exit code (command/failure-message.ts).
import { debugRequested, describeUncaught, stackOf } from '../command/failure-message.js';
import { runCli } from '../command/run.js';

// The last resort: what nothing caught is still one line (its stack only with --debug or DEBUG=company-data).
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    const { code, line } = describeUncaught(error);
    process.stderr.write(`company-data: ${line}\n`);
    if (debugRequested(process.argv.slice(2), process.env)) process.stderr.write(stackOf(error));
    process.exit(code);
  });
}

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
