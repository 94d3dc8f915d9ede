import { type OperationId, type OperationMeta, RESPONSE_CHECKS } from '@company-data/contract/runtime';
import { toValidationIssues } from '../core/checks/issues.js';
import { endpointWithSchemas, loadZod } from '../core/checks/zod-on-demand.js';
import { ENVIRONMENT_VARIABLES } from '../core/environment.js';
import {
  ClientClosedError,
  type CompanyDataError,
  ConfigurationError,
  ConnectionError,
  InvalidResponseError,
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
import type { ResponseInfo, WithResponse } from '../core/response-info.js';
import type { SdkLogger } from '../core/scrubbed-logger.js';
import { type CallTelemetry, errorType, TELEMETRY } from '../core/telemetry/sink.js';
import { subscribed, WorkTrace } from '../core/telemetry/traced-work.js';
import type { AttemptContext, CallContext, PageContext } from '../core/telemetry/tracing-channels.js';
import { attemptContext, type Settable } from '../core/telemetry/tracing-contexts.js';
import { checkTheBaseURL } from './base-url-hint.js';
import { errorDetail, errorFromResponse, isApiErrorBody } from './error-from-response.js';
import type { HedgeBudget } from './hedge-budget.js';
import { type HedgedRead, hedgedRead } from './hedged-read.js';
import type { AttemptSlots } from './request-slots.js';
import type { ResponseTimes } from './response-times.js';
import { backoffDelayMs, classifyStatus, rateLimitWaitMs } from './retry.js';
import { raceAbort } from './sleep.js';
import type { AttemptRequest, AttemptResponse, Transport } from './transport.js';

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

/**
 * What the pipeline needs of an operation: a row of the contract's `OPERATIONS` (or of its endpoint
 * table, whose `operationId` is typed as a plain string).
 */
export type CallEndpoint = Pick<
  OperationMeta,
  'method' | 'path' | 'base' | 'auth' | 'kind' | 'successStatuses'
> & {
  readonly operationId: string;
};

// A request on its way down: an operation asks for a `CallRequest` (the endpoint, the URL, the body as a
// value); each attempt of it goes to the transport as an `AttemptRequest` (request/transport.ts: headers,
// the body as text, the time limit, the signal), which is the `WireRequest` that undici's `dispatch` sends
// (request/dispatch.ts), with those limits added. What comes back is an `AnsweredCall`: the call, with the
// attempt's response.

/** One call, ready to send. */
export interface CallRequest {
  endpoint: CallEndpoint;
  url: string;
  /** The URL as messages and logs show it: a webhook token in it is redacted. */
  shownUrl: string;
  body?: unknown;
  /** The page of a list it reads, for its attempts' tracing contexts. */
  page?: number | undefined;
}

/** A call with the response it got: what `core.send()` gives, before the body is read. */
export interface AnsweredCall {
  call: CallRequest;
  response: AttemptResponse;
  /** Which copy answered, when the last attempt was hedged. */
  hedge?: HedgeOutcome | undefined;
}

/** A call's method and URL (tokens redacted), as messages name it, e.g. `GET https://…/v1/users/`. */
function describe(call: CallRequest): string {
  return `${call.endpoint.method} ${call.shownUrl}`;
}

/** Makes the error of a call its caller aborted, when asked. */
function abortedError(request: string, signal: AbortSignal | undefined): () => RequestAbortedError {
  return () => new RequestAbortedError(`Request aborted (${request})`, { cause: signal?.reason });
}

/** Names one attempt of a call in events, messages and logs. */
interface Attempt {
  /** The operation by its path template, e.g. `GET /users/{id}/`, as events name it. */
  operation: string;
  /** Method and URL, as messages and logs name it. */
  request: string;
  /** 1 for the first. */
  attempt: number;
  /** The call's telemetry, when an instrumentation is registered. */
  telemetry: CallTelemetry | undefined;
  /** Its events on the `attempt` tracing channel, when something listens to it. */
  trace: WorkTrace<AttemptContext> | undefined;
}

/**
 * The one request pipeline every resource method goes through: addresses and auth from the endpoint
 * table, the shared rate gate, retries, error mapping and response validation.
 */
export class RequestCore {
  readonly #config: CoreConfig;
  #keyedHeaders: Record<string, string> | undefined;

  /** @param config - the resolved client configuration. */
  constructor(config: CoreConfig) {
    this.#config = config;
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
   * Sends a prepared call, with the retries and rate-limit pauses it needs, and returns the success
   * response, its body not yet read.
   *
   * @param slots - a list's shared request slots: each attempt waits for one (see {@link AttemptSlots}).
   * @param telemetry - the call's span and metrics: every attempt, retry and pause is recorded there, and
   * each attempt is sent with the span active. The caller ends it.
   * @param traced - the context of the call's or page's events on its tracing channel, when something
   * listens to it: its attempts and last status are set there. Each attempt is published on the `attempt`
   * channel when something listens to it.
   * @throws CompanyDataError (a subclass) for every failure.
   */
  async send(
    call: CallRequest,
    options: RequestOptions = {},
    slots?: AttemptSlots,
    telemetry?: CallTelemetry,
    traced?: Settable<CallContext | PageContext>,
  ): Promise<AnsweredCall> {
    const config = this.#config;
    const { endpoint } = call;
    const operation = `${endpoint.method} ${endpoint.path}`;
    const request = describe(call);
    const headers = this.#headers(call, options);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const maxRetries = options.maxRetries ?? config.maxRetries;
    const hedge = hedgedRead(endpoint, options.hedge ?? config.hedge, config);
    // Made by a function, not an arrow in a const here: the build's keepNames would rename that arrow on
    // every call (an Object.defineProperty), and bind() names its function too.
    const aborted = abortedError(request, options.signal);

    let attempt = 0;
    let status: number | undefined;
    /** This call met a 429 on its last attempt: the gate's next wait is its own pause. */
    let pausedHere = false;
    try {
      for (attempt = 1; ; attempt++) {
        // A list fetching pages ahead shares a few request slots between its pages: one per attempt, given
        // back before any backoff, so a page that waits to retry does not keep the others from going ahead.
        const release = slots === undefined ? undefined : await slots.acquire(aborted);
        // A pause the attempt meets at the gate: its own 429's, or one another request met (the SDK's own gate
        // says when it is paused; another gate, only this call's own pause is known).
        const held = telemetry !== undefined && (pausedHere || isPaused(config.gate));
        const waitFrom = held ? config.now() : 0;
        try {
          await config.gate.wait(options.signal, aborted);
        } catch (error) {
          release?.('failed');
          throw error;
        }
        if (held) gateWaited(telemetry, config.now() - waitFrom, attempt, pausedHere);
        pausedHere = false;
        this.#throwIfClosed(request);
        const trace = attemptTrace(call, attempt);
        const current: Attempt = { operation, request, attempt, telemetry, trace };
        const retriesLeft = attempt <= maxRetries;
        const debug = config.logger.debugEnabled;
        if (debug)
          config.logger.debug(`company-data request ${request}`, { operation, url: call.shownUrl, attempt });
        const started = debug || telemetry !== undefined ? performance.now() : 0;
        const sent = {
          method: endpoint.method,
          url: call.url,
          headers,
          body,
          timeout: options.timeout ?? config.timeout,
          signal: options.signal,
          label: request,
          baseURLSource: endpoint.base === 'baseURL' ? config.baseURLSource : undefined,
        };
        let response: AttemptResponse;
        try {
          // No arrow in a const on this path: the build's keepNames would rename it on every attempt.
          response = await (telemetry === undefined && trace === undefined
            ? this.#sendAttempt(sent, hedge, aborted, attempt)
            : this.#sendObserved(sent, hedge, aborted, current));
          if (hedge?.outcome !== undefined) hedged(telemetry, hedge.outcome, attempt);
        } catch (error) {
          trace?.settle(error);
          telemetry?.recordAttempt(performance.now() - started, { 'error.type': errorType(error) });
          release?.('failed');
          this.#throwIfClosed(request, error);
          if (!(error instanceof ConnectionError) || !retriesLeft) throw error;
          await this.#backoff(error, current, options.signal, aborted);
          continue;
        }
        status = response.status;
        if (trace !== undefined) answeredAttempt(trace.context, status, hedge?.outcome);
        telemetry?.recordAttempt(performance.now() - started, { 'http.response.status_code': status });
        if (debug) {
          const durationMs = Math.round(performance.now() - started);
          config.logger.debug(`company-data response ${response.status} ${request} in ${durationMs} ms`, {
            operation,
            url: call.shownUrl,
            attempt,
            status: response.status,
            durationMs,
          });
        }
        if (endpoint.successStatuses.includes(response.status)) {
          release?.('answered');
          trace?.settle();
          return hedge?.outcome === undefined ? { call, response } : { call, response, hedge: hedge.outcome };
        }

        const retryClass = classifyStatus(response.status);
        release?.(retryClass === 'rate_limit' ? 'rate_limited' : 'failed');
        if (retryClass === 'rate_limit') {
          await this.#pauseForRateLimit(response, current, retriesLeft);
          pausedHere = true;
          continue;
        }
        const error = errorFromResponse(
          response,
          request,
          undefined,
          this.#keySource(headers),
          this.#notFoundHint(endpoint, response),
        );
        trace?.settle(error);
        if (retryClass === 'never' || !retriesLeft) throw error;
        await this.#backoff(error, current, options.signal, aborted);
      }
    } finally {
      telemetry?.setAttributes({
        [TELEMETRY.attempts]: attempt,
        'http.request.resend_count': attempt > 1 ? attempt - 1 : undefined,
        'http.response.status_code': status,
      });
      if (traced !== undefined) {
        traced.attempts = attempt;
        traced.status = status;
      }
    }
  }

  /**
   * Sends one attempt with the call's span active, and published on the `attempt` channel: `start`, the
   * attempt's request with the stores bound to it active, `end`; the core settles it once it judged the answer.
   */
  #sendObserved(
    sent: AttemptRequest,
    hedge: HedgedRead | undefined,
    aborted: () => Error,
    current: Attempt,
  ): Promise<AttemptResponse> {
    const { telemetry, trace, attempt } = current;
    if (trace === undefined) {
      return (telemetry as CallTelemetry).run(() => this.#sendAttempt(sent, hedge, aborted, attempt));
    }
    return trace.begin(() =>
      telemetry === undefined
        ? this.#sendAttempt(sent, hedge, aborted, attempt)
        : telemetry.run(() => this.#sendAttempt(sent, hedge, aborted, attempt)),
    );
  }

  /** Sends one attempt: through the hedge when the call is hedged, else straight through the transport. */
  #sendAttempt(
    sent: AttemptRequest,
    hedge: HedgedRead | undefined,
    aborted: () => Error,
    attempt: number,
  ): Promise<AttemptResponse> {
    return hedge === undefined ? this.#config.transport.send(sent) : hedge.send(sent, aborted, attempt);
  }

  /**
   * Reads a success response: JSON, checked against the endpoint's schema unless validation is off. The
   * compiled check decides (a few µs for a page), and a body it accepts is returned as it is, with no
   * promise: a call's result is one step nearer. zod, the source of truth, is loaded only to describe a body
   * the check refused.
   *
   * @returns the result, or (for a body the check refused) a promise that rejects with the description.
   * @throws InvalidResponseError when the body is not JSON or does not match the schema.
   */
  parse(answered: AnsweredCall): WithResponse<unknown> | Promise<WithResponse<unknown>> {
    const { call, response } = answered;
    const info: ResponseInfo = { status: response.status, headers: response.headers };
    if (answered.hedge !== undefined) info.hedge = answered.hedge;
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch (cause) {
      throw new InvalidResponseError(`Response body is not JSON (${describe(call)})`, [], {
        ...info,
        body: response.body,
        cause,
      });
    }
    if (!this.#config.validate || RESPONSE_CHECKS[call.endpoint.operationId as OperationId]?.(json)) {
      return { data: json, response: info };
    }
    return this.#describeRefusal(call, json, info);
  }

  /** A body the compiled check refused, as zod describes it (zod may yet accept it: then its output). */
  async #describeRefusal(
    call: CallRequest,
    json: unknown,
    info: ResponseInfo,
  ): Promise<WithResponse<unknown>> {
    const [{ response: schema }, { z }] = await Promise.all([
      endpointWithSchemas(call.endpoint.operationId as OperationId),
      loadZod(),
    ]);
    const result = schema.safeParse(json);
    if (!result.success) {
      throw new InvalidResponseError(
        `Response does not match the schema (${describe(call)}): ${z.prettifyError(result.error)}`,
        toValidationIssues(result.error.issues),
        { ...info, body: json },
      );
    }
    return { data: result.data, response: info };
  }

  /**
   * A 429: pauses every request that goes through the client's gate (the client's own, or one shared with
   * other clients or processes) for the server's wait, or a backoff when it names none.
   *
   * @throws RateLimitError when the wait is over `maxRetryWait`, no retry is left, or `onRateLimit` vetoes.
   */
  async #pauseForRateLimit(response: AttemptResponse, current: Attempt, retriesLeft: boolean): Promise<void> {
    const config = this.#config;
    const { operation, request, attempt } = current;
    const waitMs = rateLimitWaitMs(response.headers, errorDetail(response.body), config.now());
    const retryAfter = waitMs === undefined ? undefined : waitMs / 1000;
    const error = errorFromResponse(response, request, retryAfter) as RateLimitError;
    current.trace?.settle(error);
    if (waitMs !== undefined && waitMs > config.maxRetryWait) {
      throw new RateLimitError(
        `${error.message}: the server asks to wait ${retryAfter} s, more than maxRetryWait (${config.maxRetryWait / 1000} s)`,
        retryAfter,
        { status: error.status, detail: error.detail, headers: error.headers, body: error.body },
      );
    }
    if (!retriesLeft) throw error;
    const delay = waitMs ?? backoffDelayMs(attempt - 1, config.random);
    const event: RateLimitEvent = { operation, attempt, waitMs: delay, retryAfter, error };
    if ((await config.onRateLimit?.(event)) === false) throw error;
    current.telemetry?.recordPause(delay, {
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
  }

  /** After `close()`: a distinct error, so that retry logic never takes it for a network failure. */
  #throwIfClosed(request: string, cause?: unknown): void {
    if (!this.#config.transport.closed) return;
    throw new ClientClosedError(
      `The client is closed: close() was called before ${request} could complete. Create a new CompanyData for more calls.`,
      { cause },
    );
  }

  #headers(call: CallRequest, options: RequestOptions): Readonly<Record<string, string>> {
    const plain = call.body === undefined && options.headers === undefined;
    // Most calls send the client's headers unchanged: built once and shared (the transport never changes them).
    if (!plain || call.endpoint.auth !== 'apiKey') return this.#buildHeaders(call, options);
    this.#keyedHeaders ??= this.#buildHeaders(call, options);
    return this.#keyedHeaders;
  }

  /**
   * Why a 404 may mean a wrong base URL, for its message: a list never answers 404 (a page past the last is
   * an empty page), and the API's 404 of an unknown id is its own JSON error; a 404 of anything else under
   * the base URL (a gateway's or another server's page) most likely comes from a path that is not the API's,
   * such as `/api/v1` for `/v1`. The API's JSON 404 on a by-id call says nothing: the id may be unknown.
   */
  #notFoundHint(endpoint: CallEndpoint, response: AttemptResponse): string | undefined {
    const source = this.#config.baseURLSource;
    if (response.status !== 404 || endpoint.base !== 'baseURL' || source === undefined) return undefined;
    if (endpoint.kind === 'list') return `a list never answers 404: ${checkTheBaseURL('path', source)}`;
    if (isApiErrorBody(response)) return undefined;
    return `not the API's own error: ${checkTheBaseURL('path', source)}`;
  }

  /** Where the key a request sent came from, in words: the client's setting, or a header the caller set. */
  #keySource(headers: Readonly<Record<string, string>>): string | undefined {
    const sent = headers.authorization;
    if (sent === undefined) return undefined;
    return sent === `Bearer ${this.#config.apiKey}`
      ? this.#config.apiKeySource
      : 'the `authorization` header you set';
  }

  #buildHeaders(call: CallRequest, options: RequestOptions): Record<string, string> {
    const config = this.#config;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': config.userAgent };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.endpoint.auth === 'apiKey') {
      if (!config.apiKey) {
        throw new ConfigurationError(
          'missing_api_key',
          `No API key: pass \`apiKey\` to new CompanyData() or set the ${ENVIRONMENT_VARIABLES.apiKey} environment variable.`,
        );
      }
      headers.authorization = `Bearer ${config.apiKey}`;
    }
    return { ...headers, ...lowerCaseKeys(config.defaultHeaders), ...lowerCaseKeys(options.headers) };
  }

  async #backoff(
    error: CompanyDataError,
    current: Attempt,
    signal: AbortSignal | undefined,
    aborted: () => Error,
  ): Promise<void> {
    const config = this.#config;
    const { operation, attempt } = current;
    const delayMs = backoffDelayMs(attempt - 1, config.random);
    if ((await config.onRetry?.({ operation, attempt, delayMs, error })) === false) throw error;
    current.telemetry?.recordRetry(error.code, {
      [TELEMETRY.attempt]: attempt,
      [TELEMETRY.waitMs]: delayMs,
      'http.response.status_code': error.status,
    });
    config.logger.info(`company-data retrying after ${error.code} in ${delayMs} ms`, { operation, attempt });
    await raceAbort(config.sleep(delayMs, signal), signal, aborted);
  }
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

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) result[name.toLowerCase()] = value;
  return result;
}
