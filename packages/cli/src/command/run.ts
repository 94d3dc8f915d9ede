import { resolve } from 'node:path';
import { baseURLSource, keySource, resolveConnection } from '../connection.js';
import { CLI_VERSION } from '../version.js';
import { parseCliArgs } from './args.js';
import type { CopyRun } from './copy-command.js';
import { EXIT } from './exit-codes.js';
import {
  CHECK_KEPT,
  COPY_KEPT,
  debugRequested,
  describeFailure,
  type FailureContext,
  NOTHING_STORED,
  SNAPSHOT_KEPT,
  stackOf,
} from './failure-message.js';
import type { CliIo } from './io.js';

import { USAGE } from './usage.js';

export { EXIT };

/**
 * Runs `company-data` with the arguments after the program name.
 *
 * @returns the exit code: 0 done (verify: no mismatch), 1 failed (verify: a mismatch), 2 bad usage or
 * configuration, 75 try again later (another run holds the copy or snapshot; the API's quota is spent), 130
 * interrupted. A failure is one line on stderr; its stack only with `--debug` or DEBUG=company-data.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // Where the key and the base URL came from, for the fix when the server refuses them.
  let settings: Pick<FailureContext, 'keyFrom' | 'baseURLFrom'> = {
    keyFrom: keySource({}),
    baseURLFrom: baseURLSource({}),
  };
  // What a failure leaves: a copy keeps every page it stored, a snapshot what it fetched.
  let copy: CopyRun | undefined;
  let checking = false;
  let maxWait: number | undefined;
  let postgres: string | undefined;
  try {
    const request = parseCliArgs(argv);
    if (request.command === 'help') {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (request.command === 'version') {
      io.stdout.write(`${CLI_VERSION}\n`);
      return EXIT.ok;
    }
    settings = { keyFrom: keySource(request.options), baseURLFrom: baseURLSource(request.options) };
    const connection = {
      ...resolveConnection(request.options, io.env),
      sleep: io.sleep,
      now: io.now,
      signal: io.signal,
    };
    // Each command loads what it needs only: a copy neither the mock server (a snapshot checks its fixture
    // loads) nor the anonymiser's fake names.
    if (request.command === 'snapshot') {
      const [{ snapshot }, { formatSnapshotSummary }] = await Promise.all([
        import('../snapshot/snapshot.js'),
        import('./snapshot-summary.js'),
      ]);
      const output = resolve(io.cwd, request.options.output);
      const result = await snapshot({ ...request.options, ...connection, output, progress: io.stderr });
      io.stdout.write(formatSnapshotSummary(result, io.cwd, request.options.seed !== undefined));
      return EXIT.ok;
    }
    if (request.command === 'export' || request.command === 'sync') {
      copy = { stored: false, destination: undefined };
      maxWait = request.options.maxWait;
      const { destination } = request.options;
      if ('postgres' in destination) postgres = destination.postgres;
      const { runCopyCommand } = await import('./copy-command.js');
      return await runCopyCommand(request.command, request.options, connection, io, request.json, copy);
    }
    if (request.command === 'check') {
      checking = true;
      const { destination } = request.options;
      if ('postgres' in destination) postgres = destination.postgres;
      const { runCheckCommand } = await import('./check-command.js');
      return await runCheckCommand(request.options, connection, io, request.json);
    }
    const [{ verify }, { formatReport }] = await Promise.all([
      import('../verify/verify.js'),
      import('../verify/format.js'),
    ]);
    const report = await verify({ ...request.options, ...connection });
    io.stdout.write(request.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    return report.ok ? EXIT.ok : EXIT.failed;
  } catch (error) {
    const { code, line } = describeFailure(error, {
      ...settings,
      kept: checking
        ? CHECK_KEPT
        : copy === undefined
          ? SNAPSHOT_KEPT
          : copy.stored
            ? COPY_KEPT
            : NOTHING_STORED,
      interrupted: io.signal?.aborted === true,
      maxWait,
      now: io.now ?? Date.now,
      postgres,
      destination: copy?.destination,
      file: copy?.file,
    });
    io.stderr.write(`company-data: ${line}\n`);
    if (debugRequested(argv, io.env)) io.stderr.write(stackOf(error));
    return code;
  }
}
