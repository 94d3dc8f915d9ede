import { STATUS_CODES } from 'node:http';
import { throttleDetail } from '@company-data/contract';
import type { MockClock } from '../clock.js';
import { bearerToken } from '../http/bearer.js';
import {
  errorBody,
  errorResponse,
  INJECTED_FAULT_DETAIL,
  json,
  methodNotAllowed,
  notFound,
  serverError,
  unmatched,
} from '../http/responses.js';
import type { MockRequest, MockResponse, RequestOutcome, Resolved } from '../http/types.js';
import { type Unmatched, unmatchedMethod, unmatchedPath } from '../http/unmatched.js';
import type { ResolveContext } from '../resolvers/context.js';
import type { MockStore } from '../store/mock-store.js';
import type { Throttle } from '../store/quota.js';
import type { Drip, FaultQueue, FaultRateTable, InjectedFault } from './faults.js';
import type { LatencyTable } from './latency.js';
import type { RequestJournal } from './request-journal.js';
import { type DataHandler, endedKeyAnswer, type Route, type RouteTable } from './routes.js';
import { sleep } from './sleep.js';

/**
 * How an adapter must write a response's body when a body fault asks for it: a few bytes at a time,
 * and/or only its first bytes before the connection is destroyed (the headers keep the whole body's
 * `Content-Length`).
 *
 * @example
 * ```ts
 * const result = await server.handle(request);
 * if (!result.drop && result.delivery?.cutAfterBytes !== undefined) console.log('the body will be cut');
 * ```
 */
export interface BodyDelivery {
  /** Send the body in pieces of `bytes`, `everyMs` apart. */
  readonly drip?: Drip | undefined;
  /** Send this many bytes of the body (already at least one short of it), then destroy the connection. */
  readonly cutAfterBytes?: number | undefined;
}

/**
 * What an adapter must do with a request: write a response (as `delivery` says, when given), or drop the
 * connection.
 *
 * @example
 * ```ts
 * const result: EngineResult = await server.handle(request);
 * if (result.drop) socket.destroy();
 * ```
 */
export type EngineResult =
  | { readonly response: MockResponse; readonly drop?: false; readonly delivery?: BodyDelivery | undefined }
  | { readonly drop: true };

/**
 * Where an adapter's abort signal can be read. Read only when an injected delay needs it, so
 * adapters can create their AbortController lazily and keep it off the hot path.
 */
export interface AbortSource {
  /** Aborts an injected delay. */
  readonly signal: AbortSignal;
}

/**
 * A path the engine hands to its owner before routing: never journaled, never faulted (the admin API,
 * the OpenAPI document). The server wires them, so the engine knows neither.
 */
export interface SideRoute {
  /** Whether it answers this path. */
  matches(path: string): boolean;
  /** What the request log says of its requests. */
  readonly outcome: RequestOutcome;
  answer(request: MockRequest): MockResponse;
}

/**
 * Told of every request once it is answered (or abandoned), e.g. to write a request log. Receives the
 * facts, not an event object: building one costs only when someone listens.
 */
export type ServedHook = (
  request: MockRequest,
  atMs: number,
  served: ServedRequest,
  durationMs: number,
) => void;

/**
 * Told of a request the mock could not match to an operation, or could not authenticate, once it is
 * answered (it is journaled as usual too).
 */
export type UnmatchedHook = (request: MockRequest, atMs: number, status: number, why: Unmatched) => void;

/** The mutable parts of a mock server the engine reads on every request. */
export interface EngineState {
  /** The current store (replaced by reset and fixture loads). */
  readonly store: MockStore;
  readonly clock: MockClock;
  readonly throttle: Throttle;
  readonly faults: FaultQueue;
  /** The latency profile in force, if any (read per request: replaced when set). */
  readonly latency: LatencyTable | undefined;
  /** The fault rates in force, if any (read per request: replaced when set). */
  readonly faultRates: FaultRateTable | undefined;
  readonly journal: RequestJournal;
  /** For the 413 text of the webhooks. */
  readonly maxBodyBytes: number;
  /** Consumes one injected lead-processing failure. */
  takeLeadFailure(): boolean;
  /**
   * Called first on every request, before anything is read: a server with activity applies there what the
   * clock has brought since the last request.
   */
  readonly beforeRequest?: (() => void) | undefined;
  /** Paths answered before routing (checked in order). */
  readonly sideRoutes?: readonly SideRoute[] | undefined;
  readonly onServed?: ServedHook | undefined;
  readonly onUnmatched?: UnmatchedHook | undefined;
  /**
   * Why a key the store does not know reaches nothing, when it was a key of a session that has ended: what
   * its 401 says instead of the API's words for an unknown key. Undefined for any other key.
   */
  readonly endedKey?: ((key: string) => string | undefined) | undefined;
}

/** How a request was served, before it is journaled and reported. */
export interface ServedRequest {
  /** What the adapter must do; absent for a request abandoned before it was answered. */
  readonly result?: EngineResult | undefined;
  readonly status: number | null;
  readonly outcome: RequestOutcome;
  readonly keyName?: string | undefined;
  readonly fault?: InjectedFault | undefined;
  /** The latency profile's wait, in ms (0 for none). */
  readonly latencyMs: number;
  /** Why the mock could not match it, when it could not. */
  readonly unmatched?: Unmatched | undefined;
}

type Served = ServedRequest & { readonly result: EngineResult };

const DROP: EngineResult = { drop: true };
const NO_SIDE_ROUTES: readonly SideRoute[] = [];
/** The page a proxy in front of an API answers with when the API fails (as the `htmlPage` fault sends it). */
const HTML_HEADERS = Object.freeze({ 'content-type': 'text/html; charset=utf-8' });
const ABANDONED: ServedRequest = { status: null, outcome: 'client_aborted', latencyMs: 0 };

/**
 * What a way in (the listener, the in-process dispatcher) hands requests to: one engine, or a server that
 * routes each request to its session's engine.
 */
export type RequestAnswerer = Pick<MockEngine, 'handle' | 'abandoned'>;

/**
 * The transport-free core: a request in, a response out. Every way in (dispatcher, listener, msw
 * handlers) is a thin adapter over {@link MockEngine.handle}.
 */
export class MockEngine {
  readonly #routes: RouteTable;
  readonly #state: EngineState;
  readonly #sides: readonly SideRoute[];
  readonly #context: ResolveContext;

  /**
   * @param routes - the route table (as msw's `getResponse` is handed its handlers): the engine imports no resolver.
   * @param state - store, clock and controls, read on every request.
   */
  constructor(routes: RouteTable, state: EngineState) {
    this.#routes = routes;
    this.#state = state;
    this.#sides = state.sideRoutes ?? NO_SIDE_ROUTES;
    this.#context = {
      get store() {
        return state.store;
      },
      clock: state.clock,
      maxBodyBytes: state.maxBodyBytes,
      takeLeadFailure: () => state.takeLeadFailure(),
    };
  }

  /**
   * Answers a request: applies an armed fault if one matches, otherwise resolves it; journals it
   * (also when its client gives up during an injected delay) and reports it to the `onServed` hook.
   *
   * @param request - the request, already read.
   * @param abort - aborts an injected delay.
   * @returns the response to write, or a request to drop the connection.
   */
  async handle(request: MockRequest, abort?: AbortSource): Promise<EngineResult> {
    const state = this.#state;
    const startedAt = state.onServed === undefined ? 0 : performance.now();
    state.beforeRequest?.();
    const atMs = state.clock.nowMs();
    const pending = this.#serve(request, abort);
    // Only an injected delay makes serving asynchronous; awaiting a plain value would cost a tick per request.
    const served = pending instanceof Promise ? await pending : pending;
    const { status, outcome, keyName, fault, latencyMs } = served;
    if (outcome !== 'admin' && outcome !== 'openapi')
      state.journal.add({ atMs, request, status, outcome, keyName, fault, latencyMs });
    state.onServed?.(request, atMs, served, performance.now() - startedAt);
    if (served.unmatched !== undefined && status !== null)
      state.onUnmatched?.(request, atMs, status, served.unmatched);
    return served.result;
  }

  /**
   * Journals (and reports) a request its client abandoned before it was fully received, e.g. mid-body.
   *
   * @param request - what was received of it.
   */
  abandoned(request: MockRequest): void {
    const atMs = this.#state.clock.nowMs();
    this.#state.journal.add({ atMs, request, status: null, outcome: 'client_aborted', latencyMs: 0 });
    this.#state.onServed?.(request, atMs, ABANDONED, 0);
  }

  #serve(request: MockRequest, abort: AbortSource | undefined): Served | Promise<Served> {
    const state = this.#state;
    const sides = this.#sides;
    for (let index = 0; index < sides.length; index++) {
      const side = sides[index] as SideRoute;
      if (side.matches(request.path)) return answered(side.answer(request), side.outcome);
    }
    const { faultRates, latency } = state;
    let fault: InjectedFault | undefined =
      state.faults.size > 0 ? state.faults.take(request.method, request.path) : undefined;
    // A next-N fault wins over the rate, but the rate still draws: arming a fault never shifts its sequence.
    if (faultRates !== undefined) {
      const drawn = faultRates.draw(request.method, request.path, fault === undefined);
      fault ??= drawn;
    }
    const latencyMs = latency === undefined ? 0 : latency.draw(request.method, request.path);
    const delayMs = latencyMs + (fault?.delayMs ?? 0);
    if (delayMs > 0) return this.#serveDelayed(request, fault, delayMs, latencyMs, abort);
    return this.#serveNow(request, fault, 0);
  }

  async #serveDelayed(
    request: MockRequest,
    fault: InjectedFault | undefined,
    delayMs: number,
    latencyMs: number,
    abort: AbortSource | undefined,
  ): Promise<Served> {
    try {
      await sleep(delayMs, abort?.signal);
    } catch {
      // The client gave up while the delay ran: nothing is answered, but the request happened.
      return { result: DROP, status: null, outcome: 'client_aborted', fault, latencyMs };
    }
    return this.#serveNow(request, fault, latencyMs);
  }

  #serveNow(request: MockRequest, fault: InjectedFault | undefined, latencyMs: number): Served {
    if (fault === undefined) {
      // Object literals, not spreads: this runs for every request, and spreads cost about a microsecond here.
      const { response, outcome, keyName, unmatched } = this.resolve(request);
      return { result: { response }, status: response.status, outcome, keyName, latencyMs, unmatched };
    }
    if (fault.drop) return { result: DROP, status: null, outcome: 'fault_injected', fault, latencyMs };
    let response: MockResponse;
    let outcome: RequestOutcome = 'fault_injected';
    let keyName: string | undefined;
    let unmatched: Unmatched | undefined;
    if (fault.htmlPage) response = htmlPage(fault);
    else if (fault.status !== undefined && !fault.malformedJson) response = faultResponse(fault);
    else {
      const resolved = this.resolve(request);
      keyName = resolved.keyName;
      unmatched = resolved.unmatched;
      response = fault.malformedJson
        ? malformed(resolved.response, fault)
        : decorated(resolved.response, fault);
      // A fault with headers only decorates the real answer (e.g. a Retry-After on a 200): its real outcome stands.
      if (!fault.malformedJson && fault.drip === undefined && fault.cutAfterBytes === undefined)
        outcome = resolved.outcome;
    }
    const delivery = bodyDelivery(fault, Buffer.byteLength(response.body));
    const result: EngineResult = delivery === undefined ? { response } : { response, delivery };
    return { result, status: response.status, outcome, keyName, fault, latencyMs, unmatched };
  }

  /**
   * Resolves a request synchronously, without faults or journal: routing, authentication,
   * permissions, throttling, validation and the operation itself.
   *
   * @param request - the request.
   * @returns the response and its outcome.
   */
  resolve(request: MockRequest): Resolved {
    try {
      return this.#resolve(request);
    } catch (error) {
      return { response: serverError(error), outcome: 'invalid_request' };
    }
  }

  #resolve(request: MockRequest): Resolved {
    const found = this.#routes.find(request.method, request.path);
    if (found.kind === 'none') {
      const { path } = request;
      const why = found.missingSlash
        ? unmatchedPath(`${path}/`, undefined)
        : unmatchedPath(undefined, this.#routes.closestPath(path));
      return unmatched(notFound(found.shape, found.missingSlash), why);
    }
    if (found.kind === 'method')
      return unmatched(
        methodNotAllowed(found.shape, request.method, found.allow),
        unmatchedMethod(request.method, found.allow),
      );
    const { row: route, params } = found;
    const { handler } = route;
    if (handler.auth === 'pathToken')
      return handler.resolve(this.#context, request, params.webhook_token ?? '', route.endpoint.errorShape);
    return this.#data(request, route, handler, params);
  }

  /** A data endpoint: key (401), permission (403), quota (429), query (400), then the resolver (404). */
  #data(request: MockRequest, route: Route, handler: DataHandler, params: Record<string, string>): Resolved {
    const state = this.#state;
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return handler.missingKey;
    const nowMs = state.clock.nowMs();
    const key = state.store.keys.authenticate(token, nowMs);
    if (key === 'invalid') {
      const ended = state.endedKey?.(token);
      return ended === undefined ? handler.invalidKey : endedKeyAnswer(route.endpoint.errorShape, ended);
    }
    if (key === 'expired') return handler.expiredKey;
    const keyName = key.name;
    if (!key.permissions.has(handler.resource)) return withKey(handler.forbidden, keyName);
    const shape = route.endpoint.errorShape;
    const wait = state.throttle.take(key.id, nowMs, key.quota);
    if (wait > 0) {
      const throttled = errorResponse(shape, 429, throttleDetail(wait), { 'retry-after': String(wait) });
      return withKey(throttled, keyName);
    }
    const query = handler.query.parse(request.search);
    if (!query.ok) return withKey(errorResponse(shape, 400, query.detail), keyName);
    const company = state.store.companyById(key.companyId);
    const resolved = handler.resolve(company, params, query.values, handler.filters);
    return withKey(resolved ?? handler.notFound, keyName);
  }
}

/** A resolved answer with the key that asked for it (an object literal: this runs per request). */
function withKey({ response, outcome }: Resolved, keyName: string): Resolved {
  return { response, outcome, keyName };
}

function answered(response: MockResponse, outcome: RequestOutcome): Served {
  return { result: { response }, status: response.status, outcome, latencyMs: 0 };
}

function faultResponse(fault: InjectedFault): MockResponse {
  const headers = lower(fault.headers ?? {});
  if (typeof fault.body === 'string') {
    return {
      status: fault.status ?? 500,
      headers: { 'content-type': 'text/plain', ...headers },
      body: fault.body,
    };
  }
  const body = fault.body === undefined ? errorBody('nested', INJECTED_FAULT_DETAIL) : fault.body;
  return json(fault.status ?? 500, body, headers);
}

/** The real answer with the fault's headers added (none: as it is). */
function decorated(response: MockResponse, fault: InjectedFault): MockResponse {
  if (!fault.headers) return response;
  return {
    status: response.status,
    headers: { ...response.headers, ...lower(fault.headers) },
    body: response.body,
  };
}

/** The real answer's first half under a 200 (or the fault's status): complete, but not JSON any more. */
function malformed(response: MockResponse, fault: InjectedFault): MockResponse {
  const body = response.body.slice(0, Math.max(1, Math.floor(response.body.length / 2)));
  return {
    status: fault.status ?? 200,
    headers: { ...response.headers, ...lower(fault.headers ?? {}) },
    body,
  };
}

/** An HTML error page, as a proxy in front of an API answers when the API behind it fails. */
function htmlPage(fault: InjectedFault): MockResponse {
  const status = fault.status ?? 502;
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  const body =
    typeof fault.body === 'string'
      ? fault.body
      : `<!DOCTYPE html>\n<html>\n<head><title>${title}</title></head>\n<body>\n<center><h1>${title}</h1></center>\n<hr><center>mock-proxy</center>\n</body>\n</html>\n`;
  return { status, headers: { ...HTML_HEADERS, ...lower(fault.headers ?? {}) }, body };
}

/** How the body must be written, when a body fault asks; the cut always falls at least one byte short. */
function bodyDelivery(fault: InjectedFault, length: number): BodyDelivery | undefined {
  const { drip, cutAfterBytes } = fault;
  if (drip === undefined && cutAfterBytes === undefined) return undefined;
  if (cutAfterBytes === undefined) return { drip };
  return { drip, cutAfterBytes: Math.max(0, Math.min(cutAfterBytes, length - 1)) };
}

function lower(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
