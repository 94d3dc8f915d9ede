// How a list is paged, in five parts (read them in this order):
//
// - This file is what a caller holds. `PagePromise` is the promise `list()` returns: awaited, it is the first
//   `Page` (items, `pagination`, `getNextPage()`); iterated (`for await`, `toArray`), it yields every item.
//   An ordered iteration drops repeats with a deduper (below); `ordered: false` yields pages as they come.
// - `page-stream.ts` fetches the pages after the first: one at a time by default, or with
//   `concurrency` requests in flight and up to `readAhead` pages held, always handing them over in page order
//   (or as they settle). It widens its read-ahead past a late oldest page, and reports `count` changes.
// - `list-pages.ts` sends each page: the list's request, checked once by its operation
//   (`resources/list-request.ts`), with the page's number, through the request core.
// - `request/request-slots.ts` is the iteration's pool of `concurrency` slots: each attempt of a page takes one
//   and gives it back as soon as its answer is in, so a page backing off before a retry holds none.
// - `page-dedupe.ts` drops an item already yielded when calls arriving during the iteration shift the
//   pages under it: by `created_at` and the ids at the boundary (ordered), or by the neighbouring page's ids.
//
// A sync (`sync/run.ts`) reuses the list's pages, the stream and the boundary deduper; `sync/scan.ts` explains how.

import type { Pagination } from '@company-data/contract';
import type { OperationMeta } from '@company-data/contract/runtime';
import { checkOptions } from '../core/checks/refusals.js';
import { OPTION_CHECKS } from '../core/checks/schemas.generated.js';
import { CompanyDataError } from '../core/errors.js';
import type { Logger } from '../core/logger-interface.js';
import {
  DEFAULT_LIST_CONCURRENCY,
  DEFAULT_ORDERED,
  defaultReadAhead,
  type ListOptions,
} from '../core/options.js';
import type { WithResponse } from '../core/response-info.js';
import { type Iteration, startIteration } from '../core/telemetry/iteration.js';
import { TELEMETRY } from '../core/telemetry/sink.js';
import { APIPromise } from '../request/api-promise.js';
import type { AnsweredCall } from '../request/call-request.js';
import type { AttemptSlots } from '../request/request-slots.js';
import { NeighbourPageDeduper, PageBoundaryDeduper } from './page-dedupe.js';
import { type PageSource, pageStream } from './page-stream.js';

/** A settled promise, to run a callback a turn later. */
const SETTLED: Promise<void> = Promise.resolve();

/** What page 1's own `catch` does with its failure: nothing (each consumer gets it). */
function ignore(): undefined {
  return undefined;
}

/** Fetches another page of the same list by number. */
type PageFetcher<Item> = (page: number, signal?: AbortSignal) => Promise<WithResponse<Page<Item>>>;

/**
 * The same page with some items left out (already yielded on an earlier page): a function of this module,
 * not a method, so that it stays out of the public `Page`, yet it reaches the private fetcher.
 */
let pageWithData: <Item>(page: Page<Item>, data: Item[]) => Page<Item>;

/**
 * One page of a list: its items, where it sits in the whole list, and the way to the next one.
 *
 * @typeParam Item - the list item type.
 * @example
 * ```ts
 * let page = await client.users.list({ page_size: 100 });
 * for (;;) {
 *   for (const user of page.data) console.log(user.email);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 */
export class Page<Item> {
  /** The items of this page. */
  readonly data: Item[];
  /** `count`, `page`, `page_size` and `total_pages`, as the server reported them for this page. */
  readonly pagination: Pagination;
  readonly #fetch: PageFetcher<Item>;

  /**
   * @param data - the items.
   * @param pagination - the server's pagination object.
   * @param fetch - fetches another page of the same list.
   * @internal
   */
  constructor(data: Item[], pagination: Pagination, fetch: PageFetcher<Item>) {
    this.data = data;
    this.pagination = pagination;
    this.#fetch = fetch;
  }

  /**
   * Whether a page follows this one.
   *
   * @returns `true` when `page < total_pages` and this page is not empty.
   */
  hasNextPage(): boolean {
    return this.data.length > 0 && this.pagination.page < this.pagination.total_pages;
  }

  /**
   * Fetches the page after this one.
   *
   * @returns the next page.
   * @throws {@link CompanyDataError} with code `'no_next_page'` after the last page, and the request's
   * errors otherwise.
   */
  async getNextPage(): Promise<Page<Item>> {
    if (!this.hasNextPage()) throw new CompanyDataError('no_next_page', 'This is the last page of the list.');
    return (await this.#fetch(this.pagination.page + 1)).data;
  }

  static {
    pageWithData = (page, data) => new Page(data, page.pagination, page.#fetch);
  }
}

/**
 * What every `list()` method returns. `await` it for the first page, or iterate it for every item of
 * every page:
 *
 * - `await list` gives the first {@link Page} (`data`, `pagination`, `hasNextPage()`, `getNextPage()`).
 * - `for await (const item of list)` yields every item, fetching pages as it goes; memory holds at most
 *   `readAhead` pages however long the list (one page by default).
 * - `.pages()` yields every page; `.toArray({ limit })` collects items.
 * - `.withResponse()` gives the first page with the response's status and headers; `.asResponse()` gives
 *   its raw response.
 *
 * The API paginates by offset, so the list can move under an iteration. What the iteration guarantees:
 * items come strictly in the list's order and none is yielded twice, even when records created at the
 * head of a descending list shift the pages (memory stays bounded: see the dedupe notes below); a change
 * of `count` is reported through `onCountChange` and a logged warning. What remains possible: when
 * records are deleted mid-iteration, pages shift the other way and some items are never seen; records
 * created after the iteration began are skipped in descending order (they sort before the items already
 * yielded) and yielded at the end in ascending order. Iterate again, or compare `count`, when that matters.
 *
 * @typeParam Item - the list item type.
 * @example
 * ```ts
 * const first = await client.calls.list({ source: 'voice_agent' });
 * console.log(first.pagination.count, 'calls');
 *
 * for await (const call of client.calls.list({ page_size: 100 }, { concurrency: 4 })) {
 *   console.log(call.id, call.summary);
 * }
 *
 * const latest = await client.users.list().toArray({ limit: 10 });
 * ```
 */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  readonly #source: ListSource<Item>;
  /** `toArray()` refused its options before page 1 went out: page 1 waits for a consumer. */
  #held = false;
  /** The iteration page 1 goes out in, when iteration began before it went out (it is then a page of the iteration). */
  readonly #firstIn: { parent?: Iteration | undefined };

  /**
   * @param source - how to send the first page and fetch the others, how to read them, and the list's options.
   * @internal
   */
  constructor(source: ListSource<Item>) {
    const firstIn: { parent?: Iteration | undefined } = {};
    super(
      () => {
        const first = source.first(firstIn.parent);
        // Iteration and `toArray({ limit: 0 })` may never await page 1 itself; its failure reaches every
        // consumer that does, but must not also surface as an unhandled rejection.
        first.catch(ignore);
        return first;
      },
      (answered) => source.parse(answered),
    );
    this.#source = source;
    this.#firstIn = firstIn;
    // Page 1 goes out at once, like any promise's work, but a turn later: `list().toArray({ limt: 5 })`
    // refuses its options first, and such a mistake then costs no request. A turn on a settled promise, not
    // queueMicrotask(), for which Node makes an AsyncResource per call.
    SETTLED.then(() => {
      if (!this.#held) this.sent();
    });
  }

  /**
   * Yields every page from the first on, with up to `concurrency` requests ahead, in order (or as pages
   * arrive, with `ordered: false`). Items already yielded on an earlier page (shifted by records created
   * mid-iteration) are left out of `data`.
   *
   * @returns an async iterator of pages.
   * @throws {@link CompanyDataError} (a subclass) when a request fails.
   * @example
   * ```ts
   * for await (const page of client.recordings.list({ page_size: 100 }).pages()) {
   *   console.log(`page ${page.pagination.page}/${page.pagination.total_pages}`);
   * }
   * ```
   */
  async *pages(): AsyncGenerator<Page<Item>, void, undefined> {
    const source = this.#source;
    const {
      concurrency = DEFAULT_LIST_CONCURRENCY,
      ordered = DEFAULT_ORDERED,
      lastPage,
      signal,
      onCountChange,
    } = source.options;
    const readAhead = source.options.readAhead ?? defaultReadAhead(concurrency);
    const dedupe = ordered ? new PageBoundaryDeduper(source.ordering) : new NeighbourPageDeduper();
    const iteration = startIteration('walk', source.operation, { concurrency, readAhead, ordered });
    const { telemetry } = iteration;
    // Page 1 not sent yet (the usual case: the list is iterated as it is made) goes out as a page of the iteration.
    this.#firstIn.parent = iteration;
    const first = this.withResponse().then(({ data }) => data);
    this.#firstIn.parent = undefined;
    let count: number | undefined;
    let pages = 0;
    let failure: unknown;
    let complete = false;
    const later = new IteratedPages(source, iteration);
    const stream = pageStream(first, later, { concurrency, readAhead, ordered, lastPage, signal, telemetry });
    try {
      for await (const page of stream) {
        const current = page.pagination.count;
        if (count !== undefined && current !== count) {
          const event = { previous: count, current, page: page.pagination.page };
          source.logger.warn(
            `company-data list count changed from ${count} to ${current} during iteration (page ${event.page}); items may be missed`,
            event,
          );
          telemetry?.recordEvent(TELEMETRY.countChangeEvent, {
            [TELEMETRY.previousCount]: count,
            [TELEMETRY.count]: current,
            [TELEMETRY.page]: event.page,
          });
          onCountChange?.(event);
        }
        count = current;
        pages++;
        const data = dedupe.keep(page.pagination.page, page.data);
        yield data.length === page.data.length ? page : pageWithData(page, data);
      }
      complete = true;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // Left early (a `break`, `toArray`'s limit): the iteration is `stopped`, not failed.
      iteration.end(failure, complete, pages);
    }
  }

  /**
   * Yields every item of every page, in order.
   *
   * @returns an async iterator of items.
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * Collects items into an array, stopping as soon as `limit` are collected.
   *
   * @param options - `limit`: the most items to collect; without it the whole list is loaded into memory.
   * @returns the items, in order.
   * @throws {@link ConfigurationError} for an unknown option or a `limit` that is not a whole number of at
   * least 0 (a misspelt `limt` would otherwise load the whole list); {@link CompanyDataError} (a subclass)
   * when a request fails.
   * @example
   * ```ts
   * const newest = await client.calls.list({ page_size: 100 }).toArray({ limit: 250 });
   * ```
   */
  async toArray(options: { limit?: number } = {}): Promise<Item[]> {
    try {
      checkOptions(OPTION_CHECKS.toArray, options, 'toArray()');
    } catch (error) {
      this.#held = true;
      throw error;
    }
    const { limit = Number.POSITIVE_INFINITY } = options;
    const items: Item[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }

  /** `'PagePromise'`, for `Object.prototype.toString`. */
  override get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}

/** The pages of a list after the first, as its iteration's stream fetches them: each a page of the iteration. */
class IteratedPages<Item> implements PageSource<Page<Item>> {
  readonly #source: ListSource<Item>;
  readonly #iteration: Iteration;

  constructor(source: ListSource<Item>, iteration: Iteration) {
    this.#source = source;
    this.#iteration = iteration;
  }

  async fetchPage(page: number, signal: AbortSignal, slots: AttemptSlots | undefined): Promise<Page<Item>> {
    return (await this.#source.fetch(page, signal, slots, this.#iteration)).data;
  }
}

/**
 * What a {@link PagePromise} is made of.
 *
 * @typeParam Item - the list item type.
 * @internal
 */
export interface ListSource<Item> {
  /**
   * Sends the first page's request (a list refused before sending rejects): a page of `parent` when given,
   * else a call of its own.
   */
  first(parent?: Iteration): Promise<AnsweredCall>;
  /** Reads a page out of its response (at once when it needs no wait). */
  parse(answered: AnsweredCall): WithResponse<Page<Item>> | Promise<WithResponse<Page<Item>>>;
  /** Fetches another page by number, its attempts sharing the list's request slots when given. */
  fetch(
    page: number,
    signal: AbortSignal | undefined,
    slots?: AttemptSlots,
    parent?: Iteration,
  ): Promise<WithResponse<Page<Item>>>;
  /** The list's ordering, to know which way the pages run. */
  ordering: string;
  /** The list options, already checked. */
  options: ListOptions;
  /** Where the count-change warning goes. */
  logger: Logger;
  /** The list's operation (its telemetry's spans and its tracing channels' contexts name it). */
  operation: Pick<OperationMeta, 'operationId' | 'method' | 'path'>;
}

/**
 * Fetches another page of the list by number, its attempts sharing the list's request slots (see
 * `request/request-slots.ts`).
 *
 * @internal
 */
export type ListPageFetch<Item> = (
  page: number,
  signal: AbortSignal | undefined,
  slots?: AttemptSlots,
  parent?: Iteration,
) => Promise<WithResponse<Page<Item>>>;
