import { throttleDetail } from '@company-data/contract';
import type { MockClock } from '../../data/clock.js';
import type { MockStore } from '../../data/store/mock-store.js';
import type { Throttle } from '../../data/store/quota.js';
import { bearerToken } from '../http/bearer.js';
import { errorResponse, methodNotAllowed, notFound, unmatched } from '../http/responses.js';
import type { MockRequest, Resolved } from '../http/types.js';
import { unmatchedMethod, unmatchedPath } from '../http/unmatched.js';
import type { ResolveContext } from '../resolvers/context.js';
import { type DataHandler, endedKeyAnswer, type Route, type RouteTable } from './routes.js';

/** What resolving a request reads of a world: its store, clock and quota, and what webhooks are given. */
export interface ResolveWorld {
  /** The current store (replaced by a reset or a reload). */
  readonly store: MockStore;
  readonly clock: MockClock;
  readonly throttle: Throttle;
  /** What a webhook's resolver is given. */
  readonly context: ResolveContext;
  /** Why a key or webhook token the store does not know was an ended session's (a server's own world). */
  readonly ended?: EndedSecrets | undefined;
}

/**
 * When and how the session that held a key or webhook token ended, for one that no open world holds now;
 * each answers undefined for anything else.
 */
export interface EndedSecrets {
  /** What the key's 401 says instead of the API's words for an unknown key. */
  key(key: string): string | undefined;
  /** Why the token reached nothing, in the journal; its answer stays the API's 404. */
  token(token: string): string | undefined;
}

/**
 * Resolves a request synchronously, without faults or journal, top-down: the route of its method and path
 * (404, 405); then a webhook's resolver, given the token in its path; or, for a data endpoint, its checks
 * ({@link resolveData}) and its resolver.
 *
 * @param routes - the route table.
 * @param world - the store, clock, quota and webhook context.
 * @param request - the request.
 * @returns the response and its outcome (and the key that asked, and why it was unmatched, when it was).
 */
export function resolveRequest(routes: RouteTable, world: ResolveWorld, request: MockRequest): Resolved {
  const found = routes.find(request.method, request.path);
  if (found.kind === 'none') {
    const { path } = request;
    const why = found.missingSlash
      ? unmatchedPath(`${path}/`, undefined)
      : unmatchedPath(undefined, routes.closestPath(path));
    return unmatched(notFound(found.shape, found.missingSlash), why);
  }
  if (found.kind === 'method')
    return unmatched(
      methodNotAllowed(found.shape, request.method, found.allow),
      unmatchedMethod(request.method, found.allow),
    );
  const { row: route, params } = found;
  const { handler } = route;
  if (handler.auth === 'pathToken') {
    const token = params.webhook_token ?? '';
    const resolved = handler.resolve(world.context, request, token, route.endpoint.errorShape);
    const why = resolved.unmatched;
    const ended = why?.reason === 'unknown_webhook_token' ? world.ended?.token(token) : undefined;
    return why === undefined || ended === undefined
      ? resolved
      : unmatched(resolved, { ...why, detail: ended });
  }
  return resolveData(world, request, route, handler, params);
}

/**
 * A data endpoint, in the order the API checks: the key (401), its permission (403), its quota (429), the
 * query (400); then the operation's resolver (for a list, `resolvers/record-reads.ts`: a page of the store's
 * sorted records, through the page cache), or 404 when it finds no record.
 */
function resolveData(
  world: ResolveWorld,
  request: MockRequest,
  route: Route,
  handler: DataHandler,
  params: Record<string, string>,
): Resolved {
  const token = bearerToken(request.headers.authorization);
  if (token === undefined) return handler.missingKey;
  const nowMs = world.clock.nowMs();
  const key = world.store.keys.authenticate(token, nowMs);
  if (key === 'invalid') {
    const ended = world.ended?.key(token);
    return ended === undefined ? handler.invalidKey : endedKeyAnswer(route.endpoint.errorShape, ended);
  }
  if (key === 'expired') return handler.expiredKey;
  const keyName = key.name;
  if (!key.permissions.has(handler.resource)) return withKey(handler.forbidden, keyName);
  const shape = route.endpoint.errorShape;
  const wait = world.throttle.take(key.id, nowMs, key.quota);
  if (wait > 0) {
    const throttled = errorResponse(shape, 429, throttleDetail(wait), { 'retry-after': String(wait) });
    return withKey(throttled, keyName);
  }
  const query = handler.query.parse(request.search);
  if (!query.ok) return withKey(errorResponse(shape, 400, query.detail), keyName);
  const company = world.store.companyById(key.companyId);
  const resolved = handler.resolve(company, params, query.values, handler.filters);
  return withKey(resolved ?? handler.notFound, keyName);
}

/** A resolved answer with the key that asked for it (an object literal: this runs per request). */
function withKey({ response, outcome }: Resolved, keyName: string): Resolved {
  return { response, outcome, keyName };
}
