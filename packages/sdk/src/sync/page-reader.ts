import type { Pagination } from '@company-data/contract';
import type { CallTelemetry } from '../core/telemetry/sink.js';
import { type PageSource, pageStream } from '../pagination/page-stream.js';
import type { AttemptSlots } from '../request/request-slots.js';

/** One page of a list, as a sync scan reads it. */
export interface SyncPage<Item> {
  data: Item[];
  pagination: Pagination;
}

/** Fetches one page of the list by number (its attempts sharing the read-ahead's request slots, if any). */
export type FetchSyncPage<Item> = (
  page: number,
  signal: AbortSignal | undefined,
  slots?: AttemptSlots,
) => Promise<SyncPage<Item>>;

/** How a sync scan fetches pages. */
export interface SyncPageOptions {
  /** Requests in flight at once; above 1, pages are fetched ahead (in order) until {@link SyncPageReader.oneAtATime}. */
  concurrency: number;
  /** The most pages fetched ahead, under way or held. */
  readAhead: number;
  /** The caller's signal: aborts every request. */
  signal?: AbortSignal | undefined;
  /** The sync's telemetry: the read-ahead's events go there. */
  telemetry?: CallTelemetry | undefined;
}

/**
 * The pages a sync scan asks for, by number: fetched ahead through the list's page stream (ordered
 * read-ahead, a late page read again when records created meanwhile made it stale) while the scan goes
 * straight on, or one at a time. Asking for any page but the next of the stream (a step back) stops the
 * read-ahead; {@link oneAtATime} stops it for good.
 */
export class SyncPageReader<Item> implements PageSource<SyncPage<Item>> {
  readonly #fetch: FetchSyncPage<Item>;
  readonly #options: SyncPageOptions;
  #stream: AsyncGenerator<SyncPage<Item>, void, undefined> | undefined;
  /** The page the stream yields next. */
  #streamNext = 0;
  #readAhead: boolean;

  constructor(fetch: FetchSyncPage<Item>, options: SyncPageOptions) {
    this.#fetch = fetch;
    this.#options = options;
    this.#readAhead = options.concurrency > 1;
  }

  /**
   * Page `page` of the list.
   *
   * @param page - its number.
   * @returns the page as the server answered it.
   */
  async read(page: number): Promise<SyncPage<Item>> {
    if (this.#stream !== undefined && page !== this.#streamNext) await this.#stop();
    if (this.#stream === undefined && this.#readAhead) {
      const { concurrency, readAhead, signal, telemetry } = this.#options;
      const first = this.#fetch(page, signal);
      const options = { concurrency, readAhead, ordered: true, signal, telemetry };
      this.#stream = pageStream(first, this, options);
      this.#streamNext = page;
    }
    if (this.#stream !== undefined) {
      const step = await this.#stream.next();
      if (!step.done && step.value.pagination.page === page) {
        this.#streamNext = page + 1;
        return step.value;
      }
      // The stream ended (an empty page, or a 404 past a shrunken end): read the page itself.
      await this.#stop();
    }
    return this.#fetch(page, this.#options.signal);
  }

  /**
   * A page the read-ahead fetches: through the sync's fetch, its attempts sharing the stream's request slots.
   *
   * @param page - its number.
   * @param signal - the stream's signal for it.
   * @param slots - the stream's request slots.
   */
  fetchPage(page: number, signal: AbortSignal, slots: AttemptSlots | undefined): Promise<SyncPage<Item>> {
    return this.#fetch(page, signal, slots);
  }

  /** From here on, one page at a time: records were deleted, and pages read out of order could skip one. */
  async oneAtATime(): Promise<void> {
    this.#readAhead = false;
    await this.#stop();
  }

  /** Stops the requests under way. */
  async close(): Promise<void> {
    await this.#stop();
  }

  async #stop(): Promise<void> {
    const stream = this.#stream;
    this.#stream = undefined;
    await stream?.return();
  }
}
