#!/usr/bin/env node
// The `company-data-mock` command: start the mock server; stop cleanly on SIGINT/SIGTERM, and on
// the end of standard input or of a parent process when asked to. No top-level await: the single
// executable bundles this file as one CommonJS script (scripts/sea/bundle.mjs), where there is none.
import { watchLifetime } from './cli/lifetime.js';
import { runMockCli } from './cli/run.js';

void main();

async function main(): Promise<void> {
  const outcome = await runMockCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
  if (outcome.kind === 'exit') {
    process.exitCode = outcome.code;
    return;
  }
  const { server, request } = outcome;
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\ncompany-data-mock: ${reason}, stopping.\n`);
    server.close().then(
      () => process.exit(0),
      // Closed, but something was left to report: requests --on-unmatched=error was told to fail on.
      (error: unknown) => {
        process.stderr.write(
          `company-data-mock: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('received SIGINT'));
  process.once('SIGTERM', () => stop('received SIGTERM'));
  watchLifetime(
    { stdin: request.exitOnStdinClose ? process.stdin : undefined, parentPid: request.parentPid },
    stop,
  );
}
