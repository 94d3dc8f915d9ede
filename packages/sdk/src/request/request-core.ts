import type { OperationMeta } from '@company-data/contract/runtime';
import { ENVIRONMENT_VARIABLES } from '../core/environment.js';
import {
  ClientClosedError,
  type CompanyDataError,
  ConfigurationError,
  ConnectionError,
  RateLimitError,
  RequestAbortedError,
} from '../core/errors.js';
import type { Logger } from '../core/logger-interface.js';
import type {
  HedgeOptions,
  HedgeOutcome,
  RateLimitEvent,
  RequestOptions,
  RetryEvent,
  RetryHook,
  Sleep,
} from '../core/options.js';
import type { RateGateLike } from '../core/rate-gate-interface.js';
import type { WithResponse } from '../core/response-info.js';
import type { SdkLogger } from '../core/scrubbed-logger.js';
import { endedWith, requestAttributes, serverAttributes, spanName } from '../core/telemetry/call-spans.js';
import type { Iteration } from '../core/telemetry/iteration.js';
import { type CallTelemetry, errorType, TELEMETRY, telemetrySink } from '../core/telemetry/sink.js';
import { subscribed, type TracingChannelLike, traced, WorkTrace } from '../core/telemetry/traced-work.js';
import type { AttemptContext, CallContext, PageContext } from '../core/telemetry/tracing-channels.js';
import { attemptContext, callContext, type Settable } from '../core/telemetry/tracing-contexts.js';
import { CallHeaders } from './call-headers.js';
import { type AnsweredCall, type CallRequest, describeCall } from './call-request.js';
import { errorDetail, errorFromResponse, notFoundHint } from './error-from-response.js';
import type { HedgeBudget } from './hedge-budget.js';
import { type HedgedRead, hedgedRead } from './hedged-read.js';
import type { AttemptSlots, ReleaseSlot } from './request-slots.js';
import { readResponse } from './response-body.js';
import type { ResponseTimes } from './response-times.js';
import { backoffDelayMs, classifyStatus, rateLimitWaitMs } from './retry.js';
import { raceAbort } from './sleep.js';
import type { AttemptRequest, AttemptResponse, Transport } from './transport.js';

// The one request pipeline every call goes through. `RequestCore.send` reads top-down, a function per step:
//
// 1. telemetry (`observe`): the call's span, and its event on its tracing channel, when anything observes;
// 2. the attempts (`sendAttempts`), until one is answered with success or the call fails; each attempt
//    - takes a request slot when the call is a page of a list read ahead,
//    - passes the rate gate (`passGate`): a 429's pause, a quota's slot,
//    - is sent (`attempt`): through the hedge when the call is hedged (`sendAttempt`, `request/hedged-read.ts`),
//      else to the transport, which keeps the attempt's deadline (`request/transport.ts`);
//    - and its answer decides: a success is the call's; a 429 pauses the gate (`pauseForRateLimit`); a
//      failure that is retried waits its backoff (`backoff`); any other failure is the call's error.
// The body is read afterwards, when the caller asks (`RequestCore.parse`, `request/response-body.ts`).

/** Everything the core needs, resolved from the client options. */
export interface CoreConfig {
  apiKey: string | undefined;
  /** Where the key came from, in words (`the COMPANY_DATA_API_KEY environment variable`), for a 401's hint. */
  apiKeySource: string | undefined;
  /** Where the base URL came from, in words, for the hints of an unknown host and of a 404 on a list. */
  baseURLSource: string | undefined;
  baseURL: string | undefined;
  apiRoot: string | undefined;
  timeout: number;
  maxRetries: number;
  maxRetryWait: number;
  defaultHeaders: Record<string, string>;
  userAgent: string;
  validate: boolean;
  onRateLimit: RetryHook<RateLimitEvent> | undefined;
  onRetry: RetryHook<RetryEvent> | undefined;
  sleep: Sleep;
  now: () => number;
  random: () => number;
  logger: SdkLogger;
  transport: Transport;
  gate: RateGateLike;
  /** The client's `hedge` option (a call's own overrides it). */
  hedge: boolean | HedgeOptions;
  /** Recent response times, shared with derived clients: the adaptive hedge threshold. */
  responseTimes: ResponseTimes;
  /** The hedges the client (and its derived clients) may still send. */
  hedgeBudget: HedgeBudget;
}

/** The operation a call reads or writes, as its span and its tracing contexts name it. */
type SentOperation = Pick<OperationMeta, 'operationId' | 'method' | 'path'>;

/** What every call of a client is sent with: its configuration, and the headers its calls share. */
interface Pipeline {
  readonly config: CoreConfig;
  readonly headers: CallHeaders;
}

/**
 * The one request pipeline every resource method goes through: addresses and auth from the endpoint
 * table, the shared rate gate, retries, error mapping and response validation.
 */
export class RequestCore {
  readonly #config: CoreConfig;
  readonly #pipeline: Pipeline;

  /** @param config - the resolved client configuration. */
  constructor(config: CoreConfig) {
    this.#config = config;
    this.#pipeline = { config, headers: new CallHeaders(config) };
  }

  /** The client's logger (already filtered and scrubbed). */
  get logger(): Logger {
    return this.#config.logger;
  }

  /**
   * The address an endpoint's path is appended to.
   *
   * @throws ConfigurationError when no base URL is configured.
   */
  base(endpoint: Pick<OperationMeta, 'base'>): string {
    // The client derives apiRoot from baseURL when it is not given, so only a missing baseURL leaves a gap.
    const base = endpoint.base === 'apiRoot' ? this.#config.apiRoot : this.#config.baseURL;
    if (base === undefined) {
      throw new ConfigurationError(
        'missing_base_url',
        `No base URL: pass \`baseURL\` to new CompanyData() or set the ${ENVIRONMENT_VARIABLES.baseURL} environment variable.`,
      );
    }
    return base;
  }

  /**
   * Sends a call, with the retries and rate-limit pauses it needs, and gives its success response, its body
   * not yet read: the steps at the top of this file, each a function below.
   *
   * @param operation - the operation: its span and its tracing context name it, even before the call is ready.
   * @param call - the call, or its preparation under way (one that rejects, a refusal of the caller's input,
   * ends the call with that error: nothing is sent).
   * @param slots - a list's shared request slots: each attempt waits for one (see {@link AttemptSlots}).
   * @param parent - the list iterated or the sync run the call is a page of: its span is a child of theirs,
   * its events go on the `page` channel, in their store. Without one, the call is a call of its own.
   * @throws CompanyDataError (a subclass) for every failure.
   */
  send(
    operation: SentOperation,
    call: CallRequest | Promise<CallRequest>,
    options: RequestOptions = {},
    slots?: AttemptSlots,
    parent?: Iteration,
  ): Promise<AnsweredCall> {
    return observe(this.#pipeline, operation, call, options, slots, parent);
  }

  /**
   * Reads a success response: see {@link readResponse}.
   *
   * @returns the result, or (for a body the compiled check refused) a promise that rejects with the description.
   * @throws InvalidResponseError when the body is not JSON or does not match the schema.
   */
  parse(answered: AnsweredCall): WithResponse<unknown> | Promise<WithResponse<unknown>> {
    return readResponse(answered, this.#config.validate);
  }
}

/**
 * Step 1, telemetry: opens the call's span (a page of `parent`: a child of its span) and publishes the call
 * on its tracing channel (a page of `parent`: on the `page` channel, in its store) when anything observes,
 * sends the call, and ends both once its response is in. With nothing observing: a property read and a
 * `hasSubscribers` read.
 */
function observe(
  pipeline: Pipeline,
  operation: SentOperation,
  call: CallRequest | Promise<CallRequest>,
  options: RequestOptions,
  slots: AttemptSlots | undefined,
  parent: Iteration | undefined,
): Promise<AnsweredCall> {
  const page = call instanceof Promise ? undefined : call.page;
  const telemetry =
    parent === undefined
      ? telemetrySink()?.start(spanName(operation), 'call', requestAttributes(operation, page))
      : parent.telemetry?.child(`${spanName(operation)} page`, 'page', requestAttributes(operation, page));
  const channel = subscribed(parent === undefined ? 'call' : 'page');
  if (channel === undefined && parent?.traced !== true) {
    return endedWith(telemetry, whenReady(pipeline, call, options, slots, telemetry, undefined));
  }
  const published: Published = { pipeline, operation, call, options, slots, telemetry, channel, page };
  return endedWith(
    telemetry,
    parent === undefined ? publish(published) : parent.run(() => publish(published)),
  );
}

/** A call observed on a tracing channel: what {@link publish} sends, and where. */
interface Published {
  readonly pipeline: Pipeline;
  readonly operation: SentOperation;
  readonly call: CallRequest | Promise<CallRequest>;
  readonly options: RequestOptions;
  readonly slots: AttemptSlots | undefined;
  readonly telemetry: CallTelemetry | undefined;
  /** The `call` channel (a call of its own) or the `page` channel, when something listens to it. */
  readonly channel: TracingChannelLike | undefined;
  readonly page: number | undefined;
}

/** Sends a call, published on its channel when something listens to it (else only in its iteration's store). */
function publish(published: Published): Promise<AnsweredCall> {
  const { pipeline, call, options, slots, telemetry, channel } = published;
  if (channel === undefined) return whenReady(pipeline, call, options, slots, telemetry, undefined);
  const context = callContext(published.operation, published.page);
  return traced<CallContext | PageContext, AnsweredCall>(channel, context, (settable) =>
    whenReady(pipeline, call, options, slots, telemetry, settable),
  );
}

/** Sends a call once it is ready (a refusal of its input rejects here, nothing sent). */
function whenReady(
  pipeline: Pipeline,
  call: CallRequest | Promise<CallRequest>,
  options: RequestOptions,
  slots: AttemptSlots | undefined,
  telemetry: CallTelemetry | undefined,
  context: Settable<CallContext | PageContext> | undefined,
): Promise<AnsweredCall> {
  if (!(call instanceof Promise)) return sendAttempts(pipeline, call, options, slots, telemetry, context);
  return call.then((ready) => sendAttempts(pipeline, ready, options, slots, telemetry, context));
}

/** A call on its way: what each step of its attempts reads, and what an attempt leaves for the next. */
interface Flight {
  readonly config: CoreConfig;
  readonly headers: CallHeaders;
  readonly call: CallRequest;
  readonly options: RequestOptions;
  readonly slots: AttemptSlots | undefined;
  /** The call's span and metrics, when an instrumentation is registered. */
  readonly telemetry: CallTelemetry | undefined;
  /** What every attempt sends: the request on the wire, its time limit, signal and label. */
  readonly request: AttemptRequest;
  /** The call's hedge, when it is hedged. */
  readonly hedge: HedgedRead | undefined;
  /** Makes the error of a call its caller aborted. */
  readonly aborted: () => RequestAbortedError;
  /** The operation by its path template, e.g. `GET /users/{id}/`, as events name it. */
  readonly operation: string;
  readonly maxRetries: number;
  /** The attempt under way: 1 for the first. */
  attempt: number;
  /** The HTTP status of the last attempt answered. */
  status: number | undefined;
  /** The last attempt met a 429: the gate's next wait is this call's own pause. */
  pausedHere: boolean;
}

/**
 * Step 2, the attempts of a ready call: a request slot (a list's), the rate gate, the attempt, and what its
 * answer decides, until an attempt is answered with success or the call fails.
 *
 * @param context - the call's context on its tracing channel: its attempts and last status are set there.
 */
async function sendAttempts(
  pipeline: Pipeline,
  call: CallRequest,
  options: RequestOptions,
  slots: AttemptSlots | undefined,
  telemetry: CallTelemetry | undefined,
  context: Settable<CallContext | PageContext> | undefined,
): Promise<AnsweredCall> {
  telemetry?.setAttributes(serverAttributes(call.url));
  const flight = takeOff(pipeline, call, options, slots, telemetry);
  try {
    for (;;) {
      flight.attempt++;
      // A list fetching pages ahead shares a few request slots between its pages: one per attempt, given
      // back before any backoff, so a page that waits to retry does not keep the others from going ahead.
      const release = slots === undefined ? undefined : await slots.acquire(flight.aborted);
      await passGate(flight, release);
      const trace = attemptTrace(call, flight.attempt);
      let response: AttemptResponse;
      try {
        response = await attempt(flight, trace);
      } catch (error) {
        release?.('failed');
        throwIfClosed(flight, error);
        if (!(error instanceof ConnectionError) || !retriesLeft(flight)) throw error;
        await backoff(flight, error);
        continue;
      }
      if (call.endpoint.successStatuses.includes(response.status)) {
        release?.('answered');
        trace?.settle();
        const outcome = flight.hedge?.outcome;
        return outcome === undefined ? { call, response } : { call, response, hedge: outcome };
      }
      const retryClass = classifyStatus(response.status);
      release?.(retryClass === 'rate_limit' ? 'rate_limited' : 'failed');
      if (retryClass === 'rate_limit') {
        await pauseForRateLimit(flight, response, trace);
        continue;
      }
      const error = errorOf(flight, response);
      trace?.settle(error);
      if (retryClass === 'never' || !retriesLeft(flight)) throw error;
      await backoff(flight, error);
    }
  } finally {
    recordAttempts(flight, context);
  }
}

/** A ready call's flight: its request made once (headers, body as text), its hedge and its limits. */
function takeOff(
  pipeline: Pipeline,
  call: CallRequest,
  options: RequestOptions,
  slots: AttemptSlots | undefined,
  telemetry: CallTelemetry | undefined,
): Flight {
  const { config, headers } = pipeline;
  const { endpoint } = call;
  const label = describeCall(call);
  const request: AttemptRequest = {
    method: endpoint.method,
    url: call.url,
    headers: headers.of(call, options),
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    timeout: options.timeout ?? config.timeout,
    signal: options.signal,
    label,
    baseURLSource: endpoint.base === 'baseURL' ? config.baseURLSource : undefined,
  };
  return {
    config,
    headers,
    call,
    options,
    slots,
    telemetry,
    request,
    hedge: hedgedRead(endpoint, options.hedge ?? config.hedge, config),
    // Made by a function, not an arrow in a const here: the build's keepNames would rename that arrow on
    // every call (an Object.defineProperty), and bind() names its function too.
    aborted: abortedError(label, options.signal),
    operation: `${endpoint.method} ${endpoint.path}`,
    maxRetries: options.maxRetries ?? config.maxRetries,
    attempt: 0,
    status: undefined,
    pausedHere: false,
  };
}

/**
 * Step: the rate gate. Waits until no pause is in force and, with a quota, a slot came (the slot of the
 * attempt is given back when the wait fails); a wait for a 429's pause is an event of the call's span.
 *
 * @throws ClientClosedError once the client is closed, and what the gate's wait throws (the caller's abort).
 */
async function passGate(flight: Flight, release: ReleaseSlot | undefined): Promise<void> {
  const { config, telemetry } = flight;
  // A pause the attempt meets at the gate: its own 429's, or one another request met (the SDK's own gate
  // says when it is paused; another gate, only this call's own pause is known).
  const held = telemetry !== undefined && (flight.pausedHere || isPaused(config.gate));
  const waitFrom = held ? config.now() : 0;
  try {
    await config.gate.wait(flight.options.signal, flight.aborted);
  } catch (error) {
    release?.('failed');
    throw error;
  }
  if (held) gateWaited(telemetry, config.now() - waitFrom, flight.attempt, flight.pausedHere);
  flight.pausedHere = false;
  throwIfClosed(flight);
}

/**
 * Step: one attempt, with the call's span active and published on the `attempt` channel when anything
 * observes; its duration is recorded, its answer or its failure set on its trace (the answer is judged by
 * the caller, which settles the trace then).
 *
 * @param trace - the attempt's events on the `attempt` channel, when something listens to it.
 * @returns the answer, whatever its status.
 * @throws what the transport threw (a connection failure, the deadline, the caller's abort).
 */
async function attempt(
  flight: Flight,
  trace: WorkTrace<AttemptContext> | undefined,
): Promise<AttemptResponse> {
  const { config, telemetry, call, hedge } = flight;
  const debug = config.logger.debugEnabled;
  if (debug) {
    const fields = { operation: flight.operation, url: call.shownUrl, attempt: flight.attempt };
    config.logger.debug(`company-data request ${flight.request.label}`, fields);
  }
  const started = debug || telemetry !== undefined ? performance.now() : 0;
  let response: AttemptResponse;
  try {
    // No arrow in a const on this path: the build's keepNames would rename it on every attempt.
    response = await (telemetry === undefined && trace === undefined
      ? sendAttempt(flight)
      : sendObserved(flight, trace));
  } catch (error) {
    trace?.settle(error);
    telemetry?.recordAttempt(performance.now() - started, { 'error.type': errorType(error) });
    throw error;
  }
  if (hedge?.outcome !== undefined) hedged(telemetry, hedge.outcome, flight.attempt);
  const { status } = response;
  flight.status = status;
  if (trace !== undefined) answeredAttempt(trace.context, status, hedge?.outcome);
  telemetry?.recordAttempt(performance.now() - started, { 'http.response.status_code': status });
  if (debug) {
    const durationMs = Math.round(performance.now() - started);
    config.logger.debug(`company-data response ${status} ${flight.request.label} in ${durationMs} ms`, {
      operation: flight.operation,
      url: call.shownUrl,
      attempt: flight.attempt,
      status,
      durationMs,
    });
  }
  return response;
}

/**
 * Step: the hedge. Sends one attempt through the call's hedge when it is hedged (a second copy past the
 * threshold, `request/hedged-read.ts`), else straight through the transport, which keeps its deadline.
 */
function sendAttempt(flight: Flight): Promise<AttemptResponse> {
  const { hedge, request } = flight;
  return hedge === undefined
    ? flight.config.transport.send(request)
    : hedge.send(request, flight.aborted, flight.attempt);
}

/**
 * {@link sendAttempt} with the call's span active, and published on the `attempt` channel: `start`, the
 * attempt's request with the stores bound to it active, `end`; the caller settles it once it judged the answer.
 */
function sendObserved(
  flight: Flight,
  trace: WorkTrace<AttemptContext> | undefined,
): Promise<AttemptResponse> {
  const { telemetry } = flight;
  if (trace === undefined) return (telemetry as CallTelemetry).run(() => sendAttempt(flight));
  return trace.begin(() =>
    telemetry === undefined ? sendAttempt(flight) : telemetry.run(() => sendAttempt(flight)),
  );
}

/**
 * Step: a 429. Pauses every request that goes through the client's gate (the client's own, or one shared
 * with other clients or processes) for the server's wait, or a backoff when it names none.
 *
 * @throws RateLimitError when the wait is over `maxRetryWait`, no retry is left, or `onRateLimit` vetoes.
 */
async function pauseForRateLimit(
  flight: Flight,
  response: AttemptResponse,
  trace: WorkTrace<AttemptContext> | undefined,
): Promise<void> {
  const { config, operation, attempt } = flight;
  const waitMs = rateLimitWaitMs(response.headers, errorDetail(response.body), config.now());
  const retryAfter = waitMs === undefined ? undefined : waitMs / 1000;
  const error = errorFromResponse(response, flight.request.label, retryAfter) as RateLimitError;
  trace?.settle(error);
  if (waitMs !== undefined && waitMs > config.maxRetryWait) {
    throw new RateLimitError(
      `${error.message}: the server asks to wait ${retryAfter} s, more than maxRetryWait (${config.maxRetryWait / 1000} s)`,
      retryAfter,
      { status: error.status, detail: error.detail, headers: error.headers, body: error.body },
    );
  }
  if (!retriesLeft(flight)) throw error;
  const delay = waitMs ?? backoffDelayMs(attempt - 1, config.random);
  const event: RateLimitEvent = { operation, attempt, waitMs: delay, retryAfter, error };
  if ((await config.onRateLimit?.(event)) === false) throw error;
  flight.telemetry?.recordPause(delay, {
    [TELEMETRY.attempt]: attempt,
    [TELEMETRY.retryAfter]: retryAfter,
  });
  // With a shared gate the pause reaches every client that shares it, not only this one.
  config.logger.warn(
    `company-data rate limited: pausing every request through the rate gate for ${delay} ms`,
    {
      operation,
      attempt,
      waitMs: delay,
    },
  );
  config.gate.pause(delay);
  flight.pausedHere = true;
}

/**
 * Step: a retry. Waits the backoff of a failed attempt (exponential, with full jitter) before the next one.
 *
 * @throws `error` when `onRetry` vetoes the retry; the caller's abort, when it comes during the wait.
 */
async function backoff(flight: Flight, error: CompanyDataError): Promise<void> {
  const { config, operation, attempt } = flight;
  const delayMs = backoffDelayMs(attempt - 1, config.random);
  if ((await config.onRetry?.({ operation, attempt, delayMs, error })) === false) throw error;
  flight.telemetry?.recordRetry(error.code, {
    [TELEMETRY.attempt]: attempt,
    [TELEMETRY.waitMs]: delayMs,
    'http.response.status_code': error.status,
  });
  config.logger.info(`company-data retrying after ${error.code} in ${delayMs} ms`, { operation, attempt });
  const { signal } = flight.options;
  await raceAbort(config.sleep(delayMs, signal), signal, flight.aborted);
}

/** Whether an attempt may follow the one under way. */
function retriesLeft(flight: Flight): boolean {
  return flight.attempt <= flight.maxRetries;
}

/** The error of an answer that is no success and no 429: its class for its status, with the hints it may need. */
function errorOf(flight: Flight, response: AttemptResponse): CompanyDataError {
  const { request, config } = flight;
  const hint = notFoundHint(flight.call.endpoint, response, config.baseURLSource);
  return errorFromResponse(
    response,
    request.label,
    undefined,
    flight.headers.keySource(request.headers),
    hint,
  );
}

/** After `close()`: a distinct error, so that retry logic never takes it for a network failure. */
function throwIfClosed(flight: Flight, cause?: unknown): void {
  if (!flight.config.transport.closed) return;
  throw new ClientClosedError(
    `The client is closed: close() was called before ${flight.request.label} could complete. Create a new CompanyData for more calls.`,
    { cause },
  );
}

/** The call ended: its attempts and the last status on its span and on its tracing context. */
function recordAttempts(flight: Flight, context: Settable<CallContext | PageContext> | undefined): void {
  const { attempt, status } = flight;
  flight.telemetry?.setAttributes({
    [TELEMETRY.attempts]: attempt,
    'http.request.resend_count': attempt > 1 ? attempt - 1 : undefined,
    'http.response.status_code': status,
  });
  if (context !== undefined) {
    context.attempts = attempt;
    context.status = status;
  }
}

/** Makes the error of a call its caller aborted, when asked. */
function abortedError(request: string, signal: AbortSignal | undefined): () => RequestAbortedError {
  return () => new RequestAbortedError(`Request aborted (${request})`, { cause: signal?.reason });
}

/** The attempt's events on the `attempt` tracing channel, when something listens to it. */
function attemptTrace(call: CallRequest, attempt: number): WorkTrace<AttemptContext> | undefined {
  const channel = subscribed('attempt');
  if (channel === undefined) return undefined;
  return new WorkTrace<AttemptContext>(channel, attemptContext(call.endpoint, attempt, call.page));
}

/** An attempt was answered: its status, and which copy decided it when it was hedged. */
function answeredAttempt(
  context: Settable<AttemptContext>,
  status: number,
  hedge: HedgeOutcome | undefined,
): void {
  context.status = status;
  if (hedge !== undefined) context.hedge = hedge.winner;
}

/** Whether a gate says it is paused for a 429 (the SDK's `RateGate` does; the interface does not ask it). */
function isPaused(gate: RateGateLike): boolean {
  return (gate as { readonly paused?: unknown }).paused === true;
}

/** An attempt waited at the rate gate for a 429's pause: this call's own, or one another request met. */
function gateWaited(telemetry: CallTelemetry, waitedMs: number, attempt: number, pausedHere: boolean): void {
  if (!(waitedMs > 0)) return;
  telemetry.recordEvent(TELEMETRY.gateWaitEvent, {
    [TELEMETRY.attempt]: attempt,
    [TELEMETRY.waitMs]: waitedMs,
    [TELEMETRY.waitCause]: pausedHere ? 'this_call' : 'other',
  });
}

/** A hedged read's second copy went out: an event saying which copy answered the attempt. */
function hedged(telemetry: CallTelemetry | undefined, outcome: HedgeOutcome, attempt: number): void {
  telemetry?.recordEvent(TELEMETRY.hedgeEvent, {
    [TELEMETRY.attempt]: attempt,
    [TELEMETRY.hedgeWinner]: outcome.winner,
    [TELEMETRY.hedgeAfterMs]: outcome.afterMs,
  });
}
