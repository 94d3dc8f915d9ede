import { API_VERSION_PREFIX, baseUrlNear, baseUrlOf, isLoopbackHost } from '@company-data/contract/runtime';
import { Agent, type Dispatcher } from 'undici';
import { ConnectionError, RequestAbortedError, type ResponseHeaders, TimeoutError } from '../core/errors.js';
import type { FetchLike } from '../core/options.js';
import { runtimeFetch } from '../core/runtime-env.js';
import { checkTheBaseURL } from './base-url-hint.js';
import { DEADLINE_TOLERANCE_MS, DeadlinePassed, DeadlineTicker } from './deadline.js';
import { dispatchRequest, type WireRequest, type WireResponse } from './dispatch.js';

/**
 * One attempt as the transport sends it: the request that goes on the wire (method, URL, headers shared by
 * the client's calls and never changed, the body as text), with its time limit, signal and label.
 */
export interface AttemptRequest extends WireRequest {
  /** Per-attempt time limit in ms (how it is kept: see {@link Transport}). */
  readonly timeout: number;
  /** The caller's signal. */
  readonly signal?: AbortSignal | undefined;
  /** Names the request in error messages: method and URL, webhook tokens redacted. */
  readonly label: string;
  /** Where the base URL came from, in words, when the URL is under it: a connection failure's hint names it. */
  readonly baseURLSource?: string | undefined;
}

/** An attempt's complete response, its body read and its headers as the SDK gives them. */
export interface AttemptResponse {
  status: number;
  headers: ResponseHeaders;
  body: string;
}

/**
 * Attempt limits from this long up are kept, in the pool the transport owns, by one coarse timer shared
 * by every attempt in flight and by undici's own timers. Both are coarse (they fire up to
 * {@link DEADLINE_TOLERANCE_MS} late), which a limit of ten seconds or more can afford; it is also
 * undici's own limit on opening a connection, so connecting stays bounded as before.
 */
export const POOL_TIMED_FROM_MS = 10_000;

/** undici's codes for its own time limits: the response headers, and a pause in the body. */
const POOL_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Sends requests with undici through a keep-alive connection pool (or the caller's dispatcher or `fetch`;
 * on Bun and Deno, the runtime's `fetch`) and turns transport failures into the SDK's errors: {@link TimeoutError}, {@link RequestAbortedError},
 * {@link ConnectionError}.
 *
 * The attempt's time limit bounds the whole attempt, kept one of two ways. In the pool the transport
 * owns, a limit of {@link POOL_TIMED_FROM_MS} or more is kept by a {@link DeadlineTicker} (one coarse
 * timer for every attempt in flight, ending those past their deadline, e.g. a body that trickles in) and
 * by undici's `headersTimeout`/`bodyTimeout`: no AbortController and timer per request, which cost about
 * a tenth of a small request's time; the attempt ends at most {@link DEADLINE_TOLERANCE_MS} late. A
 * shorter limit, or a dispatcher or `fetch` of the caller's (which may not honour undici's options), gets
 * an exact deadline from an AbortController and a timer.
 */
export class Transport {
  readonly #dispatcher: Dispatcher | undefined;
  readonly #ownsDispatcher: boolean;
  readonly #fetch: FetchLike | undefined;
  readonly #deadlines = new DeadlineTicker();
  #closing: Promise<void> | undefined;

  /**
   * @param dispatcher - the caller's dispatcher; when absent the transport creates (and owns) a pool.
   * @param fetchImpl - send through this `fetch` instead of undici (e.g. one that msw intercepts).
   * Without either, Bun and Deno send through their own `fetch` (see {@link runtimeFetch}).
   */
  constructor(dispatcher?: Dispatcher, fetchImpl?: FetchLike) {
    this.#fetch = fetchImpl ?? (dispatcher === undefined ? runtimeFetch() : undefined);
    this.#ownsDispatcher = dispatcher === undefined && this.#fetch === undefined;
    this.#dispatcher =
      dispatcher ??
      (this.#ownsDispatcher
        ? new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 })
        : undefined);
  }

  /**
   * Sends one attempt and reads the whole body, within its deadline: kept in the pool this transport owns
   * for a limit of {@link POOL_TIMED_FROM_MS} or more ({@link sendInPool}), else by a timer of its own
   * ({@link sendWithDeadline}).
   */
  send(input: AttemptRequest): Promise<AttemptResponse> {
    if (!this.#ownsDispatcher || input.timeout < POOL_TIMED_FROM_MS) {
      return sendWithDeadline(input, this.#dispatcher, this.#fetch);
    }
    return sendInPool(input, this.#dispatcher as Dispatcher, this.#deadlines);
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** Closes the pool the transport created; a dispatcher passed in by the caller is left open. */
  async close(): Promise<void> {
    this.#closing ??= this.#ownsDispatcher ? (this.#dispatcher as Dispatcher).close() : Promise.resolve();
    await this.#closing;
  }
}

/**
 * Sends an attempt through the pool the transport owns, its deadline kept by the shared coarse ticker and
 * by undici's own `headersTimeout` and `bodyTimeout` (no timer and no AbortController of its own).
 */
async function sendInPool(
  input: AttemptRequest,
  dispatcher: Dispatcher,
  deadlines: DeadlineTicker,
): Promise<AttemptResponse> {
  const signal = deadlines.watch(input.timeout, input.signal);
  try {
    return received(await dispatchRequest(dispatcher, input, signal, input.timeout));
  } catch (error) {
    const code = errorCode(error);
    const timedOut =
      signal.reason instanceof DeadlinePassed || (code !== undefined && POOL_TIMEOUTS.has(code));
    throw failure(error, input, timedOut);
  } finally {
    deadlines.release(signal);
  }
}

/**
 * Sends an attempt through the caller's dispatcher or `fetch` (or a short limit through the pool): one
 * exact deadline for the whole attempt, a timer and an AbortController of its own.
 */
async function sendWithDeadline(
  input: AttemptRequest,
  dispatcher: Dispatcher | undefined,
  fetchImpl: FetchLike | undefined,
): Promise<AttemptResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlinePassed()), input.timeout);
  const forwardAbort = () => controller.abort(input.signal?.reason);
  input.signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    if (input.signal?.aborted) forwardAbort();
    if (fetchImpl) return await sendWithFetch(fetchImpl, input, controller.signal);
    return received(await dispatchRequest(dispatcher as Dispatcher, input, controller.signal));
  } catch (error) {
    throw failure(error, input, controller.signal.reason instanceof DeadlinePassed);
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', forwardAbort);
  }
}

/** The SDK's error for a failed attempt: its time limit, the caller's abort, or the connection. */
function failure(error: unknown, input: AttemptRequest, timedOut: boolean): Error {
  if (timedOut) {
    return new TimeoutError(`Request timed out after ${input.timeout} ms (${input.label})`, { cause: error });
  }
  if (input.signal?.aborted) {
    return new RequestAbortedError(`Request aborted (${input.label})`, { cause: input.signal.reason });
  }
  return new ConnectionError(
    `Connection failed: ${connectionFailure(error, input.url, input.baseURLSource)} (${input.label})`,
    {
      cause: error,
    },
  );
}

async function sendWithFetch(
  fetchImpl: FetchLike,
  input: AttemptRequest,
  signal: AbortSignal,
): Promise<AttemptResponse> {
  const response = await fetchImpl(input.url, {
    method: input.method,
    // A copy: the headers object may be shared by the client's calls, and a fetch of the caller's may change it.
    headers: { ...input.headers },
    body: input.body ?? null,
    signal,
  });
  const body = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body };
}

// OpenSSL's answer when the bytes that came back are no TLS record: most often a plain-HTTP server.
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);

/** Why a connection failed, in words: the error's message, and the likely cause when it is a known mistake. */
function connectionFailure(error: unknown, url: string, baseURLSource: string | undefined): string {
  const reason = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  const target = new URL(url);
  if (code === 'ECONNREFUSED' && isLoopbackHost(target.hostname)) {
    return `nothing listens on ${target.host} (${code}): start the mock server (npx company-data-mock --port ${target.port || 80}), or fix the port in the base URL`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const check =
      baseURLSource === undefined ? 'check the host of the URL' : checkTheBaseURL('host', baseURLSource);
    return code === 'ENOTFOUND'
      ? `the host ${target.hostname} was not found (${code}): ${check}`
      : `the host ${target.hostname} could not be looked up (${code}, no answer from DNS): check the network; ${check}`;
  }
  if (code === undefined || !NOT_TLS.has(code)) return reason;
  target.protocol = 'http:';
  const plainHttp = target.pathname.includes(`${API_VERSION_PREFIX}/`)
    ? baseUrlNear(target)
    : baseUrlOf(target.origin);
  return `the TLS handshake failed (${code}): the server most likely speaks plain HTTP, not HTTPS; if so, use ${plainHttp} as the base URL`;
}

/** The first string `code` along an error's chain of causes (undici's own, or fetch's `cause`). */
function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; depth < 4; depth++) {
    if (typeof current !== 'object' || current === null) return undefined;
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    current = cause;
  }
  return undefined;
}

/** A response as the transport hands it on. */
function received({ status, headers, body }: WireResponse): AttemptResponse {
  return { status, headers: normaliseHeaders(headers), body };
}

/**
 * The response headers as the SDK gives them: lower-case names, one string each (repeated headers joined
 * with `, `). undici's own object is already that unless a header came more than once, so it is handed on
 * as it is, with no copy per response.
 */
function normaliseHeaders(raw: Record<string, string | string[] | undefined>): ResponseHeaders {
  for (const name in raw) {
    if (typeof raw[name] !== 'string' || name.toLowerCase() !== name) return copyHeaders(raw);
  }
  return raw as ResponseHeaders;
}

function copyHeaders(raw: Record<string, string | string[] | undefined>): ResponseHeaders {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
