import type { EndpointDefinition, ErrorShape } from '@company-data/contract';
import type { CompanyRecords } from '../../data/store/company-records.js';
import type { MockRequest, Resolved } from '../http/types.js';
import type { ResolveContext } from './context.js';

/**
 * A data endpoint's resolver, run after the key, permission, throttle and query checks. It answers,
 * or returns undefined when no record has the id (the engine answers 404 in the row's error shape).
 *
 * @param company - the company of the key.
 * @param params - the decoded path parameters.
 * @param query - the query values, read by the row's wire rules, defaults filled in.
 * @param filters - the row's filter parameters (those beyond page, page_size and ordering).
 */
export type DataResolver = (
  company: CompanyRecords,
  params: Readonly<Record<string, string>>,
  query: Readonly<Record<string, unknown>>,
  filters: readonly string[],
) => Resolved | undefined;

/**
 * A webhook's resolver: authenticated by the token in its path.
 *
 * @param context - the store, clock and limits.
 * @param request - the request.
 * @param token - the webhook token from the path.
 * @param shape - the row's error shape.
 */
export type WebhookResolver = (
  context: ResolveContext,
  request: MockRequest,
  token: string,
  shape: ErrorShape,
) => Resolved;

/**
 * One resolver per row of an endpoint table, of the kind the row's `auth` calls for. Typed over the
 * table, so a row added to the contract without a resolver does not compile.
 */
export type ResolverTable<Table extends Readonly<Record<string, EndpointDefinition>>> = {
  readonly [Operation in keyof Table]: Table[Operation]['auth'] extends 'apiKey'
    ? DataResolver
    : WebhookResolver;
};
