import { errorType } from './sink.js';

// What the SDK publishes on Node's `diagnostics_channel` tracing channels, for any APM to subscribe to
// without depending on the SDK or OpenTelemetry: the channels' names and the shape of the context object
// each event carries. The publishing itself is `traced-work.ts`.

/**
 * The SDK's tracing channels, by the kind of work each traces: names for
 * `diagnostics_channel.tracingChannel()`, which publishes each one's events on `tracing:<name>:start`,
 * `…:end`, `…:asyncStart`, `…:asyncEnd` and `…:error`.
 *
 * - `call`: one call on its own, all its attempts: a retrieve, a webhook POST, a list's first page awaited
 *   alone, `page.getNextPage()`. Context: {@link CallContext}.
 * - `attempt`: each attempt of a call or of a page, retries included; a hedged attempt is one attempt, both
 *   its copies sent inside it. Context: {@link AttemptContext}.
 * - `page`: one page of a list iterated or of a sync, all its attempts. Context: {@link PageContext}.
 * - `walk`: a list iterated (`for await`, `.pages()`, `.toArray()`), from its first page to its end.
 *   Context: {@link WalkContext}.
 * - `sync`: one run of `sync()`. Context: {@link SyncContext}.
 *
 * Each event's context is the one object for that piece of work, from `start` to `asyncEnd`: a subscriber
 * may keep its own state in a `WeakMap` keyed by it. `start` comes as the work begins and `end` once its
 * synchronous part returned; `asyncStart` and `asyncEnd` follow once it settled (after `error`, if it failed).
 * A store bound to a channel's `start` (`channel.start.bindStore(storage, …)`) is active for the work: the
 * attempts of a call, the pages of a walk or sync and undici's own events (`undici:request:create`…) see it.
 * An abort is no failure: your `signal`, or an iteration left early, ends the work `stopped` with no `error`
 * event.
 *
 * @example
 * ```ts
 * import diagnostics_channel from 'node:diagnostics_channel';
 * import { type CallContext, TRACING_CHANNELS } from '@company-data/sdk';
 *
 * const started = new WeakMap<object, number>();
 * diagnostics_channel.tracingChannel<unknown, CallContext>(TRACING_CHANNELS.call).subscribe({
 *   start: (context) => started.set(context, performance.now()),
 *   end: () => {},
 *   asyncStart: () => {},
 *   asyncEnd: (context) => {
 *     const ms = performance.now() - (started.get(context) ?? 0);
 *     console.log(`${context.operation} ${context.outcome} in ${ms.toFixed(0)} ms`);
 *   },
 *   error: () => {},
 * });
 * ```
 */
export const TRACING_CHANNELS = {
  call: 'company-data:call',
  attempt: 'company-data:attempt',
  page: 'company-data:page',
  walk: 'company-data:walk',
  sync: 'company-data:sync',
} as const;

/**
 * How a piece of work ended: `ok`; `error` (its `error` event came first); or `stopped`, an abort that is no
 * failure (your `signal`, an iteration left early and the pages it had in flight, the second copy of a
 * hedged read that lost).
 *
 * @example
 * ```ts
 * const failed = (outcome: TracingOutcome | undefined) => outcome === 'error';
 * ```
 */
export type TracingOutcome = 'ok' | 'error' | 'stopped';

/**
 * What every context of the SDK's tracing channels holds: the operation, by names and the endpoint's path
 * template. It never holds the API key, a webhook token, a URL, a value of a query or body, or anything of
 * a response's body: only what names the operation, numbers and codes. The SDK sets the fields marked as
 * set at the end before it publishes `error` or `asyncStart`. A subscriber may add fields of its own.
 *
 * @example
 * ```ts
 * const line = (context: TracingContext) => `${context.method} ${context.urlTemplate} ${context.outcome ?? 'under way'}`;
 * ```
 */
export interface TracingContext {
  /** The API's operation, e.g. `listCalls`, `retrieveUser`, `submitLead`. */
  readonly operation: string;
  /** The HTTP method, `GET` or `POST`. */
  readonly method: 'GET' | 'POST';
  /**
   * The endpoint's path template under the API's address, e.g. `/users/{id}/` or
   * `/messaging-agent/webhook/{webhook_token}/`: never the URL itself, whose ids, query values and webhook
   * token are yours. It names the operation with few values, as a span name should.
   */
  readonly urlTemplate: string;
  /** How the work ended; set at the end. */
  readonly outcome?: TracingOutcome | undefined;
  /** Why it failed, when its outcome is `error`; set before the `error` event. */
  readonly error?: TracedError | undefined;
}

/**
 * The context of the `call` channel ({@link TRACING_CHANNELS}): one call on its own, all its attempts.
 *
 * @example
 * ```ts
 * const summary = (context: CallContext) => `${context.operation}: ${context.attempts} attempts, status ${context.status}`;
 * ```
 */
export interface CallContext extends TracingContext {
  /** The page, for a list's page read as a call (awaited alone, `getNextPage()`). */
  readonly page?: number | undefined;
  /** Attempts the call took, 1 when the first answered; set at the end (0 when it was refused before sending). */
  readonly attempts?: number | undefined;
  /** The HTTP status of the last attempt answered; set at the end. */
  readonly status?: number | undefined;
}

/**
 * The context of the `attempt` channel ({@link TRACING_CHANNELS}): one attempt of a call or of a page.
 *
 * @example
 * ```ts
 * const retried = (context: AttemptContext) => context.attempt > 1;
 * ```
 */
export interface AttemptContext extends TracingContext {
  /** Which attempt of its call or page, 1 for the first. */
  readonly attempt: number;
  /** The page, for an attempt of a list's page. */
  readonly page?: number | undefined;
  /** The answer's HTTP status, when it was answered (a 503 or a 429 too: its `error` says what it means); set at the end. */
  readonly status?: number | undefined;
  /**
   * For a hedged attempt whose second copy went out (the `hedge` option): which copy decided it, `first` or
   * `hedge`; set at the end.
   */
  readonly hedge?: 'first' | 'hedge' | undefined;
}

/**
 * The context of the `page` channel ({@link TRACING_CHANNELS}): one page of a list iterated or of a sync.
 *
 * @example
 * ```ts
 * const label = (context: PageContext) => `page ${context.page} of ${context.operation}`;
 * ```
 */
export interface PageContext extends TracingContext {
  /** The page's number. */
  readonly page: number;
  /** Attempts the page took; set at the end. */
  readonly attempts?: number | undefined;
  /** The HTTP status of the last attempt answered; set at the end. */
  readonly status?: number | undefined;
}

/**
 * The context of the `walk` channel ({@link TRACING_CHANNELS}): a list iterated.
 *
 * @example
 * ```ts
 * const label = (context: WalkContext) => `${context.operation}, ${context.concurrency} at a time`;
 * ```
 */
export interface WalkContext extends TracingContext {
  /** The most requests in flight (`concurrency`). */
  readonly concurrency: number;
  /** The most pages under way or held (`readAhead`). */
  readonly readAhead: number;
  /** Pages yielded in order (`ordered`). */
  readonly ordered: boolean;
  /** Pages yielded; set at the end. */
  readonly pages?: number | undefined;
}

/**
 * The context of the `sync` channel ({@link TRACING_CHANNELS}): one run of `sync()`.
 *
 * @example
 * ```ts
 * const label = (context: SyncContext) => `sync of ${context.operation}: ${context.pages} pages`;
 * ```
 */
export interface SyncContext extends TracingContext {
  /** The most requests in flight (`concurrency`). */
  readonly concurrency: number;
  /** The most pages read ahead (`readAhead`). */
  readonly readAhead: number;
  /** Pages read (a page read again counts again); set at the end. */
  readonly pages?: number | undefined;
}

/**
 * Why a piece of work failed, as the tracing channels tell it: an `Error` with the class name (`name`), `code`
 * and HTTP status of the error your code gets, never its message or body. An SDK error's message names the
 * URL (its ids and query values) and its `body` is the server's answer; neither belongs in a trace. Its
 * `message` is the code and the status, e.g. `server_error (HTTP 503)`. The error itself is the one your
 * `await` or `catch` gets.
 *
 * @example
 * ```ts
 * // In a subscriber of the `error` event: the class and code, never the message of the error your code gets.
 * const reason = (context: TracingContext) => context.error && `${context.error.name} ${context.error.code}`;
 * ```
 */
export interface TracedError extends Error {
  /** The error's class name, e.g. `ServerError`, `RateLimitError`, `TimeoutError`. */
  readonly name: string;
  /** The error's `code` (`server_error`, `rate_limited`, `timeout`, `not_found`…), else its name. */
  readonly code: string;
  /** The HTTP status it was made from, if any. */
  readonly status: number | undefined;
}

/**
 * What a context says of a failure: a {@link TracedError} of `error`'s class name, code and status.
 *
 * @param error - what the work failed with.
 */
export function tracedError(error: unknown): TracedError {
  const code = errorType(error);
  const status = statusOf(error);
  const traced = new Error(status === undefined ? code : `${code} (HTTP ${status})`) as Error & {
    code: string;
    status: number | undefined;
  };
  traced.name = nameOf(error);
  traced.code = code;
  traced.status = status;
  return traced;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}

function nameOf(error: unknown): string {
  const name = (error as { name?: unknown } | null | undefined)?.name;
  return typeof name === 'string' ? name : 'Error';
}
