import type { EndpointDefinition, Endpoints } from '@company-data/contract';
import {
  DEFAULT_ORDERING,
  fillPath,
  OPERATIONS,
  type OperationId,
  type OperationMeta,
  PATH_CHECKS,
} from '@company-data/contract/runtime';
import type { z } from 'zod';
import { belongsIn, checkListBudgets, refuseKnown } from '../core/checks/argument-rules.js';
import { checkOptions, parseInput } from '../core/checks/refusals.js';
import { OPTION_CHECKS, OPTION_HINTS } from '../core/checks/schemas.generated.js';
import { endpointWithSchemas } from '../core/checks/zod-on-demand.js';
import { ValidationError } from '../core/errors.js';
import { methodName, SDK_METHODS } from '../core/methods.js';
import {
  DEFAULT_LIST_CONCURRENCY,
  DEFAULT_LOOK_BACK,
  DEFAULT_SYNC_PAGE_SIZE,
  defaultReadAhead,
  type ListOptions,
  type RequestOptions,
  type WebhookOptions,
} from '../core/options.js';
import type { WithResponse } from '../core/response-info.js';
import type { SyncOptions, SyncRequestOptions } from '../core/sync-changes.js';
import { startIteration } from '../core/telemetry/iteration.js';
import { ListPages } from '../pagination/list-pages.js';
import { PagePromise } from '../pagination/page-promise.js';
import { APIPromise } from '../request/api-promise.js';
import type { CallRequest } from '../request/call-request.js';
import { queryString } from '../request/query-string.js';
import type { RequestCore } from '../request/request-core.js';
import { decodeCheckpoint, emptyState, encodeCheckpoint } from '../sync/checkpoint.js';
import type { FetchSyncPage } from '../sync/page-reader.js';
import { SyncRun } from '../sync/run.js';
import { SyncScan } from '../sync/scan.js';
import { checkedList } from './list-request.js';
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
/** The record a retrieve endpoint answers with, out of its response's `data`. */
export type RetrievedRecord<Endpoint extends EndpointDefinition> =
  z.output<Endpoint['response']> extends { data: infer Data } ? Data : never;

/**
 * A list method, read off the endpoint table: checks the parameters and options (nothing is sent when
 * they fail: see `list-request.ts`), then returns a {@link PagePromise} whose pages are sent through the
 * core (`pagination/list-pages.ts`).
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
  const request = checkedList(core, operation, given, options, methodName(operation));
  return new PagePromise(new ListPages<ItemOf<Endpoints[Id]>>(core, operation, given, options, request));
}

/**
 * A sync method, read off the endpoint table of its list: a {@link SyncRun} whose scan reads the list
 * newest first from the checkpoint given (see `sync/scan.ts`). Its input is checked when the run
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
  const scan = () => {
    if (refusal !== undefined) throw refusal;
    const params = { ...(given as Record<string, unknown>) };
    for (const name of SYNC_OWN_PARAMETERS) {
      if (name in params) {
        const message = `${method} reads the list newest first from page 1 and sets \`${name}\` itself: leave it out of \`params\`.`;
        throw new ValidationError(message, [{ code: 'custom', message, path: ['params', name] }]);
      }
    }
    const pageSize = typeof params.page_size === 'number' ? params.page_size : DEFAULT_SYNC_PAGE_SIZE;
    const query = { ...params, ordering: DEFAULT_ORDERING, page_size: pageSize };
    const request = checkedList(core, operation, query, requestOptions, method);
    const pages = new ListPages<Item>(core, operation, query, requestOptions, request);
    const { concurrency = DEFAULT_LIST_CONCURRENCY, signal } = requestOptions;
    const readAhead = requestOptions.readAhead ?? defaultReadAhead(concurrency);
    const iteration = startIteration('sync', operation, { concurrency, readAhead });
    const fetch: FetchSyncPage<Item> = async (page, signal, slots) =>
      (await pages.fetch(page, signal, slots, iteration)).data;
    const lookBack = typeof input.lookBack === 'number' ? input.lookBack : DEFAULT_LOOK_BACK;
    const { telemetry } = iteration;
    const source = { fetch, pageSize, lookBack, concurrency, readAhead, signal, telemetry, iteration };
    return new SyncScan<Item>(state, source);
  };
  const initial = typeof input.checkpoint === 'string' ? input.checkpoint : encodeCheckpoint(state);
  return new SyncRun<Item>({ initial, scan, method });
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
 * A retrieve method, read off the endpoint table: checks the id and options, fetches, unwraps `data`.
 *
 * @typeParam Id - the operation: its row of the endpoint table types the method.
 */
export function retrieveOperation<Id extends OperationIdOf<'retrieve'>>(
  core: RequestCore,
  operationId: Id,
  id: string,
  options: RequestOptions = {},
): APIPromise<RetrievedRecord<Endpoints[Id]>> {
  const operation: OperationMeta = OPERATIONS[operationId];
  let call: CallRequest | Promise<CallRequest>;
  try {
    call = retrieveCall(core, operation, id, options);
  } catch (error) {
    call = Promise.reject(error);
  }
  return start(core, operation, call, options, recordOf as (data: unknown) => RetrievedRecord<Endpoints[Id]>);
}

/**
 * The call of a retrieve method, its id and options checked. When the compiled check refuses the id, zod
 * (loaded for it) says why: only then is the call a promise.
 *
 * @throws ConfigurationError for a refused option or a missing base URL.
 */
function retrieveCall(
  core: RequestCore,
  operation: OperationMeta,
  id: string,
  options: RequestOptions,
): CallRequest | Promise<CallRequest> {
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
): CallRequest {
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
  const call = webhookCall(core, operation, tokenOrUrl, input, options);
  return start(core, operation, call, options, (data) => data as z.output<Endpoint['response']>);
}

/**
 * The call of a webhook method: the token or URL resolved, the options checked, the body parsed by the
 * contract's schema (zod's output, trimmed phone numbers, is what is sent; an undeclared field is refused).
 */
async function webhookCall(
  core: RequestCore,
  operation: OperationMeta,
  tokenOrUrl: string,
  input: unknown,
  options: WebhookOptions,
): Promise<CallRequest> {
  const method = methodName(operation);
  const fields = operation.bodyNames;
  checkOptions(OPTION_CHECKS.webhook, options, method, () => ({
    ...belongsIn(fields, 'a body field', 'the second argument'),
    ...OPTION_HINTS.webhook,
  }));
  const target = resolveWebhookUrl(operation, tokenOrUrl, () => core.base(operation));
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
}

/**
 * Starts a call: sends it through the core once it is ready (a refusal rejects the promise, nothing sent),
 * and reads it when asked. A call prepared without waiting (the usual case) goes out at once, and a body
 * read without waiting is the result with no promise in between.
 */
function start<T>(
  core: RequestCore,
  operation: OperationMeta,
  call: CallRequest | Promise<CallRequest>,
  options: RequestOptions,
  unwrap: (data: unknown) => T,
): APIPromise<T> {
  return new APIPromise(core.send(operation, call, options), (sent) => {
    const read = core.parse(sent);
    return read instanceof Promise
      ? read.then((result) => unwrapped(result, unwrap))
      : unwrapped(read, unwrap);
  });
}

function unwrapped<T>(
  { data, response }: WithResponse<unknown>,
  unwrap: (data: unknown) => T,
): WithResponse<T> {
  return { data: unwrap(data), response };
}
