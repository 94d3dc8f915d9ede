import type { ListOptions } from './options.js';

/**
 * What a sync run reports about one record of the list.
 *
 * - `created`: the record was created since the checkpoint (or, in the look-back window, entered the list
 *   unseen: created with an earlier `created_at`, or now matching the run's filters).
 * - `changed`: a record delivered before, in the look-back window, whose content is not what it was.
 * - `removed`: a record the look-back window held last time is no longer in the list (deleted, or no longer
 *   matching the run's filters). Reported only for the window (see `lookBack`).
 *
 * @typeParam Item - the list's record type.
 * @example
 * ```ts
 * for await (const change of client.calls.sync({ checkpoint: saved, lookBack: 86_400_000 })) {
 *   if (change.type === 'removed') await warehouse.delete(change.id);
 *   else await warehouse.upsert(change.record);
 * }
 * ```
 */
export type SyncChange<Item> =
  | { readonly type: 'created'; readonly record: Item }
  | { readonly type: 'changed'; readonly record: Item }
  | { readonly type: 'removed'; readonly id: string };

/**
 * One page's worth of a sync run, from `run.pages()`, with the checkpoint that stands after it: store the
 * batch, then the checkpoint, and an interrupt never loses or repeats a record.
 *
 * @typeParam Item - the list's record type.
 * @example
 * ```ts
 * const run = client.calls.sync({ checkpoint: await readCheckpoint() });
 * for await (const batch of run.pages()) {
 *   await warehouse.write(batch.changes);
 *   await saveCheckpoint(batch.checkpoint);
 * }
 * ```
 */
export interface SyncBatch<Item> {
  /** The changes of this page, in list order (newest first); removals come in the last batch. */
  readonly changes: readonly SyncChange<Item>[];
  /** The checkpoint once this batch is stored: a run started from it continues after it. */
  readonly checkpoint: string;
  /** The page of the list this batch was read from (0 for the last batch's removals). */
  readonly page: number;
  /**
   * Every record the run passed on this page, newest first: the created ones and, with `lookBack`, every
   * record of the window, changed or not. A copy that compares these with what it holds converges by
   * content, whatever the last run kept (a restored database, a wider window than last time). Empty in the
   * last batch.
   */
  readonly records: readonly Item[];
  /**
   * In the last batch only (`page` 0): the span of `created_at` (inclusive, ISO 8601; `null` where the run
   * reached the end of the list or had no record to start from) within which the whole run, resumed parts
   * included, passed every record of the list: a record of a copy inside it that no batch's `records`
   * held has left the list. Undefined in the other batches.
   */
  readonly passed?: SyncSpan | undefined;
}

/**
 * The `created_at` span a sync run read in full (see {@link SyncBatch.passed}): `from` and `to` inclusive,
 * ISO 8601; `from` is `null` when the run read to the end of the list, `to` is `null` when the list held no
 * record at or above `from` (then nothing of `from` on exists).
 *
 * @example
 * ```ts
 * const span: SyncSpan = { from: '2026-12-06T09:00:00.000Z', to: '2026-12-07T09:00:00.000Z' };
 * ```
 */
export interface SyncSpan {
  readonly from: string | null;
  readonly to: string | null;
}

/**
 * The first argument of `sync()`: where the last run stopped, how far back to look for changes, which
 * part of the list.
 *
 * @typeParam Params - the list's parameters (its filters and `page_size`).
 * @example
 * ```ts
 * const run = client.calls.sync({ checkpoint: saved, lookBack: 6 * 3_600_000, params: { source: 'voice_agent' } });
 * ```
 */
export interface SyncOptions<Params> {
  /**
   * What a previous run's `run.checkpoint` (or a batch's `checkpoint`) returned. Absent: from the
   * beginning, a full export. A checkpoint of another list, of other filters, or not a checkpoint at all, is
   * refused with a {@link ValidationError} (code `invalid_checkpoint`).
   */
  checkpoint?: string | undefined;
  /**
   * Milliseconds: also re-read the records created within this long before the checkpoint, and report
   * those whose content changed (`changed`) or that left the list (`removed`). The checkpoint then keeps a
   * fingerprint (14 characters) of each record in the window. Default: 0 (no look-back). A run resumed
   * from a checkpoint taken mid-run keeps the look-back of the run it resumes.
   */
  lookBack?: number | undefined;
  /**
   * The list's filters (e.g. `{ source: 'voice_agent' }`) and `page_size` (default 100, the most). A
   * checkpoint remembers the filters and refuses others; `page` and `ordering` are the sync's own.
   */
  params?: Omit<Params, 'page' | 'ordering'> | undefined;
}

/**
 * The second argument of `sync()`: the request options, plus `concurrency` and `readAhead` to fetch pages
 * ahead. One page at a time (the default), every record comes exactly once whatever is created and deleted
 * during the run. With `concurrency` above 1, exactly-once holds while records are only created, or only
 * deleted; from the first page that reports a lower `count` than the page before (records were deleted),
 * the run reads one page at a time to its end. Before that, one interleaving misses a record: two pages in
 * flight, the lower one answered first, and between the two answers a record created and another deleted
 * below their boundary (`count` does not move, so nothing shows it). When records are both created and
 * deleted during your runs, keep the default, or use a `lookBack` window: the next run reports such a record
 * as `created`. Why, and what the fall-back costs: "Sync read-ahead under deletions" in the guide Spec gaps
 * and decisions.
 *
 * @example
 * ```ts
 * const firstExport = client.calls.sync({}, { concurrency: 4, timeout: 10_000 });
 * ```
 */
export type SyncRequestOptions = Omit<ListOptions, 'ordered' | 'lastPage' | 'onCountChange'>;
