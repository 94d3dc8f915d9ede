import type { MockClock } from '../../data/clock.js';
import type { MockStore } from '../../data/store/mock-store.js';
import type { Throttle } from '../../data/store/quota.js';
import { serverError } from '../http/responses.js';
import type { MockRequest, MockResponse, RequestOutcome, Resolved, StreamedBody } from '../http/types.js';
import type { Unmatched } from '../http/unmatched.js';
import { type BodyDelivery, faultedAnswer } from './fault-answers.js';
import type { FaultQueue, FaultRateTable, InjectedFault } from './faults.js';
import type { LatencyTable } from './latency.js';
import type { RequestJournal } from './request-journal.js';
import { type EndedSecrets, type ResolveWorld, resolveRequest } from './resolve-request.js';
import type { RouteTable } from './routes.js';
import { sleep } from './sleep.js';

/**
 * What an adapter must do with a request: write a response (as `delivery` says, when given: a body fault's
 * drip or cut; or, with `stream`, its status and headers and then the body as it comes: the admin API's
 * events), or drop the connection.
 *
 * @example
 * ```ts
 * const result: EngineResult = await server.handle(request);
 * if (result.drop) socket.destroy();
 * ```
 */
export type EngineResult =
  | {
      readonly response: MockResponse;
      readonly drop?: false;
      readonly delivery?: BodyDelivery | undefined;
      /** A body written as it comes, in place of `response.body`. */
      readonly stream?: StreamedBody | undefined;
    }
  | { readonly drop: true };

/**
 * A side route's answer whose body is written as it comes: the response's status and headers, and the body.
 *
 * @example
 * ```ts
 * const answer: StreamedAnswer = { response: { status: 200, headers: {}, body: '' }, stream: ticks };
 * ```
 */
export interface StreamedAnswer {
  /** The status and headers (its `body` is not sent). */
  readonly response: MockResponse;
  readonly stream: StreamedBody;
}

/**
 * How an adapter tells the engine that the client gave up: the signal that aborts an injected delay. Read
 * only when an injected delay needs it, so adapters can create their AbortController lazily and keep it off
 * the hot path.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const abort: ClientAbort = controller; // an AbortController is one
 * const pending = server.handle(request, abort);
 * controller.abort(); // the client left: a delay still running ends, and nothing is answered
 * ```
 */
export interface ClientAbort {
  /** Aborts an injected delay. */
  readonly signal: AbortSignal;
}

/**
 * The old name of {@link ClientAbort}.
 *
 * @deprecated Use {@link ClientAbort}: the SDK has an `AbortSource` of its own.
 * @example
 * ```ts
 * const abort: AbortSource = new AbortController();
 * ```
 */
export type AbortSource = ClientAbort;

/**
 * A path the engine hands to its owner before routing: never journaled, never faulted (the admin API,
 * the OpenAPI document). The server wires them, so the engine knows neither.
 */
export interface SideRoute {
  /** Whether it answers this path. */
  matches(path: string): boolean;
  /** What the request log says of its requests. */
  readonly outcome: RequestOutcome;
  answer(request: MockRequest): MockResponse | StreamedAnswer;
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
  /** Why a key or webhook token of an ended session reaches nothing (see `ResolveWorld.ended`). */
  readonly ended?: EndedSecrets | undefined;
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
const ABANDONED: ServedRequest = { status: null, outcome: 'client_aborted', latencyMs: 0 };

/**
 * What a way in (the listener, the in-process dispatcher) hands requests to: a session's {@link MockEngine},
 * or a server's sessions (`SessionFront`, in `server/session-front.ts`), which hand each request to the engine
 * of the session it belongs to.
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
  /** What resolving a request reads: the store, clock and quota, and what webhooks are given. */
  readonly #world: ResolveWorld;

  /**
   * @param routes - the route table (as msw's `getResponse` is handed its handlers): the engine imports no resolver.
   * @param state - store, clock and controls, read on every request.
   */
  constructor(routes: RouteTable, state: EngineState) {
    this.#routes = routes;
    this.#state = state;
    this.#sides = state.sideRoutes ?? NO_SIDE_ROUTES;
    this.#world = {
      get store() {
        return state.store;
      },
      clock: state.clock,
      throttle: state.throttle,
      context: {
        get store() {
          return state.store;
        },
        clock: state.clock,
        maxBodyBytes: state.maxBodyBytes,
        takeLeadFailure: () => state.takeLeadFailure(),
      },
      ended: state.ended,
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
  async handle(request: MockRequest, abort?: ClientAbort): Promise<EngineResult> {
    const state = this.#state;
    const startedAt = state.onServed === undefined ? -1 : performance.now();
    state.beforeRequest?.();
    const atMs = state.clock.nowMs();
    const pending = this.#serve(request, abort);
    // Only an injected delay makes serving asynchronous; awaiting a plain value would cost a tick per request.
    const served = pending instanceof Promise ? await pending : pending;
    const { status, outcome, keyName, fault, latencyMs, unmatched } = served;
    if (outcome !== 'admin' && outcome !== 'openapi')
      state.journal.add({ atMs, request, status, outcome, keyName, fault, latencyMs, unmatched });
    // A hook that came while the request was served (a watch page opening) has no start to count from.
    state.onServed?.(request, atMs, served, startedAt < 0 ? 0 : performance.now() - startedAt);
    if (unmatched !== undefined && status !== null) state.onUnmatched?.(request, atMs, status, unmatched);
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

  /**
   * Serves a request: a side route (the admin API, the OpenAPI document) answers it at once; any other meets
   * the chaos in force (an armed fault, the fault rates, the latency profile), waits what they say, and is
   * answered ({@link MockEngine.resolve}, or what the fault makes of it).
   */
  #serve(request: MockRequest, abort: ClientAbort | undefined): Served | Promise<Served> {
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
    abort: ClientAbort | undefined,
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
    const { response, outcome, keyName, unmatched, delivery } = faultedAnswer(fault, () =>
      this.resolve(request),
    );
    const result: EngineResult = delivery === undefined ? { response } : { response, delivery };
    return { result, status: response.status, outcome, keyName, fault, latencyMs, unmatched };
  }

  /**
   * Resolves a request synchronously, without faults or journal: routing, authentication, permissions,
   * quota, validation and the operation itself (see {@link resolveRequest}); a resolver that throws is a 500.
   *
   * @param request - the request.
   * @returns the response and its outcome.
   */
  resolve(request: MockRequest): Resolved {
    try {
      return resolveRequest(this.#routes, this.#world, request);
    } catch (error) {
      return { response: serverError(error), outcome: 'invalid_request' };
    }
  }
}

function answered(answer: MockResponse | StreamedAnswer, outcome: RequestOutcome): Served {
  if ('stream' in answer) {
    const { response, stream } = answer;
    return { result: { response, stream }, status: response.status, outcome, latencyMs: 0 };
  }
  return { result: { response: answer }, status: answer.status, outcome, latencyMs: 0 };
}
