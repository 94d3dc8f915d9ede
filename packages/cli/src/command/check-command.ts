import { resolve } from 'node:path';
import { type CheckReport, checkCopy } from '../check/check-copy.js';
import { UncheckableCopyError } from '../check/errors.js';
import { formatCheckReport } from '../check/format.js';
import { fileRebuild, shellWord } from '../check/rebuild.js';
import { createClient, type ResolvedConnection } from '../connection.js';
import { describeHolder } from '../copy/lock-holder.js';
import { ProgressBar } from '../progress-bar.js';
import type { CheckCommandOptions } from './args.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';

/**
 * What `company-data check --json` prints: the check's report (stable keys: the counts and first ids of each
 * kind), with the command's name.
 */
export interface CheckSummary extends CheckReport {
  readonly command: 'check';
}

/**
 * Runs `company-data check`: reads the whole list, compares it with the copy, prints what differs (and with
 * `--repair`, stores it).
 *
 * @returns the exit code: 0 the copy equals the list (or was repaired), 1 it differs, 2 there is no completed
 * export to check, 130 interrupted. Other failures are thrown (the caller maps them to codes).
 */
export async function runCheckCommand(
  options: CheckCommandOptions,
  connection: ResolvedConnection,
  io: CliIo,
  json: boolean,
): Promise<number> {
  const { list, destination, repair } = options;
  const progress = new ProgressBar(io.stderr, 'check');
  const client = createClient(connection, undefined, { validate: true });
  let report: CheckReport;
  let listed = 0;
  let lookingUp = false;
  try {
    report = await checkCopy({
      client,
      list,
      copy:
        'file' in destination
          ? { file: resolve(io.cwd, destination.file) }
          : { connectionString: destination.postgres, schema: destination.schema },
      name: 'file' in destination ? destination.file : undefined,
      repair,
      concurrency: options.concurrency,
      signal: io.signal,
      lock: {
        wait: options.wait,
        command: `company-data check ${list}${repair ? ' --repair' : ''}`,
        signal: io.signal,
        onWait: (holder) =>
          progress.line(`waiting for the run that holds the copy: ${describeHolder(holder)}`),
      },
      onOpen: (copy) => progress.line(`${copy.name} holds ${copy.records} ${list}; reading the list`),
      onStart: (total) => progress.start(list, total),
      onPage: (records) => {
        listed = records;
        progress.update(records);
      },
      onLookUp: (ids) => {
        if (!lookingUp) progress.complete(listed);
        lookingUp = true;
        progress.line(`looking up ${ids} ${list} of the copy that the list did not show, by id`);
      },
    });
    if (!lookingUp && report.outcome === 'done') progress.complete(report.listed);
  } catch (error) {
    if (!(error instanceof UncheckableCopyError)) throw error;
    io.stderr.write(`company-data: ${uncheckable(error, options)}\n`);
    return EXIT.usage;
  } finally {
    progress.stop();
    await client.close();
  }
  const fix =
    'file' in destination
      ? fileRebuild(list, destination.file)
      : 'Run the same command with --repair to store what the list holds.';
  const summary: CheckSummary = { command: 'check', ...report };
  io.stdout.write(json ? `${JSON.stringify(summary)}\n` : formatCheckReport(report, { repair, fix }));
  if (report.outcome === 'interrupted') return EXIT.interrupted;
  return report.equal || report.repaired ? EXIT.ok : EXIT.failed;
}

/** Why the copy cannot be checked, and the export that makes it checkable. */
function uncheckable(error: UncheckableCopyError, options: CheckCommandOptions): string {
  const { list, destination } = options;
  const run =
    'file' in destination
      ? `company-data export ${list} --out ${shellWord(destination.file)}`
      : `company-data export ${list} --to ${shellWord(withoutPassword(destination.postgres))}${
          destination.schema === undefined ? '' : ` --schema ${shellWord(destination.schema)}`
        }`;
  return error.reason === 'none'
    ? `${error.destination} holds no export of ${list}: run ${run} first, then check it.`
    : `${error.destination} holds an export of ${list} that did not complete (${error.records} so far): finish the export first: run ${run} (it resumes where it stopped), then check it.`;
}

/** A connection string as a message may show it: its password, if any, hidden. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '****';
    return parsed.toString();
  } catch {
    return url;
  }
}
