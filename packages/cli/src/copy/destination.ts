import type { SyncBatch } from '@company-data/sdk';

/**
 * Where a copy goes: an NDJSON file ({@link NdjsonCopy}) or PostgreSQL tables ({@link PostgresCopy}),
 * opened where the last run left it and held by this run alone until closed. {@link copyList} drives one.
 *
 * @example
 * ```ts
 * async function fill(copy: CopyDestination) {
 *   const run = client.calls.sync({ checkpoint: copy.checkpoint });
 *   for await (const batch of run.pages()) await copy.write(batch);
 *   await copy.complete(run.checkpoint);
 * }
 * ```
 */
export interface CopyDestination {
  /** What the last run left (undefined for a new copy); `complete` says whether it had reached the end. */
  readonly resumed: { readonly records: number; readonly complete: boolean } | undefined;
  /** The SDK checkpoint to sync from: the last page recorded, or undefined (a full export). */
  readonly checkpoint: string | undefined;
  /** Records created in the copy so far. */
  readonly records: number;
  /** Whether `changed` and `removed` changes are applied (a database) or only reported (an append-only file). */
  readonly appliesChanges: boolean;
  /**
   * What a destination that applies changes did in this run, counted by itself: records it lacked and
   * inserted, records replaced because their content differed, and records deleted. Undefined for one that
   * only reports changes (then the sync's own counts stand).
   */
  readonly applied?:
    | { readonly created: number; readonly changed: number; readonly removed: number }
    | undefined;
  /**
   * Stores one page's changes, then its checkpoint, so that an interrupt at any moment neither loses nor
   * repeats a record.
   *
   * @param batch - a batch of `run.pages()`: its changes, the records it passed (a database compares them
   *   with its rows), and in the last batch the span the walk read in full.
   * @param complete - true for the last write of a run that reached the end.
   */
  write(batch: SyncBatch<unknown>, complete?: boolean): Promise<unknown>;
  /**
   * Records that the run reached the end: its checkpoint is where the next sync starts.
   *
   * @param checkpoint - `run.checkpoint` once the run completed.
   */
  complete(checkpoint: string): Promise<void>;
  /** Releases the destination (its lock, its file or connection). */
  close(): Promise<void>;
}
