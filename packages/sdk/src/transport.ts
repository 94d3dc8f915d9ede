import { Agent, type Dispatcher, request } from 'undici';
import { ConnectionError, RequestAbortedError, type ResponseHeaders, TimeoutError } from './errors.js';

/** One HTTP exchange as the transport sends it. */
export interface TransportRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** Per-attempt time limit in ms, covering the response body too. */
  timeout: number;
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  /** Names the request in error messages: method and URL, webhook tokens redacted. */
  label: string;
}

/** A complete response with its body read. */
export interface TransportResponse {
  status: number;
  headers: ResponseHeaders;
  body: string;
}

class Timeout extends Error {}

/**
 * The part of the WHATWG `fetch` the SDK uses: Node's global `fetch`, or any compatible function (for
 * example one that msw's `setupServer` intercepts).
 */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | null; signal: AbortSignal },
) => Promise<{
  status: number;
  headers: {
    /** Calls `callback` once per response header. */
    forEach(callback: (value: string, name: string) => void): void;
  };
  /** Reads the whole body as text. */
  text(): Promise<string>;
}>;

/**
 * Sends requests with undici through a keep-alive connection pool (or the caller's dispatcher) and
 * turns transport failures into the SDK's errors: {@link TimeoutError}, {@link RequestAbortedError},
 * {@link ConnectionError}.
 */
export class Transport {
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #fetch: FetchLike | undefined;
  #closing: Promise<void> | undefined;

  /**
   * @param dispatcher - the caller's dispatcher; when absent the transport creates (and owns) a pool.
   * @param fetchImpl - send through this `fetch` instead of undici (e.g. one that msw intercepts).
   */
  constructor(dispatcher?: Dispatcher, fetchImpl?: FetchLike) {
    this.#fetch = fetchImpl;
    this.#ownsDispatcher = dispatcher === undefined && fetchImpl === undefined;
    this.#dispatcher = dispatcher ?? new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
  }

  /** Sends one request and reads the whole body. */
  async send(input: TransportRequest): Promise<TransportResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Timeout()), input.timeout);
    const forwardAbort = () => controller.abort(input.signal?.reason);
    input.signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      if (input.signal?.aborted) forwardAbort();
      if (this.#fetch) return await sendWithFetch(this.#fetch, input, controller.signal);
      const response = await request(input.url, {
        method: input.method,
        headers: input.headers,
        body: input.body ?? null,
        dispatcher: this.#dispatcher,
        signal: controller.signal,
      });
      const body = await response.body.text();
      return { status: response.statusCode, headers: normaliseHeaders(response.headers), body };
    } catch (error) {
      if (controller.signal.reason instanceof Timeout) {
        throw new TimeoutError(`Request timed out after ${input.timeout} ms (${input.label})`, {
          cause: error,
        });
      }
      if (input.signal?.aborted) {
        throw new RequestAbortedError(`Request aborted (${input.label})`, { cause: input.signal.reason });
      }
      throw new ConnectionError(
        `Connection failed: ${connectionFailure(error, input.url)} (${input.label})`,
        {
          cause: error,
        },
      );
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** Closes the pool the transport created; a dispatcher passed in by the caller is left open. */
  async close(): Promise<void> {
    this.#closing ??= this.#ownsDispatcher ? this.#dispatcher.close() : Promise.resolve();
    await this.#closing;
  }
}

async function sendWithFetch(
  fetchImpl: FetchLike,
  input: TransportRequest,
  signal: AbortSignal,
): Promise<TransportResponse> {
  const response = await fetchImpl(input.url, {
    method: input.method,
    headers: input.headers,
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
function connectionFailure(error: unknown, url: string): string {
  const reason = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  if (code === undefined || !NOT_TLS.has(code)) return reason;
  const plainHttp = new URL(url.replace(/^https:/i, 'http:')).origin;
  return `the TLS handshake failed (${code}): the server most likely speaks plain HTTP, not HTTPS; if so, use ${plainHttp} in the base URL`;
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

function normaliseHeaders(raw: Record<string, string | string[] | undefined>): ResponseHeaders {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
