import type { EndpointDefinition, Endpoints, Pagination } from '@company-data/contract';
import {
  DEFAULT_ORDERING,
  fillPath,
  LIST_LIMITS,
  OPERATIONS,
  type OperationId,
  type OperationMeta,
  PATH_CHECKS,
  QUERY_CHECKS,
} from '@company-data/contract/runtime';
import type { z } from 'zod';
import { checkOptions, parseInput } from '../checks/input-check.js';
import { endpointWithSchemas } from '../checks/lazy-contract.js';
import { OPTION_CHECKS, OPTION_HINTS } from '../checks/option-checks.generated.js';
import { belongsIn, checkListBudgets, refuseKnown } from '../checks/option-rules.js';
import { ValidationError } from '../core/errors.js';
import type { Logger } from '../core/logger-interface.js';
import { methodName, SDK_METHODS } from '../core/methods.js';
import type { ListOptions, RequestOptions, WebhookOptions } from '../core/options.js';
import type { WithResponse } from '../core/response-info.js';
import type { SyncOptions, SyncRequestOptions } from '../core/sync-changes.js';
import {
  defaultReadAhead,
  type ListPageFetch,
  type ListSource,
  Page,
  PagePromise,
} from '../pagination/pagination.js';
import { APIPromise } from '../request/api-promise.js';
import type { Exchange, PreparedCall, RequestCore } from '../request/request-core.js';
import type { AttemptSlots } from '../request/request-slots.js';
import { decodeCheckpoint, emptyState, encodeCheckpoint } from '../sync/sync-checkpoint.js';
import type { FetchWalkPage, WalkPage } from '../sync/sync-pages.js';
import { SyncRun } from '../sync/sync-run.js';
import { SyncWalk } from '../sync/sync-walk.js';
import { endedWith, requestAttributes, serverAttributes, spanName } from '../telemetry/call-telemetry.js';
import { type CallTelemetry, TELEMETRY, telemetrySink } from '../telemetry/telemetry.js';
import { resolveWebhookUrl } from './webhook-target.js';

// Each operation is sent from its schema-free row of the endpoint table (`OPERATIONS`); the row with its
// zod schemas only types it here, and is loaded only when the compiled checks refuse something (to say
// why) and for a webhook body (to parse it).

/** A list row of the endpoint table. */
export type ListEndpoint = EndpointDefinition & { kind: 'list'; query: z.ZodObject };
/** A webhook row of the endpoint table. */
export type WebhookEndpoint = EndpointDefinition & { kind: 'webhook'; body: z.ZodObject };

/** The operations whose row is of one kind, e.g. `'list'`. */
export type OperationIdOf<Kind extends EndpointDefinition['kind']> = {
  [Id in OperationId]: Endpoints[Id] extends { kind: Kind } ? Id : never;
}[OperationId];

/** The item type of a list endpoint. */
export type ItemOf<Endpoint extends EndpointDefinition> =
  z.output<Endpoint['response']> extends { data: Array<infer Item> } ? Item : never;
/** The record type of a retrieve endpoint. */
export type RecordOf<Endpoint extends EndpointDefinition> =
  z.output<Endpoint['response']> extends { data: infer Data } ? Data : never;

/**
 * A list method, read off the endpoint table: checks the parameters and options (nothing is sent when
 * they fail), then returns a {@link PagePromise} whose pages are fetched through the core.
 *
 * @typeParam Id - the operation: its row of the endpoint table types the method.
 */
export function listOperation<Id extends OperationIdOf<'list'>>(
  core: RequestCore,
  id: Id,
  params: z.input<(Endpoints[Id] & ListEndpoint)['query']> | undefined,
  options: ListOptions = {},
): PagePromise<ItemOf<Endpoints[Id]>> {
  const operation: OperationMeta = OPERATIONS[id];
  const given = (params ?? {}) as Record<string, unknown>;
  return new PagePromise(new ListPages<ItemOf<Endpoints[Id]>>(core, operation, given, options));
}

/**
 * How a list's pages are sent and read: the source of its {@link PagePromise}. Its parts are methods, not
 * closures made for each list, and an awaited list stops here: the page stream and its request slots come
 * only with an iteration.
 */
class ListPages<Item> implements ListSource<Item> {
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

  first(walk?: CallTelemetry): Promise<Exchange> {
    return this.#request(this.#start, this.options.signal, undefined, walk);
  }

  parse(exchange: Exchange): WithResponse<Page<Item>> | Promise<WithResponse<Page<Item>>> {
    const read = this.#core.parse(exchange);
    return read instanceof Promise ? read.then((result) => this.#page(result)) : this.#page(read);
  }

  async fetch(
    page: number,
    signal: AbortSignal | undefined,
    slots?: AttemptSlots,
    walk?: CallTelemetry,
  ): Promise<WithResponse<Page<Item>>> {
    return this.parse(await this.#request(page, signal, slots, walk));
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
  return (page, signal, slots, walk) => pages.fetch(page, signal, slots, walk);
}

/**
 * A sync method, read off the endpoint table of its list: a {@link SyncRun} whose walk reads the list
 * newest first from the checkpoint given (see `sync/sync-walk.ts`). Its input is checked when the run
 * is iterated: a refusal rejects the first step, nothing sent.
 *
 * @typeParam Id - the list operation: its row of the endpoint table types the method.
 */
export function syncOperation<Id extends OperationIdOf<'list'>>(
  core: RequestCore,
  id: Id,
  options: SyncOptions<z.input<(Endpoints[Id] & ListEndpoint)['query']>> = {},
  requestOptions: SyncRequestOptions = {},
): SyncRun<ItemOf<Endpoints[Id]>> {
  type Item = ItemOf<Endpoints[Id]>;
  const operation: OperationMeta = OPERATIONS[id];
  const method = methodName(operation, 'sync');
  const [list] = SDK_METHODS[operation.operationId];
  // Read defensively: a value that is no object is refused below, on iteration, like any other mistake.
  const input: { checkpoint?: unknown; lookBack?: unknown; params?: unknown } =
    typeof options === 'object' && options !== null ? options : {};
  const given = input.params;
  const filters = syncFilters(given);
  let state = emptyState(list, filters);
  let refusal: unknown;
  try {
    checkOptions(OPTION_CHECKS.sync, options, method);
    checkOptions(OPTION_CHECKS.syncRequest, requestOptions, method);
    checkListBudgets(requestOptions, {}, method);
    if (typeof input.checkpoint === 'string')
      state = decodeCheckpoint(input.checkpoint, list, filters, method);
  } catch (error) {
    refusal = error;
  }
  const walk = () => {
    if (refusal !== undefined) throw refusal;
    const params = { ...(given as Record<string, unknown>) };
    for (const name of SYNC_OWN_PARAMETERS) {
      if (name in params) {
        const message = `${method} reads the list newest first from page 1 and sets \`${name}\` itself: leave it out of \`params\`.`;
        throw new ValidationError(message, [{ code: 'custom', message, path: ['params', name] }]);
      }
    }
    const pageSize = typeof params.page_size === 'number' ? params.page_size : LIST_LIMITS.maxPageSize;
    const query = { ...params, ordering: DEFAULT_ORDERING, page_size: pageSize };
    let request: PageRequest;
    try {
      request = pageRequest(core, operation, query, requestOptions, method);
    } catch (error) {
      request = () => Promise.reject(error);
    }
    const { concurrency = 1, signal } = requestOptions;
    const readAhead = requestOptions.readAhead ?? defaultReadAhead(concurrency);
    const telemetry = telemetrySink()?.start(spanName(operation, 'sync'), 'sync', {
      [TELEMETRY.operation]: operation.operationId,
      [TELEMETRY.concurrency]: concurrency,
      [TELEMETRY.readAhead]: readAhead,
    });
    const fetch: FetchWalkPage<Item> = async (page, signal, slots) => {
      const { data } = await core.parse(await request(page, signal, slots, telemetry));
      return data as WalkPage<Item>;
    };
    const lookBack = typeof input.lookBack === 'number' ? input.lookBack : 0;
    const source = { fetch, pageSize, lookBack, concurrency, readAhead, signal, telemetry };
    return new SyncWalk<Item>(state, source);
  };
  const initial = typeof input.checkpoint === 'string' ? input.checkpoint : encodeCheckpoint(state);
  return new SyncRun<Item>({ initial, walk, method });
}

/** The parameters a sync sets itself. */
const SYNC_OWN_PARAMETERS = ['page', 'ordering'] as const;

/** The filters of a sync's parameters, as its checkpoint keeps them: all but `page_size`, none undefined. */
function syncFilters(params: unknown): Record<string, string | number | boolean> {
  const filters: Record<string, string | number | boolean> = {};
  if (typeof params !== 'object' || params === null) return filters;
  for (const [name, value] of Object.entries(params)) {
    if (name === 'page_size' || value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      filters[name] = value;
  }
  return filters;
}

/**
 * Sends the request of one page of a list, its attempts sharing the list's request slots when given: a
 * page of the walk or sync `parent` when given (its span a child of theirs), else a call of its own.
 */
type PageRequest = (
  page: number,
  signal: AbortSignal | undefined,
  slots?: AttemptSlots | undefined,
  parent?: CallTelemetry | undefined,
) => Promise<Exchange>;

/**
 * Checks a list's parameters and options, and builds the request of its pages.
 *
 * @throws ValidationError (ConfigurationError for options) when they are refused; a refusal of the
 * parameters, described by zod once loaded, rejects the first page instead.
 */
function pageRequest(
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
        : parent.child(`${spanName(operation)} page`, 'page', requestAttributes(operation, page));
    telemetry?.setAttributes(serverAttributes(url));
    return endedWith(
      telemetry,
      core.send({ endpoint: operation, url, shownUrl: url }, sendOptions, slots, telemetry),
    );
  };
}

/** Names and values that form encoding leaves as they are (`URLSearchParams` writes them unchanged). */
const FORM_SAFE = /^[\w.*-]*$/;

/**
 * A query string of the given values (those not `undefined`, and not `skip`), in order: `a=1&b=2`, or `''`.
 * Written as `URLSearchParams` writes it; joined by hand when nothing needs encoding, the usual case.
 */
function queryString(values: Record<string, unknown> | undefined, skip?: string): string {
  let query = '';
  for (const name in values) {
    const value = values[name];
    if (value === undefined || name === skip || !Object.hasOwn(values, name)) continue;
    const text = String(value);
    if (!FORM_SAFE.test(name) || !FORM_SAFE.test(text)) return encodedQueryString(values, skip);
    query = joinQueries(query, `${name}=${text}`);
  }
  return query;
}

function encodedQueryString(values: Record<string, unknown>, skip: string | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && name !== skip) search.set(name, String(value));
  return search.toString();
}

function joinQueries(first: string, second: string): string {
  if (first === '') return second;
  return second === '' ? first : `${first}&${second}`;
}

/**
 * A retrieve method, read off the endpoint table: checks the id and options, fetches, unwraps `data`.
 *
 * @typeParam Id - the operation: its row of the endpoint table types the method.
 */
export function retrieveOperation<Id extends OperationIdOf<'retrieve'>>(
  core: RequestCore,
  operationId: Id,
  id: string,
  options: RequestOptions = {},
): APIPromise<RecordOf<Endpoints[Id]>> {
  const operation: OperationMeta = OPERATIONS[operationId];
  return start(
    core,
    operation,
    () => retrieveCall(core, operation, id, options),
    options,
    recordOf as (data: unknown) => RecordOf<Endpoints[Id]>,
  );
}

/**
 * The call of a retrieve method, its id and options checked. When the compiled check refuses the id, zod
 * (loaded for it) says why: only then is the call a promise.
 */
function retrieveCall(
  core: RequestCore,
  operation: OperationMeta,
  id: string,
  options: RequestOptions,
): PreparedCall | Promise<PreparedCall> {
  const method = methodName(operation);
  checkOptions(OPTION_CHECKS.request, options, method);
  const params = { id };
  if (PATH_CHECKS[operation.operationId]?.(params)) return addressed(core, operation, params, options);
  return (async () => {
    const { pathParams } = await endpointWithSchemas(operation.operationId);
    await parseInput(pathParams, params, { noun: 'parameter', of: method });
    return addressed(core, operation, params, options);
  })();
}

/** A call to an operation's path, filled, with the `query` extras of its options. */
function addressed(
  core: RequestCore,
  operation: OperationMeta,
  params: Record<string, string>,
  options: RequestOptions,
): PreparedCall {
  const query = queryString(options.query);
  const url = `${core.base(operation)}${fillPath(operation.path, params)}`;
  const withQuery = query === '' ? url : `${url}?${query}`;
  return { endpoint: operation, url: withQuery, shownUrl: withQuery };
}

/** A retrieve's result: the record its response wraps in `data`. */
function recordOf(body: unknown): unknown {
  return (body as { data: unknown }).data;
}

/**
 * A webhook method, read off the endpoint table: resolves the token or URL, checks the options and the
 * body with the contract's schema (an undeclared field is refused), posts it.
 *
 * @typeParam Id - the operation: its row of the endpoint table types the method.
 */
export function webhookOperation<Id extends OperationIdOf<'webhook'>>(
  core: RequestCore,
  id: Id,
  tokenOrUrl: string,
  input: z.input<(Endpoints[Id] & WebhookEndpoint)['body']>,
  options: WebhookOptions = {},
): APIPromise<z.output<Endpoints[Id]['response']>> {
  type Endpoint = Endpoints[Id];
  const operation: OperationMeta = OPERATIONS[id];
  return start(
    core,
    operation,
    async () => {
      const method = methodName(operation);
      const fields = operation.bodyNames;
      checkOptions(OPTION_CHECKS.webhook, options, method, () => ({
        ...belongsIn(fields, 'a body field', 'the second argument'),
        ...OPTION_HINTS.webhook,
      }));
      const target = resolveWebhookUrl(operation, tokenOrUrl, () => core.base(operation));
      // The body is parsed, not only checked: zod's output (trimmed phone numbers) is what is sent.
      const { body: schema } = await endpointWithSchemas(operation.operationId);
      const body = await parseInput(schema as z.ZodObject, input, {
        noun: 'field',
        of: method,
        elsewhere: belongsIn(OPTION_CHECKS.webhook.names, 'an option', 'the third argument'),
        escapeHatch:
          'Free-form data the API keeps for you goes in `custom_fields`; to send a field the SDK does not know yet, pass it in the `body` option.',
      });
      const extra = refuseKnown(options.body, fields, 'body', method);
      return { endpoint: operation, ...target, body: { ...body, ...extra } };
    },
    options,
    (data) => data as z.output<Endpoint['response']>,
  );
}

/**
 * Starts a call: prepares it (a refusal rejects the promise, nothing sent), sends it, reads it when asked.
 * A call prepared without waiting (the usual case) goes out at once, and a body read without waiting is
 * the result with no promise in between.
 */
function start<T>(
  core: RequestCore,
  operation: OperationMeta,
  prepare: () => PreparedCall | Promise<PreparedCall>,
  options: RequestOptions,
  unwrap: (data: unknown) => T,
): APIPromise<T> {
  const telemetry = telemetrySink()?.start(spanName(operation), 'call', requestAttributes(operation));
  let exchange: Promise<Exchange>;
  try {
    const call = prepare();
    exchange =
      call instanceof Promise
        ? call.then((ready) => sendTraced(core, ready, options, telemetry))
        : sendTraced(core, call, options, telemetry);
  } catch (error) {
    exchange = Promise.reject(error);
  }
  return new APIPromise(endedWith(telemetry, exchange), (sent) => {
    const read = core.parse(sent);
    return read instanceof Promise
      ? read.then((result) => unwrapped(result, unwrap))
      : unwrapped(read, unwrap);
  });
}

/** Sends a prepared call, its address on the call's span when there is one. */
function sendTraced(
  core: RequestCore,
  call: PreparedCall,
  options: RequestOptions,
  telemetry: CallTelemetry | undefined,
): Promise<Exchange> {
  telemetry?.setAttributes(serverAttributes(call.url));
  return core.send(call, options, undefined, telemetry);
}

function unwrapped<T>(
  { data, response }: WithResponse<unknown>,
  unwrap: (data: unknown) => T,
): WithResponse<T> {
  return { data: unwrap(data), response };
}
