import { ClientClosedError, type CompanyDataError, RequestAbortedError } from '../core/errors.js';
import type {
  HedgeOptions,
  RateLimitEvent,
  RequestOptions,
  RetryEvent,
  RetryHook,
  Sleep,
} from '../core/options.js';
import type { RateGateLike } from '../core/rate-gate-interface.js';
import type { SdkLogger } from '../core/scrubbed-logger.js';
import type { CallTelemetry } from '../core/telemetry/sink.js';
import type { CallHeaders } from './call-headers.js';
import { type CallRequest, describeCall } from './call-request.js';
import { errorFromResponse, notFoundHint } from './error-from-response.js';
import type { HedgeBudget } from './hedge-budget.js';
import { type HedgedRead, hedgedRead } from './hedged-read.js';
import type { AttemptSlots } from './request-slots.js';
import type { ResponseTimes } from './response-times.js';
import type { AttemptRequest, AttemptResponse, Transport } from './transport.js';

// A call on its way through the request core (`request-core.ts`): what the client gives every call, and
// what each call carries from one step to the next.

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

/** What every call of a client is sent with: its configuration, and the headers its calls share. */
export interface Pipeline {
  readonly config: CoreConfig;
  readonly headers: CallHeaders;
}

/** A call on its way: what each step of its attempts reads, and what an attempt leaves for the next. */
export interface Flight {
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

/** A ready call's flight: its request made once (headers, body as text), its hedge and its limits. */
export function takeOff(
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

/** Whether an attempt may follow the one under way. */
export function retriesLeft(flight: Flight): boolean {
  return flight.attempt <= flight.maxRetries;
}

/** The error of an answer that is no success and no 429: its class for its status, with the hints it may need. */
export function errorOf(flight: Flight, response: AttemptResponse): CompanyDataError {
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
export function throwIfClosed(flight: Flight, cause?: unknown): void {
  if (!flight.config.transport.closed) return;
  throw new ClientClosedError(
    `The client is closed: close() was called before ${flight.request.label} could complete. Create a new CompanyData for more calls.`,
    { cause },
  );
}

/** Makes the error of a call its caller aborted, when asked. */
function abortedError(request: string, signal: AbortSignal | undefined): () => RequestAbortedError {
  return () => new RequestAbortedError(`Request aborted (${request})`, { cause: signal?.reason });
}
