import { resolve } from 'node:path';
import { AuthenticationError, CompanyDataError } from '@company-data/sdk';
import { keySource, refusedKeyError, resolveConnection } from '../connection.js';
import { CopyError, CopyLockedError } from '../copy/errors.js';
import { UsageError } from '../errors.js';
import { CLI_VERSION } from '../version.js';
import { parseCliArgs } from './args.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';

import { USAGE } from './usage.js';

const SNAPSHOT_KEPT = {
  interrupted:
    'Nothing was written; a snapshot keeps what it fetched and resumes when you run the same command again (--fresh starts over).',
  failed:
    'Nothing was written; a snapshot keeps what it fetched and resumes when you run the same command again.',
};
const COPY_KEPT = {
  interrupted: 'Every page stored before stays; run the same command again to go on.',
  failed: 'Every page stored before stays; run the same command again to go on.',
};
const CHECK_KEPT = {
  interrupted: 'The check is incomplete (a repair keeps what it stored); run the same command again.',
  failed: 'The check is incomplete (a repair keeps what it stored); run the same command again.',
};

/**
 * Runs `company-data` with the arguments after the program name.
 *
 * @returns the exit code: 0 done (verify: no mismatch), 1 failed (verify: a mismatch), 2 bad usage or
 * configuration, 75 another run holds the copy (export, sync, snapshot), 130 interrupted.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const fail = (code: number, message: string) => {
    io.stderr.write(`company-data: ${message}\n`);
    return code;
  };
  // Where the key came from, for the fix when the server refuses it.
  let keyFrom = keySource({});
  // What a failure leaves: a copy keeps every page it stored, a snapshot what it fetched.
  let kept = SNAPSHOT_KEPT;
  try {
    const request = parseCliArgs(argv);
    if (request.command === 'export' || request.command === 'sync') kept = COPY_KEPT;
    if (request.command === 'check') kept = CHECK_KEPT;
    if (request.command !== 'help' && request.command !== 'version') keyFrom = keySource(request.options);
    if (request.command === 'help') {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (request.command === 'version') {
      io.stdout.write(`${CLI_VERSION}\n`);
      return EXIT.ok;
    }
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
      const { runCopyCommand } = await import('./copy-command.js');
      return await runCopyCommand(request.command, request.options, connection, io, request.json);
    }
    if (request.command === 'check') {
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
    if (error instanceof CopyLockedError) return fail(EXIT.locked, error.message);
    if (io.signal?.aborted) return fail(EXIT.interrupted, `interrupted. ${kept.interrupted}`);
    if (error instanceof UsageError)
      return fail(EXIT.usage, `${error.message}\nRun company-data --help for every option.`);
    if (error instanceof AuthenticationError) {
      return fail(EXIT.usage, `${refusedKeyError(error, keyFrom).message} Nothing was written.`);
    }
    if (error instanceof CopyError) return fail(EXIT.failed, error.message);
    if (error instanceof CompanyDataError) return fail(EXIT.failed, `${error.message}. ${kept.failed}`);
    return fail(EXIT.failed, error instanceof Error ? error.message : String(error));
  }
}
