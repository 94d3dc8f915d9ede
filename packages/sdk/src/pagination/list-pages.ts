// A list's pages, as its PagePromise sends and reads them: each page's call made from the list's request
// (checked once by its operation, `resources/operations.ts`) and its number, and sent through the core.

import type { Pagination } from '@company-data/contract';
import { DEFAULT_ORDERING, type OperationMeta } from '@company-data/contract/runtime';
import type { Logger } from '../core/logger-interface.js';
import type { ListOptions } from '../core/options.js';
import type { WithResponse } from '../core/response-info.js';
import type { Iteration } from '../core/telemetry/iteration.js';
import type { AnsweredCall } from '../request/call-request.js';
import type { RequestCore } from '../request/request-core.js';
import type { AttemptSlots } from '../request/request-slots.js';
import { type ListPageFetch, type ListSource, Page } from './page-promise.js';

/**
 * A list as each of its pages is sent: its operation, the URL of its pages up to their number, and its
 * options. Its operation makes it once, its parameters and options checked (`resources/operations.ts`).
 */
export interface ListRequest {
  readonly operation: OperationMeta;
  /**
   * A page's URL without its number: the base, the path, the caller's parameters and the `query` extras,
   * then `page=`. Only what the caller gave goes on the wire: the server applies its own defaults.
   */
  readonly pageUrl: string;
  /** The list's options, checked. */
  readonly options: ListOptions;
}

/**
 * How a list's pages are sent and read: the source of its {@link PagePromise}. Its parts are methods, not
 * closures made for each list, and an awaited list stops here: the page stream and its request slots come
 * only with an iteration.
 */
export class ListPages<Item> implements ListSource<Item> {
  readonly ordering: string;
  readonly options: ListOptions;
  readonly logger: Logger;
  readonly operation: OperationMeta;
  readonly #core: RequestCore;
  /** The list's request, or its check under way (zod describing a refusal); one that rejects refuses the list. */
  readonly #request: ListRequest | Promise<ListRequest>;
  /** The page the list starts at. */
  readonly #start: number;
  /** {@link fetch} as a function, for the pages that keep it (`getNextPage()`): made with the first page read. */
  #fetchPage: ListPageFetch<Item> | undefined;

  /**
   * @param core - sends each page.
   * @param given - the caller's parameters: where the list starts, and its ordering.
   * @param options - the caller's options.
   * @param request - the list's request; a refusal of the parameters or options rejects it, and then the
   * first page, and so every use of the list, fails with it.
   */
  constructor(
    core: RequestCore,
    operation: OperationMeta,
    given: Record<string, unknown>,
    options: ListOptions,
    request: ListRequest | Promise<ListRequest>,
  ) {
    this.#core = core;
    // A value that is no set of options is refused by the list's check (the first page rejects); the pages read none.
    this.options = typeof options === 'object' && options !== null ? options : {};
    this.logger = core.logger;
    this.operation = operation;
    this.ordering = typeof given.ordering === 'string' ? given.ordering : DEFAULT_ORDERING;
    this.#start = typeof given.page === 'number' ? given.page : 1;
    this.#request = request;
  }

  first(parent?: Iteration): Promise<AnsweredCall> {
    return this.send(this.#start, this.options.signal, undefined, parent);
  }

  /**
   * Sends page `page` (once the list's check is done), its attempts sharing the list's request slots when
   * given: a page of `parent` when given, else a call of its own.
   */
  send(
    page: number,
    signal: AbortSignal | undefined,
    slots?: AttemptSlots,
    parent?: Iteration,
  ): Promise<AnsweredCall> {
    const request = this.#request;
    if (!(request instanceof Promise)) return sendPage(this.#core, request, page, signal, slots, parent);
    return request.then((checked) => sendPage(this.#core, checked, page, signal, slots, parent));
  }

  parse(answered: AnsweredCall): WithResponse<Page<Item>> | Promise<WithResponse<Page<Item>>> {
    const read = this.#core.parse(answered);
    return read instanceof Promise ? read.then((result) => this.#page(result)) : this.#page(read);
  }

  async fetch(
    page: number,
    signal: AbortSignal | undefined,
    slots?: AttemptSlots,
    parent?: Iteration,
  ): Promise<WithResponse<Page<Item>>> {
    return this.parse(await this.send(page, signal, slots, parent));
  }

  #page({ data, response }: WithResponse<unknown>): WithResponse<Page<Item>> {
    const body = data as { data: Item[]; pagination: Pagination };
    this.#fetchPage ??= fetcherOf(this);
    return { data: new Page(body.data, body.pagination, this.#fetchPage), response };
  }
}

/**
 * Sends page `page` of a list through the core: a page of `parent` when given (its span a child of theirs,
 * its events on the `page` channel), else a call of its own.
 *
 * @param signal - the page's signal (a page of a stream has its own); the list's when it is the same.
 */
function sendPage(
  core: RequestCore,
  list: ListRequest,
  page: number,
  signal: AbortSignal | undefined,
  slots: AttemptSlots | undefined,
  parent: Iteration | undefined,
): Promise<AnsweredCall> {
  const { operation, options } = list;
  const url = `${list.pageUrl}${page}`;
  const sent = signal === undefined || signal === options.signal ? options : { ...options, signal };
  return core.send(operation, { endpoint: operation, url, shownUrl: url, page }, sent, slots, parent);
}

/**
 * A list's `fetch` as a function of its own, for its pages' `getNextPage()`: an arrow made here, where the
 * build's keepNames leaves it unnamed (bind() would name it, each time).
 */
function fetcherOf<Item>(pages: ListPages<Item>): ListPageFetch<Item> {
  return (page, signal, slots, parent) => pages.fetch(page, signal, slots, parent);
}
