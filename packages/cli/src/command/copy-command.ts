import { resolve } from 'node:path';
import type { SyncChange } from '@company-data/sdk';
import { createClient, type ResolvedConnection } from '../connection.js';
import { type CopyResult, copyList } from '../copy/copy-list.js';
import type { CopyDestination } from '../copy/destination.js';
import type { LockOptions } from '../copy/file-lock.js';
import { describeHolder } from '../copy/holder.js';
import { NdjsonCopy, progressPathOf } from '../copy/ndjson-copy.js';
import { DEFAULT_SCHEMA, PostgresCopy } from '../copy/postgres-copy.js';
import { WINDOW_STARTS_NOW, windowStartsNow } from '../copy/window-starts-now.js';
import { Progress } from '../progress.js';
import type { CopyCommandOptions } from './args.js';
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

/** How the messages name the destination, and how a person starts it over. */
interface Target {
  readonly name: string;
  readonly startOver: string;
  open(lock: LockOptions): Promise<CopyDestination>;
}

function targetOf(options: CopyCommandOptions, cwd: string): Target {
  const { destination, list } = options;
  if ('file' in destination) {
    const file = resolve(cwd, destination.file);
    return {
      name: destination.file,
      startOver: `delete ${progressPathOf(destination.file)}`,
      open: (lock) => NdjsonCopy.open(file, { lock }),
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
 *
 * @returns the exit code: 0 done, 130 interrupted. Failures are thrown (the caller maps them to codes).
 */
export async function runCopyCommand(
  command: 'export' | 'sync',
  options: CopyCommandOptions,
  connection: ResolvedConnection,
  io: CliIo,
  json: boolean,
): Promise<number> {
  const { list } = options;
  const progress = new Progress(io.stderr, command);
  const target = targetOf(options, io.cwd);
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
    const client = createClient(connection, undefined, { validate: true });
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
        onPage: (counts) => progress.update(counts.records),
        onChange: destination.appliesChanges ? undefined : (change) => progress.line(describeChange(change)),
      });
      if (result.outcome === 'done') progress.complete(result.records);
    } finally {
      progress.stop();
      await client.close();
    }
  } finally {
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
