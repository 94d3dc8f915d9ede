#!/usr/bin/env node
// The `company-data-mock` command: start the mock server, stop cleanly on SIGINT/SIGTERM.
import { runCli } from './cli/run.js';

const result = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
if (typeof result === 'number') {
  process.exitCode = result;
} else if (result !== undefined) {
  const server = result;
  const stop = (signal: NodeJS.Signals) => {
    process.stderr.write(`\nReceived ${signal}, stopping.\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
