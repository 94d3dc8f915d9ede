import type { CompanyData, SyncBatch, SyncChange, SyncRun } from '@company-data/sdk';
import type { CopyDestination } from './destination.js';
import { type CopyListName, resourceOf } from './lists.js';

/**
 * What {@link copyList} does.
 *
 * - `export`: every record, resuming an interrupted export; a complete copy is left as it is (sync it).
 * - `sync`: what was created since the copy's checkpoint (everything, on a first run), and with `lookBack`
 *   the recent records that changed or left the list.
 */
export type CopyMode = 'export' | 'sync';

/**
 * Options of {@link copyList}.
 *
 * @example
 * ```ts
 * const options: CopyListOptions = { client, list: 'calls', destination: copy, mode: 'sync', lookBack: 86_400_000 };
 * ```
 */
export interface CopyListOptions {
  /** The SDK client to read with. */
  client: CompanyData;
  /** The list to copy. */
  list: CopyListName;
  /** Where it goes, opened (and so locked) by the caller. */
  destination: CopyDestination;
  /** A full export or a sync. */
  mode: CopyMode;
  /** With `sync`: how far back (ms) to re-read for changed and removed records. Default 0. */
  lookBack?: number | undefined;
  /** Pages fetched ahead (the SDK's `concurrency`). Default 1. */
  concurrency?: number | undefined;
  /** Stops after the page in hand (the request in flight is abandoned); what was stored stays. */
  signal?: AbortSignal | undefined;
  /** Told once before the walk: the list's size when known (a full export), for a progress bar. */
  onStart?: ((total: number | undefined) => void) | undefined;
  /** Told after each page stored: the counts so far. */
  onPage?: ((counts: CopyCounts) => void) | undefined;
  /** Told of each `changed` and `removed` change, once its page is stored. */
  onChange?: ((change: SyncChange<unknown>) => void) | undefined;
}

/**
 * What a run stored.
 *
 * @example
 * ```ts
 * const counts: CopyCounts = { created: 240, changed: 3, removed: 1, records: 239 };
 * ```
 */
export interface CopyCounts {
  /**
   * Records created in the copy by this run: those a database inserted (its {@link CopyDestination.applied}
   * count), or those the sync delivered as new to a file.
   */
  readonly created: number;
  /**
   * Changed records: those a database replaced because the stored record differed from the list's (its
   * {@link CopyDestination.applied} count), or those the sync reported to a file.
   */
  readonly changed: number;
  /** Removed records: those a database deleted, or those the sync reported to a file. */
  readonly removed: number;
  /** Records in the copy now. */
  readonly records: number;
}

/**
 * How a run ended, and what it stored.
 *
 * @example
 * ```ts
 * const result: CopyResult = await copyList(options);
 * if (result.outcome === 'interrupted') process.exitCode = 130;
 * ```
 */
export interface CopyResult extends CopyCounts {
  /**
   * `done`: the walk reached its end and the final checkpoint is stored; `already-complete`: an export of
   * a complete copy, nothing read; `interrupted`: stopped by `signal`, every page stored so far kept.
   */
  readonly outcome: 'done' | 'already-complete' | 'interrupted';
  /** Whether the run went on from a run that had not completed. */
  readonly resumed: boolean;
  /**
   * Whether the run, after finishing the walk it resumed, went on to the present in a second walk (so that
   * `done` means up to date: every record created before this run started is in the copy).
   */
  readonly caughtUp: boolean;
}

/**
 * Whether a batch is the last of its run: the one that completes the walk (its removals, and the final
 * checkpoint), which the SDK yields without a request (`page` 0). An interrupt that lands on it leaves nothing
 * to stop: the run completes, rather than ending "interrupted" with every record already stored.
 *
 * @param batch - a batch of `run.pages()`.
 * @returns true for the last batch.
 * @example
 * ```ts
 * for await (const batch of run.pages()) {
 *   await copy.write(batch);
 *   if (signal.aborted && !isLastBatch(batch)) break;
 * }
 * ```
 */
export function isLastBatch(batch: Pick<SyncBatch<unknown>, 'page'>): boolean {
  return batch.page === 0;
}

/** The part of a list's resource a copy uses: what every list's resource has. */
interface Syncable {
  list(
    params: { page_size: number },
    options: { signal?: AbortSignal | undefined },
  ): Promise<{ pagination: { count: number } }>;
  sync(
    options: { checkpoint?: string | undefined; lookBack?: number | undefined },
    requestOptions: { signal?: AbortSignal | undefined; concurrency?: number | undefined },
  ): SyncRun<unknown>;
}

/**
 * Copies a list into a destination, page by page, exactly once: each page stored with its checkpoint, so a
 * run stopped at any point (its `signal`, a crash, SIGKILL) is resumed by the next with no record missing
 * and none twice. The destination must be held by this run (its `open` takes the lock).
 *
 * @param options - the client, the list, the destination and the mode.
 * @returns how the run ended and what it stored. An interrupt is an outcome, not an error.
 * @throws the SDK's errors (a refused key, a server failing past its retries), the destination's
 * ({@link CopyError}, {@link LockLostError}, a database's): what was stored before stays.
 * @example
 * ```ts
 * import { copyList, NdjsonCopy } from '@company-data/cli/copy';
 *
 * const destination = await NdjsonCopy.open('calls.ndjson');
 * try {
 *   const result = await copyList({ client, list: 'calls', destination, mode: 'sync' });
 *   console.log(`${result.created} new calls`);
 * } finally {
 *   await destination.close();
 * }
 * ```
 */
export async function copyList(options: CopyListOptions): Promise<CopyResult> {
  const { destination, signal } = options;
  const resumed = destination.resumed !== undefined && !destination.resumed.complete;
  let created = 0;
  let changed = 0;
  let removed = 0;
  const counts = (): CopyCounts => {
    const applied = destination.applied;
    return { ...(applied ?? { created, changed, removed }), records: destination.records };
  };
  if (options.mode === 'export' && destination.resumed?.complete)
    return { outcome: 'already-complete', resumed: false, caughtUp: false, ...counts() };
  const resource: Syncable = resourceOf(options.client, options.list);
  const full = destination.checkpoint === undefined || options.mode === 'export';
  /** One walk from the destination's checkpoint to its end; false when stopped. */
  const walk = async (lookBack: number | undefined): Promise<boolean> => {
    const run = resource.sync(
      { checkpoint: destination.checkpoint, lookBack },
      { signal, concurrency: options.concurrency },
    );
    for await (const batch of run.pages()) {
      await destination.write(batch);
      for (const change of batch.changes) {
        if (change.type === 'created') created++;
        else {
          if (change.type === 'changed') changed++;
          else removed++;
          options.onChange?.(change);
        }
      }
      options.onPage?.(counts());
      // A stop that comes with the last batch changes nothing: the walk is complete, and recorded so.
      if (signal?.aborted && !isLastBatch(batch)) return false;
    }
    await destination.complete(run.checkpoint);
    return true;
  };
  try {
    // The size is for a progress bar only: the copy itself ends where the walk does.
    const total = full ? (await resource.list({ page_size: 1 }, { signal })).pagination.count : undefined;
    options.onStart?.(total);
    const lookBack = options.mode === 'sync' ? options.lookBack : undefined;
    if (!(await walk(lookBack))) return { outcome: 'interrupted', resumed, caughtUp: false, ...counts() };
    // A resumed walk ends where the run it resumes began: what was created since is the present's, so the
    // run goes on to it, with its own look-back. Exit 0 then means every record created before this run
    // started is in the copy.
    if (!resumed) return { outcome: 'done', resumed, caughtUp: false, ...counts() };
    if (!(await walk(lookBack))) return { outcome: 'interrupted', resumed, caughtUp: false, ...counts() };
    return { outcome: 'done', resumed, caughtUp: true, ...counts() };
  } catch (error) {
    // The interrupt aborts the request in flight: its error is the interrupt itself.
    if (signal?.aborted) return { outcome: 'interrupted', resumed, caughtUp: false, ...counts() };
    throw error;
  }
}
