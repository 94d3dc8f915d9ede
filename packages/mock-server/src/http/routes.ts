import {
  compilePath,
  type EndpointDefinition,
  type ErrorShape,
  endpoints,
  type OperationId,
  rootPath,
} from '@company-data/contract';

/** One precompiled route: an operation of the endpoint table and its path matcher. */
export interface Route {
  /** Operation name. */
  readonly operationId: OperationId;
  /** The endpoint table row. */
  readonly endpoint: EndpointDefinition;
  /** Path template relative to the origin, e.g. `/v1/calls/{id}/`. */
  readonly template: string;
  /** Matches a path, giving its decoded parameters. */
  readonly match: (path: string) => Record<string, string> | undefined;
}

/** Where a request lands. */
export type RouteResult =
  | { readonly kind: 'match'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method'; readonly allow: string; readonly shape: ErrorShape }
  | { readonly kind: 'none'; readonly shape: ErrorShape; readonly missingSlash: boolean };

/**
 * The route table, compiled once from the contract's endpoint table. Routes are bucketed by their
 * first two path segments, so a request tests at most three patterns.
 */
export class RouteTable {
  readonly #buckets = new Map<string, Route[]>();

  constructor() {
    for (const [operationId, endpoint] of Object.entries(endpoints) as [OperationId, EndpointDefinition][]) {
      const template = rootPath(endpoint);
      const route: Route = { operationId, endpoint, template, match: compilePath(template) };
      const key = bucketOf(template);
      this.#buckets.set(key, [...(this.#buckets.get(key) ?? []), route]);
    }
  }

  /** Finds the route of a request. */
  find(method: string, path: string): RouteResult {
    const found = this.#find(method, path);
    if (found.kind !== 'none' || path.endsWith('/')) return found;
    const withSlash = this.#find(method, `${path}/`);
    return withSlash.kind === 'none' ? found : { ...found, missingSlash: true };
  }

  #find(method: string, path: string): RouteResult {
    const shape: ErrorShape = path.startsWith('/messaging-agent/') ? 'flat' : 'nested';
    const bucket = this.#buckets.get(bucketOf(path));
    let allow: string | undefined;
    if (bucket) {
      for (const route of bucket) {
        const params = route.match(path);
        if (params === undefined) continue;
        if (route.endpoint.method === method) return { kind: 'match', route, params };
        allow = route.endpoint.method;
      }
    }
    return allow === undefined
      ? { kind: 'none', shape, missingSlash: false }
      : { kind: 'method', allow, shape };
  }
}

function bucketOf(path: string): string {
  const second = path.indexOf('/', 1);
  if (second < 0) return path;
  const third = path.indexOf('/', second + 1);
  return third < 0 ? path : path.slice(0, third);
}
