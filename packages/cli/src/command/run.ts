import { resolve } from 'node:path';
import { AuthenticationError, CompanyDataError } from '@company-data/sdk';
import { keySource, refusedKeyError, resolveConnection } from '../connection.js';
import { UsageError } from '../errors.js';
import type { ProgressStream } from '../progress.js';
import { snapshot } from '../snapshot/snapshot.js';
import { formatReport } from '../verify/format.js';
import { verify } from '../verify/verify.js';
import { CLI_VERSION } from '../version.js';
import { parseCliArgs } from './args.js';
import { formatSnapshotSummary } from './snapshot-summary.js';
import { USAGE } from './usage.js';

/** What the command runs with: its streams, environment and working directory, and a stop signal. */
export interface CliIo {
  /** The result: the snapshot's summary, the verify report. */
  readonly stdout: { write(text: string): unknown };
  /** Progress and errors. */
  readonly stderr: ProgressStream;
  /** The environment (the key and base URL default to its variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What relative paths are relative to. */
  readonly cwd: string;
  /** Aborted on Ctrl+C or SIGTERM. */
  readonly signal?: AbortSignal | undefined;
  /** How the SDK waits (tests move a mock server's clock instead). */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  /** The current time in epoch ms, on the clock of `sleep`. */
  readonly now?: (() => number) | undefined;
}

/** Exit codes. */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/**
 * Runs `company-data` with the arguments after the program name.
 *
 * @returns the exit code: 0 done (verify: no mismatch), 1 failed (verify: a mismatch), 2 bad usage or
 * configuration, 130 interrupted.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const fail = (code: number, message: string) => {
    io.stderr.write(`company-data: ${message}\n`);
    return code;
  };
  // Where the key came from, for the fix when the server refuses it.
  let keyFrom = keySource({});
  try {
    const request = parseCliArgs(argv);
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
    if (request.command === 'snapshot') {
      const output = resolve(io.cwd, request.options.output);
      const result = await snapshot({ ...request.options, ...connection, output, progress: io.stderr });
      io.stdout.write(formatSnapshotSummary(result, io.cwd, request.options.seed !== undefined));
      return EXIT.ok;
    }
    const report = await verify({ ...request.options, ...connection });
    io.stdout.write(request.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    return report.ok ? EXIT.ok : EXIT.failed;
  } catch (error) {
    if (io.signal?.aborted)
      return fail(
        EXIT.interrupted,
        'interrupted. Nothing was written; a snapshot keeps what it fetched and resumes when you run the same command again (--fresh starts over).',
      );
    if (error instanceof UsageError)
      return fail(EXIT.usage, `${error.message}\nRun company-data --help for every option.`);
    if (error instanceof AuthenticationError) {
      return fail(EXIT.usage, `${refusedKeyError(error, keyFrom).message} Nothing was written.`);
    }
    if (error instanceof CompanyDataError)
      return fail(
        EXIT.failed,
        `${error.message}. Nothing was written; a snapshot keeps what it fetched and resumes when you run the same command again.`,
      );
    return fail(EXIT.failed, error instanceof Error ? error.message : String(error));
  }
}
