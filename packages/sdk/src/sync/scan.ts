import { NotFoundError, RequestAbortedError } from '../core/errors.js';
import type { SyncChange, SyncSpan } from '../core/sync-changes.js';
import type { Iteration } from '../core/telemetry/iteration.js';
import { TELEMETRY } from '../core/telemetry/sink.js';
import { PageBoundaryDeduper } from '../pagination/page-dedupe.js';
import { encodeCheckpoint, type SyncMark, type SyncScanState, type SyncState } from './checkpoint.js';
import { LookBack } from './look-back.js';
import { type FetchSyncPage, type SyncPage, type SyncPageOptions, SyncPageReader } from './page-reader.js';

// How `sync()` scans a list that changes while it reads it, and why it yields each record exactly once.
//
// The API has offset pages and no "created after" filter. The scan reads newest first (`-created_at`,
// ties by id) from page 1 down to the checkpoint's mark: the `created_at` of the newest record the last
// run delivered and the ids delivered at that instant (so records created in the same millisecond are
// told apart). Its cursor is the boundary de-duplication of ordered lists (`PageBoundaryDeduper`): the
// last record passed and the ids passed at its instant. An item that sorts at or before the cursor was
// passed already, or is newer than the scan's top; either way the scan leaves it (a newer one is the next
// run's: its `created_at` is above this run's mark).
//
// - Arrivals land at the head, before the cursor, and shift later pages forward: a page then repeats the
//   end of the one before. The cursor drops the repeats; nothing is skipped.
// - Deletions of records before the cursor shift later pages backwards: the next page then starts past
//   records never read. Between two reads of the list, let a be the arrivals and d_b, d_a the deletions
//   before and after the cursor. The pages shift by s = a − d_b, and `count` moves by Δ = a − d_b − d_a,
//   so s = Δ + d_a ≥ Δ. While arrivals sort before the cursor (their `created_at` is at least the
//   scan's top, as on the API, where it is the creation time), a count that did not fall means no
//   backward shift, and a fall by f bounds it by f. So a page read after a fall is taken only if it
//   reaches the cursor (its first item was passed already); otherwise the scan steps back ⌈f / page
//   size⌉ pages, then one page at a time, to a page that does (page 1 always does: nothing comes before
//   it) and goes on from there. The cursor drops what the pages read again repeat.
// - The new mark is the scan's top (the first record of the first page) once the scan reaches the old
//   mark; records created meanwhile are newer and left for the next run.
// - While the scan is under way, its state (the old mark, the top, the cursor, how many records it
//   passed, the last `count`) is the checkpoint. A run resumed from it seeks the cursor: it estimates
//   the page from the records passed and the change of `count`, reads it, and moves up while the page
//   starts after the cursor (and once down, by the estimate, when the page lies wholly before it), then
//   goes on as above.
// - Look-back: the scan goes on below the mark down to (mark − lookBack), comparing each record with the
//   fingerprint the last run kept for it: a different one is `changed`; a record the window did not hold
//   is `created` (it entered the list unseen); fingerprints of the window not met again are `removed`,
//   reported once the scan ended (exact, as the scan has no gap). The new window's fingerprints are those
//   of the records from (top − lookBack) on.
// - Read-ahead (`concurrency` > 1): two pages in flight may be answered the lower one first; arrivals
//   between the two answers then move the upper page down, and its last records out of both pages (s > 0,
//   read in the other order). Arrivals alone raise `count`, and the list's page stream reads the lower page
//   again; with a deletion below the boundary too, `count` does not rise and nothing shows the skip. The
//   scan drops to one page at a time for the rest of the run at the first fall of `count`, which narrows
//   that case and does not close it; exactly-once under any changes holds one page at a time. What the
//   API would allow instead, and at what cost: docs/spec-gaps.md, "Sync read-ahead under deletions".
//
// - Ties: an arrival sorts after the cursor only when it shares the cursor's instant, which is then the
//   top's (arrivals are at least as new as the top). A record such an arrival and a deletion hide is at
//   that instant too and not among the top's ids, so the next run delivers it: exactly once still holds
//   over the runs.
//
// What the scan cannot see: records created with a `created_at` between the top and the cursor while it
// scans (not on the API, whose `created_at` is the creation time; the look-back reports them next time),
// changes to records older than the look-back window, and deletions outside it.

/** A record as the scan reads it. */
interface Identified {
  id?: unknown;
  created_at?: unknown;
}

/**
 * What the scan yields: a change, or the end of the page it read (its number, and every record it passed
 * there; 0 for the last batch, which says what span the run passed in full).
 */
export type SyncEvent<Item> =
  | { readonly change: SyncChange<Item> }
  | { readonly pageDone: number; readonly records: readonly Item[]; readonly passed?: SyncSpan };

/** What a sync scan reads and how. */
export interface SyncScanSource<Item> extends SyncPageOptions {
  /** Fetches a page of the list, newest first, with the run's filters and page size. */
  fetch: FetchSyncPage<Item>;
  /** The run's page size. */
  pageSize: number;
  /** The look-back window, in ms (0 for none). */
  lookBack: number;
  /** The run as telemetry and the tracing channels see it: it ends with the scan. */
  iteration?: Iteration | undefined;
}

const NEWEST_FIRST = '-created_at';

/**
 * Scans the list from `state` (a checkpoint read, or an empty state for a full export), yielding each
 * change and the end of each page; `state` is kept up to date before each event, so that
 * {@link SyncScan.checkpoint} is the checkpoint after it.
 */
export class SyncScan<Item> {
  readonly #state: SyncState;
  readonly #source: SyncScanSource<Item>;
  readonly #pages: SyncPageReader<Item>;
  readonly #dedupe: PageBoundaryDeduper;
  readonly #lookBack: LookBack;
  /** The scan stops at the first record created before this instant (epoch ms). */
  readonly #bound: number;
  readonly #markAt: number;
  readonly #markIds: ReadonlySet<string>;
  #topAt = Number.NaN;

  /**
   * @param state - the checkpoint's state; updated as the scan goes.
   * @param source - how to read the list.
   */
  constructor(state: SyncState, source: SyncScanSource<Item>) {
    this.#state = state;
    this.#source = source;
    this.#pages = new SyncPageReader(source.fetch, source);
    const scan = state.scan;
    // A resumed run keeps the look-back of the run it resumes.
    this.#lookBack = new LookBack(scan?.lookBack ?? source.lookBack, state.window, scan?.fingerprints);
    this.#markAt = state.mark ? Date.parse(state.mark.at) : Number.NEGATIVE_INFINITY;
    this.#markIds = new Set(state.mark?.ids);
    this.#bound = this.#markAt - this.#lookBack.ms;
    this.#dedupe = new PageBoundaryDeduper(
      NEWEST_FIRST,
      scan ? { at: Date.parse(scan.cursor.at), ids: scan.cursor.ids } : undefined,
    );
    if (scan) this.#topAt = Date.parse(scan.top.at);
  }

  /** The checkpoint now. */
  checkpoint(): string {
    const scan = this.#state.scan;
    const cursor = this.#dedupe.cursor;
    if (scan === null || cursor === undefined) return encodeCheckpoint(this.#state);
    const state = { ...this.#state, scan: { ...scan, cursor: markOf(cursor.at, cursor.ids) } };
    return encodeCheckpoint(state, this.#lookBack.entries);
  }

  /** Every change of the list since the mark, and the end of every page read. */
  async *changes(): AsyncGenerator<SyncEvent<Item>, void, undefined> {
    let failure: unknown;
    let complete = false;
    try {
      const end = yield* this.#scan();
      yield* this.#finish(end);
      complete = true;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      await this.#pages.close();
      this.#source.iteration?.end(failure, complete, this.#pagesRead);
    }
  }

  /** Pages read so far (a page read again counts again). */
  #pagesRead = 0;

  /** Scans down to the bound or the list's end; returns whether it reached the end. */
  async *#scan(): AsyncGenerator<SyncEvent<Item>, 'bound' | 'end', undefined> {
    const resumed = this.#state.scan;
    let page = resumed ? this.#estimate(resumed.count) : 1;
    /** The `count` of the page taken last; `undefined` while seeking the cursor. */
    let anchor: number | undefined;
    let jumped = false;
    for (;;) {
      const read = await this.#read(page, anchor);
      const { count, total_pages } = read.pagination;
      const first = read.data[0];
      const reaches =
        page === 1 ||
        this.#dedupe.cursor === undefined ||
        (first !== undefined && this.#dedupe.passed(first));
      this.#pagesRead++;
      const { telemetry } = this.#source;
      if (anchor !== undefined && count < anchor) {
        telemetry?.recordEvent(TELEMETRY.countChangeEvent, {
          [TELEMETRY.page]: page,
          [TELEMETRY.previousCount]: anchor,
          [TELEMETRY.count]: count,
        });
        await this.#pages.oneAtATime();
      }
      if (!reaches && (anchor === undefined || count < anchor)) {
        // A gap may lie between the cursor and this page: step back to a page that reaches the cursor.
        const back =
          anchor === undefined
            ? page - this.#estimate(count)
            : Math.ceil((anchor - count) / this.#source.pageSize);
        const from = page;
        page = Math.max(1, page - Math.max(1, back));
        telemetry?.recordEvent(TELEMETRY.stepBackEvent, { [TELEMETRY.page]: from, [TELEMETRY.toPage]: page });
        anchor = undefined;
        continue;
      }
      const seeking = anchor === undefined && resumed !== null;
      let bound = false;
      let fresh = 0;
      const records: Item[] = [];
      const offset = (page - 1) * read.pagination.page_size;
      for (const [index, item] of read.data.entries()) {
        if (this.#dedupe.passed(item)) continue;
        const time = createdAt(item);
        if (time < this.#bound) {
          bound = true;
          break;
        }
        this.#stopIfAborted();
        fresh++;
        records.push(item);
        const change = this.#take(item, time, count, offset + index + 1);
        if (change !== undefined) yield { change };
      }
      anchor = count;
      const scan = this.#state.scan;
      if (scan !== null) {
        // A page wholly before the cursor: the cursor's next record is past it.
        if (fresh === 0) scan.place = Math.max(scan.place + count - scan.count, offset + read.data.length);
        scan.count = count;
      }
      yield { pageDone: page, records };
      if (bound) return 'bound';
      if (read.data.length === 0 || page >= total_pages) return 'end';
      // A resumed run that landed wholly before its cursor, far from where the count puts it: jump once.
      const estimate = this.#estimate(count);
      if (seeking && fresh === 0 && !jumped && estimate > page + 1) {
        jumped = true;
        page = estimate;
        anchor = undefined;
        continue;
      }
      page++;
    }
  }

  /** An aborted run stops at once, not at the end of the page in hand: its checkpoint is where it stopped. */
  #stopIfAborted(): void {
    const signal = this.#source.signal;
    if (signal?.aborted) {
      throw new RequestAbortedError('Sync aborted: `run.checkpoint` holds every change yielded before.', {
        cause: signal.reason,
      });
    }
  }

  /** A page; past a list that shrank (a 404), an empty page whose count fell, so that the scan steps back. */
  async #read(page: number, anchor: number | undefined): Promise<SyncPage<Item>> {
    try {
      return await this.#pages.read(page);
    } catch (error) {
      if (!(error instanceof NotFoundError) || page === 1) throw error;
      // Taken after a page, a fall of `count` (a step back); while seeking, no news of `count` at all.
      const count = anchor !== undefined ? anchor - 1 : (this.#state.scan?.count ?? 0);
      const { pageSize } = this.#source;
      return { data: [], pagination: { count, page, page_size: pageSize, total_pages: page - 1 } };
    }
  }

  /** The page the cursor's next record is on, by its place at the last read and how `count` moved since. */
  #estimate(count: number): number {
    const scan = this.#state.scan;
    if (scan === null) return 1;
    const place = scan.place + (count - scan.count);
    return Math.max(1, Math.floor(place / this.#source.pageSize) + 1);
  }

  /** Passes a record of the scan: moves the cursor, keeps its fingerprint, says what changed. */
  #take(item: Item, time: number, count: number, place: number): SyncChange<Item> | undefined {
    const id = String((item as Identified).id);
    const scan = this.#state.scan ?? this.#begin(time, count);
    this.#dedupe.accept(item);
    scan.passed++;
    // The place and the count of one read: a run resumed mid-page estimates from a consistent pair.
    scan.place = place;
    scan.count = count;
    if (time === this.#topAt) scan.top.ids.push(id);
    const known = time < this.#markAt || (time === this.#markAt && this.#markIds.has(id));
    const seen = this.#lookBack.see(item, id, time, this.#topAt, known);
    if (!known) return { type: 'created', record: item };
    return seen === undefined ? undefined : { type: seen, record: item };
  }

  /** A fresh scan's top: its first record. */
  #begin(time: number, count: number): SyncScanState {
    this.#topAt = time;
    const top = markOf(time, []);
    const scan: SyncScanState = {
      top,
      cursor: markOf(time, []),
      passed: 0,
      place: 0,
      count,
      lookBack: this.#lookBack.ms,
      fingerprints: this.#lookBack.fingerprints,
    };
    this.#state.scan = scan;
    return scan;
  }

  /** Completes the run: the removals, then the new mark and window. */
  async *#finish(end: 'bound' | 'end'): AsyncGenerator<SyncEvent<Item>, void, undefined> {
    const state = this.#state;
    for (const id of this.#lookBack.unseen(end === 'end' ? Number.NEGATIVE_INFINITY : this.#bound)) {
      this.#lookBack.forget(id);
      yield { change: { type: 'removed', id } };
    }
    const scan = state.scan;
    const passed: SyncSpan = {
      from: end === 'end' ? null : new Date(this.#bound).toISOString(),
      to: scan ? scan.top.at : null,
    };
    state.mark = scan ? newer(scan.top, state.mark) : state.mark;
    state.window = this.#lookBack.next(scan ? this.#topAt : this.#markAt);
    state.scan = null;
    yield { pageDone: 0, records: [], passed };
  }
}

/** The later of two marks (the union of their ids at one instant). */
function newer(top: SyncMark, mark: SyncMark | null): SyncMark {
  if (mark === null) return top;
  const topAt = Date.parse(top.at);
  const markAt = Date.parse(mark.at);
  if (topAt > markAt) return top;
  if (topAt < markAt) return mark;
  return { at: top.at, ids: [...new Set([...mark.ids, ...top.ids])] };
}

function markOf(at: number, ids: readonly unknown[]): SyncMark {
  return { at: new Date(at).toISOString(), ids: ids.map(String) };
}

/** A record's `created_at` in epoch ms; a record without one sorts last (it ends the scan). */
function createdAt(item: unknown): number {
  const { created_at } = (typeof item === 'object' && item !== null ? item : {}) as Identified;
  const time = typeof created_at === 'string' ? Date.parse(created_at) : Number.NaN;
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}
