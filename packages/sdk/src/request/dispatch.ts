import type { Dispatcher } from 'undici';

// One request through undici's `dispatch`, its body collected whole. The SDK reads every body whole before
// parsing it, so it needs none of what `undici.request()` builds around a response for streaming: a Node
// Readable for the body, and the async resource, listeners and buffering behind it. Leaving those out
// costs less per request than the rest of the SDK adds (bench figure 1). The core behind `dispatch` is the
// same: the pool, its time limits, content-length checks and diagnostics channels (which OpenTelemetry's
// undici instrumentation reads) all apply.

/**
 * What can end a dispatched request early: an AbortSignal, or anything with its `aborted`, `reason` and one `abort`
 * listener (the transport's `AttemptSignal`).
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A request as it goes on the wire: what {@link dispatchRequest} sends. */
export interface WireRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

/** A response with its body read as text; headers as undici parses them. */
export interface WireResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * Sends one request through `dispatcher` and reads the whole response.
 *
 * @param dispatcher - any undici dispatcher: the transport's pool, or the caller's (the mock's in-process
 * dispatcher, a proxy agent, an interceptor chain).
 * @param request - what to send.
 * @param abort - ends the request when it fires; the promise then rejects with its reason.
 * @param poolTimeout - undici's limit on the wait for the response headers, and for each piece of the body
 * (its `headersTimeout` and `bodyTimeout`); its own defaults when absent.
 * @returns the response; rejects with undici's error (or the abort's reason) when the request fails.
 */
export function dispatchRequest(
  dispatcher: Dispatcher,
  request: WireRequest,
  abort: AbortSignalLike,
  poolTimeout?: number,
): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    if (abort.aborted) {
      reject(abort.reason);
      return;
    }
    const { origin, path } = requestTarget(request.url);
    const collector = new ResponseCollector(resolve, reject, abort);
    dispatcher.dispatch(
      {
        origin,
        path,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        headersTimeout: poolTimeout,
        bodyTimeout: poolTimeout,
      },
      collector,
    );
  });
}

/**
 * Collects one response for {@link dispatchRequest}: undici's handler interface, forwarding the abort
 * source to the request's controller (at once when it fires before the request starts).
 */
class ResponseCollector implements Dispatcher.DispatchHandler {
  readonly #resolve: (response: WireResponse) => void;
  readonly #reject: (error: unknown) => void;
  readonly #abort: AbortSignalLike;
  readonly #onAbort: () => void;
  #controller: Dispatcher.DispatchController | undefined;
  #status = 0;
  #headers: Record<string, string | string[] | undefined> = {};
  #chunks: Buffer[] = [];

  constructor(
    resolve: (response: WireResponse) => void,
    reject: (error: unknown) => void,
    abort: AbortSignalLike,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#abort = abort;
    this.#onAbort = () => this.#controller?.abort(abort.reason as Error);
    abort.addEventListener('abort', this.#onAbort);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#abort.aborted) controller.abort(this.#abort.reason as Error);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // An informational answer (1xx) comes before the response itself.
    if (status < 200) return;
    this.#status = status;
    this.#headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.#abort.removeEventListener('abort', this.#onAbort);
    const chunks = this.#chunks;
    const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
    // As undici's `body.text()` reads it: a UTF-8 byte order mark is not part of the text.
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    this.#resolve({ status: this.#status, headers: this.#headers, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#abort.removeEventListener('abort', this.#onAbort);
    this.#reject(error);
  }
}

/** An origin `new URL()` wrote, whose URLs (written the same way) can be split without it. */
let knownOrigin = '';

/**
 * A path and query the URL parser would leave as they are: printable ASCII without the characters it
 * encodes or reads (space, `"`, `#`, `'`, `<`, `>`, `\`, backtick, `{`, `}`), no empty query for it to drop
 * (a trailing `?`), and no dot segment to resolve.
 */
const PLAIN_PATH = /^\/[!$-&(-;=?-[\]-_a-z|~]*(?<!\?)$/;

/**
 * The origin and path of a URL, as `dispatch` takes them. The SDK's own URLs start with an origin the URL
 * parser already wrote and carry an encoded path: those are split as strings (`new URL()` costs about a
 * microsecond a request); any other is parsed.
 *
 * @param url - an absolute http(s) URL.
 * @returns its origin (`http://host:port`) and its path with the query string.
 */
export function requestTarget(url: string): { origin: string; path: string } {
  if (knownOrigin !== '' && url.startsWith(knownOrigin) && url.charCodeAt(knownOrigin.length) === 47) {
    const path = url.slice(knownOrigin.length);
    // `/.` may start a dot segment: rare enough in the SDK's URLs to leave every one to the parser.
    if (PLAIN_PATH.test(path) && !path.includes('/.')) return { origin: knownOrigin, path };
  }
  const parsed = new URL(url);
  if (url.startsWith(`${parsed.origin}/`)) knownOrigin = parsed.origin;
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}
