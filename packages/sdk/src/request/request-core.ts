import type { OperationMeta } from '@company-data/contract/runtime';
import { ENVIRONMENT_VARIABLES } from '../core/environment.js';
import {
  type CompanyDataError,
  ConfigurationError,
  ConnectionError,
  RateLimitError,
} from '../core/errors.js';
import type { Logger } from '../core/logger-interface.js';
import type { RateLimitEvent, RequestOptions } from '../core/options.js';
import type { WithResponse } from '../core/response-info.js';
import { endedWith, requestAttributes, serverAttributes, spanName } from '../core/telemetry/call-spans.js';
import type { Iteration } from '../core/telemetry/iteration.js';
import { type CallTelemetry, errorType, TELEMETRY, telemetrySink } from '../core/telemetry/sink.js';
import {
  subscribed,
  type TracingChannelLike,
  traced,
  type WorkTrace,
} from '../core/telemetry/traced-work.js';
import type { AttemptContext, CallContext, PageContext } from '../core/telemetry/tracing-channels.js';
import { callContext, type Settable } from '../core/telemetry/tracing-contexts.js';
import {
  answeredAttempt,
  attemptTrace,
  gateWaited,
  hedged,
  isPaused,
  recordAttempts,
} from './attempt-telemetry.js';
import { CallHeaders } from './call-headers.js';
import type { AnsweredCall, CallRequest } from './call-request.js';
import { errorDetail, errorFromResponse } from './error-from-response.js';
import {
  type CoreConfig,
  errorOf,
  type Flight,
  type Pipeline,
  retriesLeft,
  takeOff,
  throwIfClosed,
} from './flight.js';
import type { AttemptSlots, ReleaseSlot } from './request-slots.js';
import { readResponse } from './response-body.js';
import { backoffDelayMs, classifyStatus, rateLimitWaitMs } from './retry.js';
import { raceAbort } from './sleep.js';
import type { AttemptResponse } from './transport.js';

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

/** The operation a call reads or writes, as its span and its tracing contexts name it. */
type SentOperation = Pick<OperationMeta, 'operationId' | 'method' | 'path'>;

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
