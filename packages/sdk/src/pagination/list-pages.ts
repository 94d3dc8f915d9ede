// A list's pages, as its PagePromise sends and reads them: the parameters and options checked once, then
// each page's request (the caller's parameters, the `query` extras, the page number) sent through the core.

import type { Pagination } from '@company-data/contract';
import { DEFAULT_ORDERING, type OperationMeta, QUERY_CHECKS } from '@company-data/contract/runtime';
import type { z } from 'zod';
import { belongsIn, checkListBudgets, refuseKnown } from '../core/checks/argument-rules.js';
import { checkOptions, parseInput } from '../core/checks/refusals.js';
import { OPTION_CHECKS } from '../core/checks/schemas.generated.js';
import { endpointWithSchemas } from '../core/checks/zod-on-demand.js';
import type { Logger } from '../core/logger-interface.js';
import { methodName } from '../core/methods.js';
import type { ListOptions } from '../core/options.js';
import type { WithResponse } from '../core/response-info.js';
import { endedWith, requestAttributes, serverAttributes, spanName } from '../core/telemetry/call-spans.js';
import type { Iteration } from '../core/telemetry/iteration.js';
import { type CallTelemetry, telemetrySink } from '../core/telemetry/sink.js';
import { subscribed, type TracingChannelLike, traced } from '../core/telemetry/traced-work.js';
import type { CallContext, PageContext } from '../core/telemetry/tracing-channels.js';
import { callContext } from '../core/telemetry/tracing-contexts.js';
import { joinQueries, queryString } from '../request/query-string.js';
import type { AnsweredCall, CallRequest, RequestCore } from '../request/request-core.js';
import type { AttemptSlots } from '../request/request-slots.js';
import { type ListPageFetch, type ListSource, Page } from './page-promise.js';

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
  readonly #request: PageRequest;
  /** The page the list starts at. */
  readonly #start: number;
  /** {@link fetch} as a function, for the pages that keep it (`getNextPage()`): made with the first page read. */
  #fetchPage: ListPageFetch<Item> | undefined;

  constructor(
    core: RequestCore,
    operation: OperationMeta,
    given: Record<string, unknown>,
    options: ListOptions,
  ) {
    this.#core = core;
    // A value that is no set of options is refused below (the first page rejects); the pages read none.
    this.options = typeof options === 'object' && options !== null ? options : {};
    this.logger = core.logger;
    this.operation = operation;
    this.ordering = typeof given.ordering === 'string' ? given.ordering : DEFAULT_ORDERING;
    this.#start = typeof given.page === 'number' ? given.page : 1;
    let request: PageRequest;
    try {
      request = pageRequest(core, operation, given, options);
    } catch (error) {
      // Refused before sending: the first page, and so every use of the list, fails with this error.
      request = () => Promise.reject(error);
    }
    this.#request = request;
  }

  first(parent?: Iteration): Promise<AnsweredCall> {
    return this.#request(this.#start, this.options.signal, undefined, parent);
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
    return this.parse(await this.#request(page, signal, slots, parent));
  }

  #page({ data, response }: WithResponse<unknown>): WithResponse<Page<Item>> {
    const body = data as { data: Item[]; pagination: Pagination };
    this.#fetchPage ??= fetcherOf(this);
    return { data: new Page(body.data, body.pagination, this.#fetchPage), response };
  }
}

/**
 * A list's `fetch` as a function of its own, for its pages' `getNextPage()`: an arrow made here, where the
 * build's keepNames leaves it unnamed (bind() would name it, each time).
 */
function fetcherOf<Item>(pages: ListPages<Item>): ListPageFetch<Item> {
  return (page, signal, slots, parent) => pages.fetch(page, signal, slots, parent);
}

/**
 * Sends the request of one page of a list, its attempts sharing the list's request slots when given: a
 * page of the iteration or sync `parent` when given (its span a child of theirs, its events on the `page`
 * channel, in the store of theirs), else a call of its own.
 */
export type PageRequest = (
  page: number,
  signal: AbortSignal | undefined,
  slots?: AttemptSlots | undefined,
  parent?: Iteration | undefined,
) => Promise<AnsweredCall>;

/**
 * Checks a list's parameters and options, and builds the request of its pages.
 *
 * @throws ValidationError (ConfigurationError for options) when they are refused; a refusal of the
 * parameters, described by zod once loaded, rejects the first page instead.
 */
export function pageRequest(
  core: RequestCore,
  operation: OperationMeta,
  given: Record<string, unknown>,
  options: ListOptions,
  method = methodName(operation),
): PageRequest {
  checkOptions(OPTION_CHECKS.list, options, method, () =>
    belongsIn(operation.queryNames, 'a parameter', 'the first argument'),
  );
  checkListBudgets(options, given, method);
  // The compiled check of the strict query schema refuses unknown names too.
  if (QUERY_CHECKS[operation.operationId]?.(given)) return pagesOf(core, operation, given, options, method);
  const checked = (async () => {
    const { query } = await endpointWithSchemas(operation.operationId);
    await parseInput(query as z.ZodObject, given, {
      noun: 'parameter',
      of: method,
      elsewhere: belongsIn(OPTION_CHECKS.list.names, 'an option', 'the second argument'),
      escapeHatch:
        'To send a parameter the SDK does not know yet, pass it in the `query` option: list(params, { query: { name: value } }).',
    });
    return pagesOf(core, operation, given, options, method);
  })();
  return async (page, signal, slots, parent) => (await checked)(page, signal, slots, parent);
}

/**
 * The request of each page of a checked list: only what the caller gave goes on the wire (the server
 * applies its own defaults), then the `query` extras, then the page.
 */
function pagesOf(
  core: RequestCore,
  operation: OperationMeta,
  given: Record<string, unknown>,
  options: ListOptions,
  method: string,
): PageRequest {
  const extras = refuseKnown(options.query, operation.queryNames, 'query', method);
  const fixedQuery = joinQueries(queryString(given, 'page'), queryString(extras));
  const base = `${core.base(operation)}${operation.path}?${fixedQuery === '' ? '' : `${fixedQuery}&`}`;
  return (page, signal, slots, parent) => {
    const url = `${base}page=${page}`;
    const sendOptions = signal === undefined || signal === options.signal ? options : { ...options, signal };
    const telemetry =
      parent === undefined
        ? telemetrySink()?.start(spanName(operation), 'call', requestAttributes(operation, page))
        : parent.telemetry?.child(`${spanName(operation)} page`, 'page', requestAttributes(operation, page));
    telemetry?.setAttributes(serverAttributes(url));
    const call: CallRequest = { endpoint: operation, url, shownUrl: url, page };
    const channel = subscribed(parent === undefined ? 'call' : 'page');
    const sent =
      channel === undefined && parent?.traced !== true
        ? core.send(call, sendOptions, slots, telemetry)
        : sendTraced(core, call, { options: sendOptions, slots, telemetry, channel, parent });
    return endedWith(telemetry, sent);
  };
}

/** How a page's request is sent when it is traced: its options, slots, span, channel and iteration. */
interface TracedPage {
  readonly options: ListOptions;
  readonly slots: AttemptSlots | undefined;
  readonly telemetry: CallTelemetry | undefined;
  /** The `call` channel (a page read alone) or the `page` channel, when something listens to it. */
  readonly channel: TracingChannelLike | undefined;
  readonly parent: Iteration | undefined;
}

/** Sends a page read as a call, or a page of an iteration in the iteration's store, its events on `channel`. */
function sendTraced(core: RequestCore, call: CallRequest, page: TracedPage): Promise<AnsweredCall> {
  const { parent } = page;
  return parent === undefined ? sendPage(core, call, page) : parent.run(() => sendPage(core, call, page));
}

/** Sends a page, published on its channel when something listens to it. */
function sendPage(core: RequestCore, call: CallRequest, page: TracedPage): Promise<AnsweredCall> {
  const { options, slots, telemetry, channel } = page;
  if (channel === undefined) return core.send(call, options, slots, telemetry);
  const number = call.page as number;
  const context = callContext(call.endpoint, number);
  return traced<CallContext | PageContext, AnsweredCall>(channel, context, (settable) =>
    core.send(call, options, slots, telemetry, settable),
  );
}
