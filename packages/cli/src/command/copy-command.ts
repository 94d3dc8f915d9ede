import { resolve } from 'node:path';
import {
  ConnectionError,
  type RateLimitEvent,
  type RetryEvent,
  type SyncChange,
  TimeoutError,
} from '@company-data/sdk';
import { createClient, MAX_RETRIES, type ResolvedConnection } from '../connection.js';
import { type CopyResult, copyList } from '../copy/copy-list.js';
import type { CopyDestination } from '../copy/destination.js';
import type { LockOptions } from '../copy/file-lock.js';
import { describeHolder } from '../copy/lock-holder.js';
import { NdjsonCopy, progressPathOf } from '../copy/ndjson-copy.js';
import { DEFAULT_SCHEMA, PostgresCopy } from '../copy/postgres-copy.js';
import { WINDOW_STARTS_NOW, windowStartsNow } from '../copy/window-starts-now.js';
import { errorCode } from '../error-code.js';
import { ProgressBar } from '../progress-bar.js';
import type { CopyCommandOptions } from './args.js';
import { utcTime } from './failure-message.js';
import type { CliIo } from './io.js';

/** What `company-data export|sync --json` prints: stable keys, for scripts. */
export interface CopySummary {
  readonly command: 'export' | 'sync';
  readonly list: string;
  /** The file's path, or `<schema>.<list>` in the database (no password). */
  readonly destination: string;
  readonly outcome: CopyResult['outcome'];
  readonly resumed: boolean;
  /** Whether the run, after finishing the walk it resumed, went on to the present (see `CopyResult`). */
  readonly caughtUp: boolean;
  readonly created: number;
  readonly changed: number;
  readonly removed: number;
  /** Records in the copy now. */
  readonly records: number;
  /** Whether `changed` and `removed` were applied (a database) or only reported (a file). */
  readonly appliesChanges: boolean;
  readonly lookBackMs: number;
}

/**
 * What a run of `export` or `sync` tells its caller as it goes, for the line a failure ends with: whether the
 * copy holds pages (stored by this run or an earlier one), and how the messages name it.
 */
export interface CopyRun {
  stored: boolean;
  destination: string | undefined;
  /** The output file's path, resolved (a copy into a file). */
  file?: string | undefined;
}

/** How the messages name the destination, and how a person starts it over. */
interface Target {
  readonly name: string;
  /** The file's path, resolved (a copy into a file). */
  readonly file?: string;
  readonly startOver: string;
  open(lock: LockOptions): Promise<CopyDestination>;
}

function targetOf(options: CopyCommandOptions, cwd: string): Target {
  const { destination, list } = options;
  if ('file' in destination) {
    const file = resolve(cwd, destination.file);
    return {
      name: destination.file,
      file,
      startOver: `delete (or move away) ${destination.file} and ${progressPathOf(destination.file)}`,
      open: (lock) => NdjsonCopy.open(file, { lock, list }),
    };
  }
  const schema = destination.schema ?? DEFAULT_SCHEMA;
  return {
    name: `${schema}.${list}`,
    startOver: `delete from ${schema}.checkpoints where list = '${list}'`,
    open: (lock) => PostgresCopy.open({ connectionString: destination.postgres, list, schema, lock }),
  };
}

/**
 * Runs `company-data export` or `company-data sync`: takes the destination's lock, copies, prints a summary.
 * Each retry of a request, and each wait for the API's quota, is a line on stderr.
 *
 * @param run - filled in as the run goes: whether the copy holds pages, and its name.
 * @returns the exit code: 0 done, 130 interrupted. Failures are thrown (the caller maps them to codes); a
 * connection to PostgreSQL that went away is thrown as the error that ended it (a shutdown's 57P01), not as
 * the "not queryable" of the statement after it.
 */
export async function runCopyCommand(
  command: 'export' | 'sync',
  options: CopyCommandOptions,
  connection: ResolvedConnection,
  io: CliIo,
  json: boolean,
  run: CopyRun = { stored: false, destination: undefined },
): Promise<number> {
  const { list } = options;
  const progress = new ProgressBar(io.stderr, command);
  const target = targetOf(options, io.cwd);
  run.destination = target.name;
  run.file = target.file;
  const destination = await target.open({
    wait: options.wait,
    command: `company-data ${command} ${list}`,
    signal: io.signal,
    onWait: (holder, gone) =>
      progress.line(
        gone
          ? `the run that held ${target.name} (${describeHolder(holder)}) is gone; taking its copy over once its lock goes stale (at most 10 s)`
          : `waiting for the run that holds ${target.name}: ${describeHolder(holder)}`,
      ),
  });
  let result: CopyResult;
  // Read before the run: whether this sync has a look-back window to compare with.
  const startsWindow = windowStartsNow(destination.checkpoint);
  try {
    const { resumed } = destination;
    if (resumed && !resumed.complete)
      progress.line(
        `resuming an interrupted run: ${resumed.records} ${list} already in ${target.name}${droppedOf(destination)}`,
      );
    const client = createClient(connection, undefined, {
      validate: true,
      maxRetryWait: options.maxWait,
      onRetry: (event) => progress.line(describeRetry(event, connection)),
      onRateLimit: (event) => progress.line(describeRateLimit(event, connection.now ?? Date.now)),
    });
    try {
      result = await copyList({
        client,
        list,
        destination,
        mode: command,
        lookBack: options.lookBack,
        concurrency: options.concurrency,
        signal: io.signal,
        onStart: (total) => {
          if (total !== undefined) progress.start(list, Math.max(total, destination.records));
        },
        onPage: (counts) => {
          run.stored = true;
          progress.update(counts.records);
        },
        onChange: destination.appliesChanges ? undefined : (change) => progress.line(describeChange(change)),
      });
      if (result.outcome === 'done') progress.complete(result.records);
    } catch (error) {
      throw whyLost(destination, error);
    } finally {
      progress.stop();
      await client.close();
    }
  } finally {
    run.stored = destination.checkpoint !== undefined;
    await destination.close();
  }
  const summary: CopySummary = {
    command,
    list,
    destination: target.name,
    outcome: result.outcome,
    resumed: result.resumed,
    caughtUp: result.caughtUp,
    created: result.created,
    changed: result.changed,
    removed: result.removed,
    records: result.records,
    appliesChanges: destination.appliesChanges,
    lookBackMs: options.lookBack,
  };
  io.stdout.write(
    json ? `${JSON.stringify(summary)}\n` : `${describeResult(summary, target, options, startsWindow)}\n`,
  );
  return result.outcome === 'interrupted' ? 130 : 0;
}

/**
 * The error to report: the statement after a lost connection fails as `pg`'s "not queryable" (no code),
 * and the error that ended the connection (a shutdown's 57P01) says why.
 */
function whyLost(destination: CopyDestination, error: unknown): unknown {
  const lost = destination instanceof PostgresCopy ? destination.connectionError : undefined;
  return lost !== undefined && errorCode(error) === undefined ? lost : error;
}

/** The line of a retry: what failed, and how long until the next attempt. */
function describeRetry(event: RetryEvent, connection: ResolvedConnection): string {
  const { error } = event;
  const api = `the API at ${new URL(connection.baseURL).host}`;
  const why =
    error instanceof TimeoutError
      ? `${api} did not answer in time`
      : error instanceof ConnectionError
        ? `${api} could not be reached (${errorCode(error.cause) ?? error.code})`
        : `${api} answered ${error.status ?? error.code}`;
  return `${why}; trying again in ${(event.delayMs / 1000).toFixed(1)} s (retry ${event.attempt} of ${MAX_RETRIES})`;
}

/** The line of a wait for the API's quota: how long, and until when. */
function describeRateLimit(event: RateLimitEvent, now: () => number): string {
  return `the API's quota is spent (429): waiting ${Math.ceil(event.waitMs / 1000)} s, until ${utcTime(now() + event.waitMs)}`;
}

function droppedOf(destination: CopyDestination): string {
  const dropped = destination instanceof NdjsonCopy ? destination.droppedBytes : 0;
  return dropped > 0 ? `; cut off ${dropped} bytes of a page never recorded` : '';
}

function describeChange(change: SyncChange<unknown>): string {
  if (change.type === 'removed') return `removed ${change.id}`;
  const record = change.record as { id?: string; created_at?: string };
  return `changed ${record.id} (created ${record.created_at})`;
}

/** What a summary says of a run that finished an interrupted one and then went on to the present. */
const CAUGHT_UP = 'finishing the interrupted run, then going on to the present';

/**
 * The summary line a person reads.
 *
 * @param startsWindow - whether the sync had no look-back window to compare with ({@link windowStartsNow}).
 */
export function describeResult(
  summary: CopySummary,
  target: Pick<Target, 'startOver'>,
  options: Pick<CopyCommandOptions, 'lookBack'>,
  startsWindow = false,
): string {
  const { list, destination, created, changed, removed, records } = summary;
  if (summary.outcome === 'already-complete')
    return `${destination} is already a complete export (${records} ${list}). To add what was created since, run company-data sync ${list} with the same destination; to export everything again, ${target.startOver}.`;
  if (summary.outcome === 'interrupted')
    return `Interrupted: ${records} ${list} are safely in ${destination}. Run the same command again to go on.`;
  const caughtUp = summary.caughtUp ? `, ${CAUGHT_UP}` : '';
  if (summary.command === 'export') return `Exported ${records} ${list} to ${destination}${caughtUp}.`;
  const window = !summary.appliesChanges
    ? options.lookBack > 0 && startsWindow
      ? `; ${WINDOW_STARTS_NOW}`
      : options.lookBack > 0
        ? `; ${changed} changed and ${removed} removed within the look-back window (listed above; a file is append-only, so they are not applied)`
        : ''
    : // A database compares what it re-reads with its rows: it has a window to compare with from the first run.
      options.lookBack > 0
      ? `; ${changed} changed and ${removed} removed within the look-back window (applied)`
      : changed + removed > 0
        ? `; ${changed} changed and ${removed} removed (applied)`
        : '';
  return `Synced ${list} into ${destination}${caughtUp}: ${created} new${window}; ${records} in the copy.`;
}
