import type { Pagination } from '@company-data/contract';
import { NotFoundError } from '../core/errors.js';
import { type CallTelemetry, TELEMETRY } from '../core/telemetry/sink.js';
import { type AttemptOutcome, type AttemptSlots, RequestSlots } from '../request/request-slots.js';

/** The least a page needs for the stream to go on. */
export interface PageLike {
  data: readonly unknown[];
  pagination: Pagination;
}

/** Where a stream fetches the pages after the first: a list's pages in its iteration, or a sync's. */
export interface PageSource<P> {
  /**
   * Fetches one page by number.
   *
   * @param page - the page number.
   * @param signal - aborts it when the consumer stops early.
   * @param slots - the stream's request slots, when it fetches ahead: each attempt waits for one.
   */
  fetchPage(page: number, signal: AbortSignal, slots: AttemptSlots | undefined): Promise<P>;
}

/** The oldest page counts as late after at least this long, whatever its peers take. */
export const LATE_AFTER_MIN_MS = 100;
/** ...or after this many times the usual time of a page, when that is longer. */
const LATE_AFTER_FACTOR = 4;

/** Arms a timer and returns the function that disarms it. */
export type ArmTimer = (ms: number, fire: () => void) => () => void;

const realTimer: ArmTimer = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
};

/** How a stream fetches the pages after the first. */
export interface PageStreamOptions {
  /** The most requests in flight at once. */
  concurrency: number;
  /** The most pages under way or held, not yet yielded (at least `concurrency`). */
  readAhead: number;
  /** Yield in page order (`true`), or each page as soon as it arrives. */
  ordered: boolean;
  /** The last page to fetch (inclusive); the list's own end when absent. */
  lastPage?: number | undefined;
  /** The consumer's signal: aborts every request. */
  signal?: AbortSignal | undefined;
  /** How the late-page timer is armed (injected by tests). */
  armTimer?: ArmTimer | undefined;
  /** The iteration's telemetry: read-ahead extensions and pages read again are its events. */
  telemetry?: CallTelemetry | undefined;
}

type Outcome<P> = { readonly page: P } | { readonly error: unknown };

/** One page started and not yet yielded. */
interface Task<P> {
  readonly number: number;
  readonly startedAt: number;
  /** Set once the fetch settles. */
  outcome?: Outcome<P>;
  /** Resolves once the fetch settles. */
  readonly settled: Promise<void>;
  /** An attempt of it failed (it is retrying). */
  failed: boolean;
  /** Where it came in the order pages settled, once it has. */
  order?: number;
  /** Aborts its request. */
  readonly stop: AbortController;
}

/**
 * Yields the first page, then every later page, fetching ahead (ordered prefetch, or as pages arrive
 * when `ordered` is false). Two budgets bound it: at most `concurrency` requests in flight (a page that
 * backs off before a retry gives its slot to the next page in line), and at most `readAhead` pages under
 * way or held. In order, a clean stream keeps `concurrency` pages ahead, as a window; only while the oldest
 * page is late (an attempt failed, or it takes far longer than its peers) do the free slots reach further,
 * up to `readAhead` pages, so that a failing page delays its own turn and not every request behind it.
 *
 * The end is taken from the newest page read (`total_pages` grows when records are added mid-iteration) or
 * `lastPage`; an empty page, or a 404 for a page that no longer exists after deletions, also ends it.
 * Stopping early aborts every request under way.
 */
export async function* pageStream<P extends PageLike>(
  first: Promise<P>,
  source: PageSource<P>,
  options: PageStreamOptions,
): AsyncGenerator<P, void, undefined> {
  const firstPage = await first;
  yield firstPage;
  const stream = new PageStreamState(firstPage, source, options);
  try {
    yield* options.ordered ? stream.inOrder() : stream.asTheyArrive();
  } finally {
    stream.stop();
  }
}

/** The state of one stream over the pages after the first. */
class PageStreamState<P extends PageLike> {
  readonly #source: PageSource<P>;
  readonly #options: PageStreamOptions;
  readonly #stopped = new AbortController();
  readonly #signal: AbortSignal;
  readonly #slots: RequestSlots | undefined;
  readonly #armTimer: ArmTimer;
  /** Pages started and not yet yielded, by number. */
  readonly #tasks = new Map<number, Task<P>>();
  /** The next page to start. */
  #next: number;
  /** The last page to start. */
  #last: number;
  /** The oldest page not yet yielded, in order. */
  #head: number;
  /** The oldest page took far longer than its peers. */
  #headLate = false;
  #disarm: (() => void) | undefined;
  /** A moving average of how long a page takes, in ms. */
  #usualMs: number | undefined;
  /** How many pages settled so far: each task's place in that order. */
  #settledCount = 0;
  /** When the page yielded last settled, and the `count` it reported. */
  #yielded: { order: number; count: number };
  /** Settled tasks not yet yielded, in the order they settled (unordered streams). */
  readonly #arrived: Task<P>[] = [];
  #wake: (() => void) | undefined;

  constructor(firstPage: P, source: PageSource<P>, options: PageStreamOptions) {
    this.#source = source;
    this.#options = options;
    this.#signal = options.signal
      ? AbortSignal.any([options.signal, this.#stopped.signal])
      : this.#stopped.signal;
    // One page at a time needs no slots: the page itself is the only request.
    this.#slots = options.readAhead > 1 ? new RequestSlots(options.concurrency, this.#signal) : undefined;
    // Each page's request listens to a signal of its own: dozens of pages under way would otherwise pile
    // their listeners (and Node's leak warning) on one signal.
    this.#signal.addEventListener('abort', () => {
      for (const task of this.#tasks.values()) task.stop.abort(this.#signal.reason);
    });
    this.#armTimer = options.armTimer ?? realTimer;
    this.#next = firstPage.pagination.page + 1;
    this.#head = this.#next;
    this.#last = this.#end(firstPage);
    this.#yielded = { order: 0, count: firstPage.pagination.count };
  }

  /** Every later page, in order. */
  async *inOrder(): AsyncGenerator<P, void, undefined> {
    for (;;) {
      this.#fill();
      const task = this.#tasks.get(this.#head);
      if (task === undefined) return;
      if (task.outcome === undefined) await this.#awaitHead(task);
      const page = this.#read(task);
      if (page !== undefined && this.#stale(task, page)) {
        this.#options.telemetry?.recordEvent(TELEMETRY.rereadEvent, {
          [TELEMETRY.page]: task.number,
          [TELEMETRY.previousCount]: this.#yielded.count,
          [TELEMETRY.count]: page.pagination.count,
        });
        this.#start(task.number);
        continue;
      }
      this.#tasks.delete(task.number);
      this.#head++;
      this.#headLate = false;
      if (page === undefined) return;
      this.#yielded = { order: task.order ?? 0, count: page.pagination.count };
      yield page;
    }
  }

  /**
   * Whether a page was read before the page yielded last and the list grew in between. Fetched out of
   * order (a late page read after the ones behind it), its items no longer meet the last one's: records
   * created at the head shifted them, and the edge would be lost. It is read again, and the de-duplication
   * drops what the fresh copy repeats.
   */
  #stale(task: Task<P>, page: P): boolean {
    const yielded = this.#yielded;
    return (task.order ?? 0) < yielded.order && page.pagination.count < yielded.count;
  }

  /** Every later page, each as soon as it arrives. */
  async *asTheyArrive(): AsyncGenerator<P, void, undefined> {
    for (;;) {
      this.#fill();
      if (this.#tasks.size === 0) return;
      let task = this.#arrived.shift();
      while (task === undefined) {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        task = this.#arrived.shift();
      }
      this.#tasks.delete(task.number);
      const page = this.#read(task);
      // An empty page or a 404 ends the list there; pages before it may still be under way.
      if (page === undefined) this.#last = Math.min(this.#last, task.number - 1);
      else yield page;
    }
  }

  /** Aborts every request under way. */
  stop(): void {
    this.#disarm?.();
    this.#stopped.abort();
  }

  /** The page a settled task brought, or `undefined` when it ends the list; rethrows other failures. */
  #read(task: Task<P>): P | undefined {
    const outcome = task.outcome as Outcome<P>;
    if ('error' in outcome) {
      if (outcome.error instanceof NotFoundError) return undefined;
      throw outcome.error;
    }
    return outcome.page.data.length === 0 ? undefined : outcome.page;
  }

  /** The most pages under way or held: a window of `concurrency`, or `readAhead` while the head is late. */
  #budget(): number {
    if (!this.#options.ordered) return this.#options.readAhead;
    const head = this.#tasks.get(this.#head);
    const late = this.#headLate || head?.failed === true;
    return late ? this.#options.readAhead : this.#options.concurrency;
  }

  #fill(): void {
    const budget = this.#budget();
    while (this.#tasks.size < budget && this.#next <= this.#last && !this.#stopped.signal.aborted) {
      this.#start(this.#next++);
    }
  }

  #start(number: number): void {
    const startedAt = performance.now();
    const onOutcome = (outcome: AttemptOutcome) => this.#attempted(task, outcome);
    const slots = this.#slots?.claim(number, onOutcome);
    const stop = new AbortController();
    if (this.#signal.aborted) stop.abort(this.#signal.reason);
    const settled = this.#source.fetchPage(number, stop.signal, slots).then(
      (page) => this.#settle(task, { page }),
      (error: unknown) => this.#settle(task, { error }),
    );
    const task: Task<P> = { number, startedAt, settled, failed: false, stop };
    this.#tasks.set(number, task);
  }

  #attempted(task: Task<P>, outcome: AttemptOutcome): void {
    if (outcome !== 'failed' || task.failed) return;
    task.failed = true;
    if (task.number !== this.#head) return;
    if (!this.#headLate) this.#extended('failed');
    this.#fill();
  }

  /** The head page is late or failing: an ordered stream's budget grows from `concurrency` to `readAhead`. */
  #extended(reason: 'late' | 'failed'): void {
    const { telemetry, ordered, readAhead, concurrency } = this.#options;
    if (telemetry === undefined || !ordered || readAhead <= concurrency) return;
    telemetry.recordEvent(TELEMETRY.readAheadEvent, {
      [TELEMETRY.page]: this.#head,
      [TELEMETRY.budget]: readAhead,
      [TELEMETRY.reason]: reason,
    });
  }

  #settle(task: Task<P>, outcome: Outcome<P>): void {
    // A page read again replaces its task; the first copy's late answer is not this stream's any more.
    if (this.#tasks.get(task.number) !== task) return;
    task.outcome = outcome;
    task.order = ++this.#settledCount;
    if ('page' in outcome) {
      const ms = performance.now() - task.startedAt;
      this.#usualMs = this.#usualMs === undefined ? ms : 0.8 * this.#usualMs + 0.2 * ms;
      // The newest page read sets the end (`total_pages` moves when records are added or deleted).
      this.#last = this.#end(outcome.page);
    }
    if (this.#options.ordered) return;
    this.#arrived.push(task);
    this.#wake?.();
    this.#wake = undefined;
  }

  /** The last page to fetch, as `page` tells it. */
  #end(page: P): number {
    return Math.min(page.pagination.total_pages, this.#options.lastPage ?? Number.POSITIVE_INFINITY);
  }

  /** Waits for the oldest page; once it is late, the free slots fetch further ahead meanwhile. */
  async #awaitHead(task: Task<P>): Promise<void> {
    if (this.#options.readAhead <= this.#options.concurrency) {
      await task.settled;
      return;
    }
    const lateAfter = Math.max(LATE_AFTER_MIN_MS, LATE_AFTER_FACTOR * (this.#usualMs ?? 0));
    const waited = performance.now() - task.startedAt;
    this.#disarm = this.#armTimer(Math.max(0, lateAfter - waited), () => {
      if (!task.failed) this.#extended('late');
      this.#headLate = true;
      this.#fill();
    });
    try {
      await task.settled;
    } finally {
      this.#disarm();
      this.#disarm = undefined;
    }
  }
}
