import { DEFAULT_ORDERING, type EndpointDefinition, fillPath, type Pagination } from '@company-data/contract';
import type { z } from 'zod';
import { APIPromise } from './api-promise.js';
import { type Core, validateInput } from './core.js';
import type { ListOptions, RequestOptions } from './options.js';
import { Page, type PageFetcher, PagePromise } from './pagination.js';
import { resolveWebhookUrl } from './webhook-target.js';

/** A list row of the endpoint table. */
export type ListEndpoint = EndpointDefinition & { kind: 'list'; query: z.ZodObject };
/** A retrieve row of the endpoint table. */
export type RetrieveEndpoint = EndpointDefinition & { kind: 'retrieve' };
/** A webhook row of the endpoint table. */
export type WebhookEndpoint = EndpointDefinition & { kind: 'webhook'; body: z.ZodType };

/** The item type of a list endpoint. */
export type ItemOf<Endpoint extends EndpointDefinition> =
  z.output<Endpoint['response']> extends { data: Array<infer Item> } ? Item : never;
/** The record type of a retrieve endpoint. */
export type RecordOf<Endpoint extends EndpointDefinition> =
  z.output<Endpoint['response']> extends { data: infer Data } ? Data : never;

/**
 * A list method, read off the endpoint table: validates the parameters, then returns a
 * {@link PagePromise} whose pages are fetched through the core.
 */
export function listOperation<Endpoint extends ListEndpoint>(
  core: Core,
  endpoint: Endpoint,
  params: z.input<Endpoint['query']> | undefined,
  options: ListOptions = {},
): PagePromise<ItemOf<Endpoint>> {
  type Item = ItemOf<Endpoint>;
  const given = (params ?? {}) as Record<string, unknown>;
  // The parameters are checked, and their part of the query string built, once per list: only the page
  // changes from one request to the next.
  let fixedQuery: string | undefined;
  const fetch: PageFetcher<Item> = async (page, signal) => {
    fixedQuery ??= encodeFixedQuery(validateInput(endpoint.query, given, 'list parameters'), given);
    const url = `${core.base(endpoint)}${endpoint.path}?${fixedQuery}page=${page}`;
    const { data, response } = await core.execute(
      { endpoint, url },
      { ...options, signal: signal ?? options.signal },
    );
    const body = data as { data: Item[]; pagination: Pagination };
    return { data: new Page(body.data, body.pagination, fetch), response };
  };
  const ordering = typeof given.ordering === 'string' ? given.ordering : DEFAULT_ORDERING;
  const firstPage = typeof given.page === 'number' ? given.page : 1;
  return new PagePromise(fetch, firstPage, ordering, options, core.logger);
}

/**
 * The query string of everything but the page: only what the caller gave goes on the wire (the server
 * applies its own defaults), validated and encoded.
 */
function encodeFixedQuery(query: Record<string, unknown>, given: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const name of Object.keys(query)) {
    if (name !== 'page' && given[name] !== undefined) search.set(name, String(query[name]));
  }
  const encoded = search.toString();
  return encoded === '' ? '' : `${encoded}&`;
}

/** A retrieve method, read off the endpoint table: validates the id, fetches, unwraps `data`. */
export function retrieveOperation<Endpoint extends RetrieveEndpoint>(
  core: Core,
  endpoint: Endpoint,
  id: string,
  options: RequestOptions = {},
): APIPromise<RecordOf<Endpoint>> {
  return new APIPromise(
    (async () => {
      const params = validateInput(endpoint.pathParams, { id }, 'id') as { id: string };
      const url = `${core.base(endpoint)}${fillPath(endpoint.path, params)}`;
      const { data, response } = await core.execute({ endpoint, url }, options);
      return { data: (data as { data: RecordOf<Endpoint> }).data, response };
    })(),
  );
}

/**
 * A webhook method, read off the endpoint table: resolves the token or URL, validates the body with the
 * contract's schema (no request when it fails), posts it.
 */
export function webhookOperation<Endpoint extends WebhookEndpoint>(
  core: Core,
  endpoint: Endpoint,
  tokenOrUrl: string,
  input: z.input<Endpoint['body']>,
  options: RequestOptions = {},
): APIPromise<z.output<Endpoint['response']>> {
  return new APIPromise(
    (async () => {
      const url = resolveWebhookUrl(endpoint, tokenOrUrl, () => core.base(endpoint));
      const body = validateInput(endpoint.body, input, 'webhook body');
      return core.execute({ endpoint, url, body }, options);
    })(),
  );
}
