import { LIST_LIMITS } from '@company-data/contract/runtime';
import type { Dispatcher } from 'undici';
import type { CompanyDataError, RateLimitError } from './errors.js';
import type { Logger, LogLevel } from './logger-interface.js';
import type { RateGateLike, RateQuota } from './rate-gate-interface.js';

/**
 * Passed to `onRateLimit` before the client pauses for a 429.
 *
 * @example
 * ```ts
 * const client = new CompanyData({
 *   onRateLimit: (event) => console.warn(`${event.operation}: waiting ${event.waitMs} ms`),
 * });
 * ```
 */
export interface RateLimitEvent {
  /** The operation that was throttled, e.g. `GET /calls/`. */
  operation: string;
  /** Which attempt was throttled (1 for the first). */
  attempt: number;
  /** How long every request through the client's rate gate (its own, or a shared one) will pause, in ms. */
  waitMs: number;
  /** The wait the server asked for in seconds, or `undefined` when it named none (then `waitMs` is a backoff). */
  retryAfter: number | undefined;
  /** The error thrown if the wait is vetoed. */
  error: RateLimitError;
}

/**
 * Passed to `onRetry` before a retry after a 5xx, a 408, a connection error or a timeout.
 *
 * @example
 * ```ts
 * const client = new CompanyData({ onRetry: (event) => metrics.increment('retries', { code: event.error.code }) });
 * ```
 */
export interface RetryEvent {
  /** The operation being retried, e.g. `GET /calls/`. */
  operation: string;
  /** Which attempt failed (1 for the first). */
  attempt: number;
  /** The backoff before the next attempt, in ms. */
  delayMs: number;
  /** Why the attempt failed; thrown if the retry is vetoed. */
  error: CompanyDataError;
}

/**
 * A fixed moment for a hedged read to send its second copy (see the `hedge` option). With `hedge: true`
 * instead, the client chooses: the 95th percentile of the last 100 response times of the same operation through this client
 * (and the clients derived from it; until 20 are known, twice the slowest of them), and never before
 * 100 ms; the first call of an operation, with nothing known yet, is not hedged.
 *
 * @example
 * ```ts
 * const client = new CompanyData({ hedge: { afterMs: 1_500 } }); // a fixed threshold
 * ```
 */
export interface HedgeOptions {
  /** Send the second copy once the first has waited this long, in ms, instead of the adaptive threshold. */
  afterMs: number;
}

/**
 * Which copy of a hedged read answered, in the `response` of `.withResponse()` and in the debug log.
 * Present only when a second copy went out on the call's last attempt.
 *
 * @example
 * ```ts
 * const { response } = await client.calls.retrieve(id, { hedge: true }).withResponse();
 * if (response.hedge?.winner === 'hedge') metrics.increment('hedge.won');
 * ```
 */
export interface HedgeOutcome {
  /** `'first'` when the original request answered first, `'hedge'` when the second copy did. */
  winner: 'first' | 'hedge';
  /** How long the first copy had waited when the second went out, in ms. */
  afterMs: number;
}

/**
 * Decides on a wait: return `false` (or a promise of `false`) to veto it, which throws the event's
 * error at once; any other value lets the wait go ahead.
 *
 * @typeParam Event - {@link RateLimitEvent} or {@link RetryEvent}.
 * @param event - what happened and how long the client would wait.
 * @returns `false` to veto.
 */
export type RetryHook<Event> = (event: Event) => unknown;

/**
 * Options of `new CompanyData(options)`. Every one is optional.
 *
 * @example
 * ```ts
 * const client = new CompanyData({
 *   apiKey: process.env.MY_KEY,
 *   baseURL: 'https://api.example.com/v1',
 *   timeout: 30_000,
 *   maxRetries: 4,
 * });
 * ```
 */
export interface ClientOptions {
  /**
   * The API key (`svc_live_...`), without a `Bearer ` prefix (the SDK adds it). Default:
   * `process.env.COMPANY_DATA_API_KEY`. Webhooks need none.
   */
  apiKey?: string | undefined;
  /**
   * The API's base address, ending in `/v1` (a base URL without it is refused, with the corrected URL).
   * Default: `process.env.COMPANY_DATA_BASE_URL`.
   */
  baseURL?: string | undefined;
  /** Where the lead webhook lives. Default: `baseURL` without its trailing `/v1`. */
  apiRoot?: string | undefined;
  /**
   * Per-attempt time limit in ms: an attempt, body included, takes at most this long. Default: 60 000.
   * Below 10 000 ms, whenever a `dispatcher` or `fetch` of yours sends, and on Bun and Deno, it is an exact
   * deadline (a timer per attempt). From 10 000 ms up, in the client's own pool on Node, one coarse check
   * shared by every attempt in flight keeps it, with undici's own timers (cheaper per request): the attempt
   * ends at most about a second late, even if its body trickles in without ever pausing that long.
   */
  timeout?: number | undefined;
  /**
   * Retries after a 429, a 5xx, a 408, a connection error or a timeout (one budget for all). Default: 2.
   * Other 4xx are never retried.
   */
  maxRetries?: number | undefined;
  /**
   * The longest 429 wait the client accepts, in ms. When the server asks for longer, the call throws
   * a {@link RateLimitError} at once, its `retryAfter` saying how long. Default: 120 000.
   */
  maxRetryWait?: number | undefined;
  /**
   * Hedged reads: when a GET (a retrieve, a transcript, a list page) has waited far longer than its peers,
   * send a second copy and take the first answer; the other copy is aborted. `true` waits for the adaptive
   * threshold (see {@link HedgeOptions}), `{ afterMs }` for a fixed one. A second copy costs a request of
   * the quota and passes the rate gate like any request, so it is for callers with quota to spare who
   * care about the slow tail (an ordered export waits for its oldest page). A budget bounds the extra
   * requests: 10 second copies at once, then one per ten reads. POSTs (the webhooks) are never hedged.
   * Each method's `hedge` option overrides this one. Default: `false`.
   */
  hedge?: boolean | HedgeOptions | undefined;
  /** Headers sent with every request (after the SDK's own, so they can override `User-Agent`). */
  defaultHeaders?: Record<string, string> | undefined;
  /** Where log lines go. Default: `console`. */
  logger?: Logger | undefined;
  /**
   * The least severe level written. Default: `process.env.COMPANY_DATA_LOG` (`debug`, `info`, `warn`, `error`
   * or `off`), else `'warn'`. At `debug`, every request and response is logged with its URL, status and
   * duration.
   */
  logLevel?: LogLevel | undefined;
  /**
   * The undici dispatcher to send through: a `ProxyAgent`, a custom `Pool`, or a mock server's in-process
   * dispatcher. The client does not close a dispatcher it was given. Default: its own keep-alive `Agent`
   * on Node; on Bun and Deno, the runtime's own `fetch` (unless a dispatcher is given).
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * Send through this `fetch` instead of undici, e.g. `fetch: globalThis.fetch` so that msw's
   * `setupServer` in your tests intercepts the SDK's requests. Takes precedence over `dispatcher`.
   * Default: undici with a keep-alive pool on Node (faster); the runtime's `fetch` on Bun and Deno.
   */
  fetch?: FetchLike | undefined;
  /** Check every response body against the contract's schema. Default: `true`. */
  validate?: boolean | undefined;
  /** Called before the client pauses for a 429; return `false` to throw instead. */
  onRateLimit?: RetryHook<RateLimitEvent> | undefined;
  /** Called before a retry with backoff; return `false` to throw instead. */
  onRetry?: RetryHook<RetryEvent> | undefined;
  /**
   * How the client waits (rate-limit pauses and retry backoff). Tests pass one that advances a fake
   * clock, e.g. `async (ms) => mock.clock.advance(ms)`, so no real time passes. Default: a timer.
   */
  sleep?: Sleep | undefined;
  /**
   * The current time in epoch ms, on the same clock as `sleep`; used to turn a `Retry-After` date into a
   * wait and to merge overlapping pauses. Default: `Date.now`.
   */
  now?: (() => number) | undefined;
  /** Numbers in [0, 1) for the backoff jitter. Default: `Math.random`. */
  random?: (() => number) | undefined;
  /**
   * A quota this client stays under, e.g. `{ requests: 100, perSeconds: 60 }`: every request waits for a
   * slot of a sliding window kept in this process, so the client rarely meets a 429. Default: none (a
   * request waits only for a 429's pause). For a quota shared by many processes, pass a shared `gate`
   * with the quota instead (both at once are refused).
   */
  quota?: RateQuota | undefined;
  /**
   * The rate gate to share, instead of the client's own: e.g. a `RedisRateGate` from
   * `@company-data/redis-gate`, shared by every process that uses the key, so that a 429 in one pauses
   * them all. See the guide "Many processes, one key". The client does not close a gate it was given.
   */
  gate?: RateGateLike | undefined;
}

/**
 * The client options a derived client can change. `apiKey`, `baseURL`, `apiRoot`, `dispatcher`, `fetch`,
 * `sleep`, `now`, `quota` and `gate` stay the parent's: a derived client shares its connection pool and
 * rate gate, which belong to one key, one server and one clock.
 *
 * @example
 * ```ts
 * const interactive = client.withOptions({ timeout: 5_000, maxRetries: 0 });
 * ```
 */
export type DerivedClientOptions = Omit<
  ClientOptions,
  'apiKey' | 'baseURL' | 'apiRoot' | 'dispatcher' | 'fetch' | 'sleep' | 'now' | 'quota' | 'gate'
>;

/**
 * Options every method takes as its last argument; they override the client's for this call.
 *
 * @example
 * ```ts
 * await client.calls.retrieve(id, { timeout: 5_000, maxRetries: 0, signal: AbortSignal.timeout(10_000) });
 * ```
 */
export interface RequestOptions {
  /** Aborts the call, including any wait; it then rejects with a {@link RequestAbortedError}. */
  signal?: AbortSignal | undefined;
  /** Per-attempt time limit in ms, kept as the client's `timeout` is. */
  timeout?: number | undefined;
  /** Retries for this call. */
  maxRetries?: number | undefined;
  /**
   * Hedge this read (see the client's `hedge` option): `true`, `{ afterMs }`, or `false` to send one copy
   * only, whatever the client's setting.
   */
  hedge?: boolean | HedgeOptions | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /**
   * Query parameters the SDK does not know yet, sent as they are, unchecked: the way to use a parameter
   * the API gained after this version of the SDK (strictness never blocks you). A parameter the SDK knows
   * is refused here: pass it in the method's parameters, where it is checked.
   */
  query?: Record<string, string | number | boolean> | undefined;
}

/**
 * Options of the webhook methods: the request options (but `hedge`: a POST is never hedged) plus `body`.
 *
 * @example
 * ```ts
 * // `referrer` is a field the SDK does not know yet: sent as it is, unchecked.
 * await client.leads.submit(token, { phone_number: '415-555-0100' }, { body: { referrer: 'partner-42' } });
 * ```
 */
export interface WebhookOptions extends Omit<RequestOptions, 'hedge'> {
  /**
   * Body fields the SDK does not know yet, added to the JSON body as they are, unchecked. A field the SDK
   * knows is refused here: pass it in the body argument, where it is checked. Free-form data the API
   * stores for you belongs in `custom_fields`.
   */
  body?: Record<string, unknown> | undefined;
}

/**
 * Passed to `onCountChange` when a list's `count` differs from the one page 1 reported.
 *
 * @example
 * ```ts
 * client.calls.list({}, { onCountChange: ({ previous, current }) => console.warn(previous, '→', current) });
 * ```
 */
export interface CountChangeEvent {
  /** The `count` page 1 (or the previous change) reported. */
  previous: number;
  /** The `count` the page just read reports. */
  current: number;
  /** The page that reported it. */
  page: number;
}

/**
 * Options of the list methods: the request options plus how auto-pagination behaves.
 *
 * @example
 * ```ts
 * for await (const call of client.calls.list({ page_size: 100 }, { concurrency: 4 })) save(call);
 * ```
 */
export interface ListOptions extends RequestOptions {
  /**
   * Requests in flight at once while iterating (pages fetched ahead), 1 to 16. Items are still yielded
   * strictly in order (unless `ordered: false`), and every request passes the client's rate gate. A page
   * waiting to retry holds no request slot; with `hedge`, a page's second copy comes on top of its first.
   * Default: 1 (the next page is requested only when needed). For `sync()`, what read-ahead promises while
   * records are created and deleted is in `SyncRequestOptions`.
   */
  concurrency?: number | undefined;
  /**
   * The most pages fetched ahead, held in memory or under way, while iterating: the memory budget (pages
   * × `page_size` items). In order, a clean iteration keeps `concurrency` pages ahead; only while the oldest
   * page is late (an attempt failed, or it takes far longer than its peers) do the other requests fetch
   * further, up to this many pages, so a failing page delays its own turn and not every request behind
   * it. At least `concurrency`, at most 1,000. Default: 1 with `concurrency: 1`, else 128.
   */
  readAhead?: number | undefined;
  /**
   * `false` yields each page as soon as it arrives, in any order (for exports that do not need order:
   * NDJSON files, upserts): a failing page then delays nothing but itself. Every item still comes once
   * while the list does not change; see the pagination guide for what changes when it does. Default: `true`.
   */
  ordered?: boolean | undefined;
  /**
   * The last page to fetch (inclusive), for a part of a list: with the `page` parameter, the pages
   * `page`…`lastPage`, e.g. one worker's share of an export. Default: the list's last page.
   */
  lastPage?: number | undefined;
  /** Called when `count` changes mid-iteration (records were added or removed); a warning is logged too. */
  onCountChange?: ((event: CountChangeEvent) => void) | undefined;
}

/**
 * Waits `ms` milliseconds. The SDK calls it for every wait (rate-limit pauses and retry backoff), so tests
 * can pass one that advances a fake clock instead of letting real time pass.
 *
 * @param ms - how long to wait.
 * @param signal - when it aborts, the wait may end early (the SDK also stops waiting on its own).
 * @returns a promise resolved once the wait is over.
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

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
 * The most requests a list may have in flight at once: the upper bound of the `concurrency` list option.
 *
 * @example
 * ```ts
 * import { MAX_CONCURRENCY } from '@company-data/sdk';
 *
 * for await (const call of client.calls.list({ page_size: 100 }, { concurrency: MAX_CONCURRENCY })) save(call);
 * ```
 */
export const MAX_CONCURRENCY = 16;

// Each option's default, in one place: whoever needs one imports it from here (the options' TSDoc above says
// them in words, for the reader of the API).

/** The client's options when they are not given. */
export const CLIENT_DEFAULTS = {
  timeout: 60_000,
  maxRetries: 2,
  maxRetryWait: 120_000,
  validate: true,
  hedge: false,
} as const;
/**
 * The `concurrency` of a list iterated or a sync run when it is not given: one request at a time (the CLI's
 * `company-data snapshot` has a default of its own).
 */
export const DEFAULT_LIST_CONCURRENCY = 1;
/** A list's `ordered` when it is not given: pages in page order. */
export const DEFAULT_ORDERED = true;
/** Pages a list fetching ahead may hold or have under way, when `readAhead` is not given. */
export const DEFAULT_READ_AHEAD = 128;

/**
 * `readAhead` when it is not given: with one request at a time, one page (the next is fetched when it is
 * needed); when fetching ahead, room for the other requests to keep going while one page retries.
 *
 * @param concurrency - the list's `concurrency`.
 * @returns pages.
 */
export function defaultReadAhead(concurrency: number): number {
  return concurrency === 1 ? 1 : Math.max(DEFAULT_READ_AHEAD, concurrency);
}

/** A sync's `page_size` when its `params` give none: the largest page the API serves. */
export const DEFAULT_SYNC_PAGE_SIZE = LIST_LIMITS.maxPageSize;
/** A sync's `lookBack` when it is not given: no window before the checkpoint is read again. */
export const DEFAULT_LOOK_BACK = 0;
/** The most `readAhead` a list accepts. */
export const MAX_READ_AHEAD = 1_000;
