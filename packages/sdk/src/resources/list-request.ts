import { type OperationMeta, QUERY_CHECKS } from '@company-data/contract/runtime';
import type { z } from 'zod';
import { belongsIn, checkListBudgets, refuseKnown } from '../core/checks/argument-rules.js';
import { checkOptions, parseInput } from '../core/checks/refusals.js';
import { OPTION_CHECKS } from '../core/checks/schemas.generated.js';
import { endpointWithSchemas } from '../core/checks/zod-on-demand.js';
import type { ListOptions } from '../core/options.js';
import type { ListRequest } from '../pagination/list-pages.js';
import { joinQueries, queryString } from '../request/query-string.js';
import type { RequestCore } from '../request/request-core.js';

/**
 * A list's request, its parameters and options checked: nothing is sent for a list refused. A refusal
 * rejects the request instead of throwing, so that the first page, and so every use of the list, fails
 * with it. The compiled check of the strict query schema decides at once; on a refusal only, zod is loaded
 * to say what is wrong (the request is then a promise).
 *
 * @param given - the caller's parameters.
 * @param options - the caller's options.
 * @param method - the method, as messages name it, e.g. `client.calls.list()`.
 */
export function checkedList(
  core: RequestCore,
  operation: OperationMeta,
  given: Record<string, unknown>,
  options: ListOptions,
  method: string,
): ListRequest | Promise<ListRequest> {
  try {
    checkOptions(OPTION_CHECKS.list, options, method, () =>
      belongsIn(operation.queryNames, 'a parameter', 'the first argument'),
    );
    checkListBudgets(options, given, method);
    // The compiled check of the strict query schema refuses unknown names too.
    if (QUERY_CHECKS[operation.operationId]?.(given))
      return listRequest(core, operation, given, options, method);
  } catch (error) {
    return refused(Promise.reject(error));
  }
  return refused(describedRefusal(core, operation, given, options, method));
}

/** The parameters the compiled check refused, as zod describes them (zod may yet accept them: then the request). */
async function describedRefusal(
  core: RequestCore,
  operation: OperationMeta,
  given: Record<string, unknown>,
  options: ListOptions,
  method: string,
): Promise<ListRequest> {
  const { query } = await endpointWithSchemas(operation.operationId);
  await parseInput(query as z.ZodObject, given, {
    noun: 'parameter',
    of: method,
    elsewhere: belongsIn(OPTION_CHECKS.list.names, 'an option', 'the second argument'),
    escapeHatch:
      'To send a parameter the SDK does not know yet, pass it in the `query` option: list(params, { query: { name: value } }).',
  });
  return listRequest(core, operation, given, options, method);
}

/**
 * The request of a checked list: only what the caller gave goes on the wire (the server applies its own
 * defaults), then the `query` extras, then the page.
 *
 * @throws ValidationError for a `query` extra the SDK knows; ConfigurationError when no base URL is set.
 */
function listRequest(
  core: RequestCore,
  operation: OperationMeta,
  given: Record<string, unknown>,
  options: ListOptions,
  method: string,
): ListRequest {
  const extras = refuseKnown(options.query, operation.queryNames, 'query', method);
  const fixedQuery = joinQueries(queryString(given, 'page'), queryString(extras));
  const query = fixedQuery === '' ? '' : `${fixedQuery}&`;
  return { operation, pageUrl: `${core.base(operation)}${operation.path}?${query}page=`, options };
}

/**
 * A request that may be refused, its refusal marked as handled: a list whose first page never goes out
 * (`toArray()` refused its own options first) leaves no unhandled rejection behind.
 */
function refused<T>(request: Promise<T>): Promise<T> {
  request.catch(ignore);
  return request;
}

function ignore(): undefined {
  return undefined;
}
