import {
  closestName,
  compileWireQuery,
  type DataResource,
  type EndpointDefinition,
  ERROR_DETAILS,
  type ErrorShape,
  endpoints,
  ListQuery,
  type OperationId,
  rootPath,
  type WireQuery,
} from '@company-data/contract';
import { z } from 'zod';
import { errorResponse, notFound, unmatched } from '../http/responses.js';
import type { Resolved } from '../http/types.js';
import { UNMATCHED } from '../http/unmatched.js';
import type { DataResolver, ResolverTable, WebhookResolver } from '../resolvers/types.js';
import { Router, type RouterRow } from './router.js';

/** How a route authenticates and what it runs, compiled from its row: the row's `auth` decides which. */
export type RouteHandler = DataHandler | WebhookHandler;

/** An API-key route: a data endpoint. */
export interface DataHandler {
  /** Authenticated by an API key. */
  readonly auth: 'apiKey';
  /** The resource a key needs permission for. */
  readonly resource: DataResource;
  /** The row's query rules (a row without query parameters accepts none). */
  readonly query: WireQuery;
  /** The row's filter parameters: those beyond page, page_size and ordering. */
  readonly filters: readonly string[];
  /** Answers 401 for a request without a key (the invalid key's answer, unmatched for another reason). */
  readonly missingKey: Resolved;
  /** Answers 401 for an invalid key, in the row's error shape. */
  readonly invalidKey: Resolved;
  /** Answers 401 for an expired key. */
  readonly expiredKey: Resolved;
  readonly forbidden: Resolved;
  /** Answers 404, when the resolver finds no record. */
  readonly notFound: Resolved;
  /** Answers the request, or finds no record (undefined). */
  readonly resolve: DataResolver;
}

/** A path-token route: a webhook. */
export interface WebhookHandler {
  /** Authenticated by the token in its path. */
  readonly auth: 'pathToken';
  readonly resolve: WebhookResolver;
}

/** One precompiled route: an operation of the endpoint table, a row of the router, and its handler. */
export interface Route extends RouterRow {
  readonly operationId: OperationId;
  readonly endpoint: EndpointDefinition;
  readonly handler: RouteHandler;
}

/** Where a request lands. */
export type RouteResult =
  | { readonly kind: 'match'; readonly row: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method'; readonly allow: string; readonly shape: ErrorShape }
  | { readonly kind: 'none'; readonly shape: ErrorShape; readonly missingSlash: boolean };

const NO_QUERY = z.object({});
const UNAUTHENTICATED = { 'www-authenticate': 'Bearer realm="api"' } as const;

/**
 * The 401 to a key the mock no longer knows because its session ended: the invalid key's answer, in the
 * row's error shape, with words that say so (and unmatched as an invalid key).
 *
 * @param shape - the row's error shape.
 * @param detail - when and how the key's session ended.
 */
export function endedKeyAnswer(shape: ErrorShape, detail: string): Resolved {
  return unmatched(errorResponse(shape, 401, detail, UNAUTHENTICATED), { ...UNMATCHED.invalidKey, detail });
}

/**
 * The route table, compiled once from the contract's endpoint table and one resolver per row: the
 * operations as rows of the mock's one {@link Router}, with the error shape of each area of paths.
 */
export class RouteTable {
  readonly #router: Router<Route>;
  /** The error shape of each first path segment, e.g. `v1` → nested, `messaging-agent` → flat. */
  readonly #shapes = new Map<string, ErrorShape>();
  /** Every operation's path template, split into segments, for {@link RouteTable.closestPath}. */
  readonly #templates: (readonly string[])[] = [];
  /** What the paths of the operations authenticated by a token in their path start with, up to the token. */
  readonly #tokenPrefixes: string[] = [];

  /** @param resolvers - a resolver for every row of the endpoint table. */
  constructor(resolvers: ResolverTable<typeof endpoints>) {
    const routes: Route[] = [];
    for (const [operationId, endpoint] of Object.entries(endpoints) as [OperationId, EndpointDefinition][]) {
      const template = rootPath(endpoint);
      routes.push({
        operationId,
        endpoint,
        method: endpoint.method,
        template,
        handler: compileHandler(endpoint, resolvers[operationId]),
      });
      this.#shapes.set(firstSegment(template), endpoint.errorShape);
      this.#templates.push(template.split('/'));
      if (endpoint.auth === 'pathToken') this.#tokenPrefixes.push(template.slice(0, template.indexOf('{')));
    }
    this.#router = new Router(routes);
  }

  /** Finds the route of a request. */
  find(method: string, path: string): RouteResult {
    const found = this.#find(method, path);
    if (found.kind !== 'none' || path.endsWith('/')) return found;
    const withSlash = this.#find(method, `${path}/`);
    return withSlash.kind === 'none' ? found : { ...found, missingSlash: true };
  }

  /**
   * The webhook token in a request's path, if it is a webhook's: what routes it to its session. A path that
   * starts as no webhook's does costs one comparison per webhook, not a route lookup.
   *
   * @param method - the request's method.
   * @param path - its path.
   */
  webhookToken(method: string, path: string): string | undefined {
    const prefixes = this.#tokenPrefixes;
    for (let index = 0; index < prefixes.length; index++) {
      if (!path.startsWith(prefixes[index] as string)) continue;
      const found = this.find(method, path);
      return found.kind === 'match' ? found.params.webhook_token : undefined;
    }
    return undefined;
  }

  /**
   * The path of an operation closest to one no operation has, for a did-you-mean: each template with as many
   * segments, its `{name}` segments taken from the path (`/v1/calls/42/transcrpt/` → `/v1/calls/42/transcript/`).
   * Read only for an unmatched request, never on the way of a matched one.
   *
   * @param path - the unmatched path.
   * @returns the closest such path, or undefined when none is close.
   */
  closestPath(path: string): string | undefined {
    const segments = path.split('/');
    const candidates = this.#templates
      .filter((template) => template.length === segments.length)
      .map((template) =>
        template.map((part, index) => (part.startsWith('{') ? (segments[index] as string) : part)).join('/'),
      )
      .filter((candidate) => candidate !== path);
    return closestName(path, candidates);
  }

  #find(method: string, path: string): RouteResult {
    // A path no route matches answers in the shape of the area it is in (nested outside any known area).
    const shape = this.#shapes.get(firstSegment(path)) ?? 'nested';
    const found = this.#router.find(method, path);
    // A match is the router's own answer: no second object on the hot path.
    if (found.kind === 'match') return found;
    return found.kind === 'method'
      ? { kind: 'method', allow: found.allow, shape }
      : { kind: 'none', shape, missingSlash: false };
  }
}

function compileHandler(endpoint: EndpointDefinition, resolve: DataResolver | WebhookResolver): RouteHandler {
  if (endpoint.auth === 'pathToken') return { auth: 'pathToken', resolve: resolve as WebhookResolver };
  if (endpoint.resource === undefined)
    throw new Error(`${endpoint.operationId}: an API-key endpoint must name its resource`);
  const query = endpoint.query ?? NO_QUERY;
  const shape = endpoint.errorShape;
  const invalidKey = errorResponse(shape, 401, ERROR_DETAILS.invalidKey, UNAUTHENTICATED);
  return {
    auth: 'apiKey',
    resource: endpoint.resource,
    query: compileWireQuery(query),
    filters: Object.keys(query.shape).filter((name) => !(name in ListQuery.shape)),
    missingKey: unmatched(invalidKey, UNMATCHED.missingKey),
    invalidKey: unmatched(invalidKey, UNMATCHED.invalidKey),
    expiredKey: unmatched(
      errorResponse(shape, 401, ERROR_DETAILS.expiredKey, UNAUTHENTICATED),
      UNMATCHED.expiredKey,
    ),
    forbidden: errorResponse(shape, 403, ERROR_DETAILS.permissionDenied),
    notFound: notFound(shape),
    resolve: resolve as DataResolver,
  };
}

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}
