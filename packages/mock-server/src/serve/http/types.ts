import type { Unmatched } from './unmatched.js';

/**
 * A request as every way in hands it to the resolvers: transport-free, already read.
 *
 * @example
 * ```ts
 * const request: MockRequest = { method: 'GET', path: '/v1/users/', search: 'page=2', headers: {} };
 * ```
 */
export interface MockRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The URL path, still percent-encoded, e.g. `/v1/calls/`. */
  readonly path: string;
  /** The query string without `?` (empty when none). */
  readonly search: string;
  /** Headers with lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body, when one was sent. */
  readonly body?: Uint8Array | undefined;
  /** Set by the adapter when the body exceeded `maxBodyBytes` (the body is then absent). */
  readonly bodyTooLarge?: boolean | undefined;
}

/**
 * A response produced by the resolvers, serialised once and written as-is by every adapter.
 *
 * @example
 * ```ts
 * const response: MockResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
 * ```
 */
export interface MockResponse {
  /** HTTP status. */
  readonly status: number;
  /** Headers with lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body text ('' for none). */
  readonly body: string;
}

/**
 * A body written as it comes rather than at once: the admin API's server-sent events
 * (`GET /__admin/events`). The way in writes the response's status and headers (without a
 * `Content-Length`), then each piece the body hands it, until the server ends the body or the client leaves.
 *
 * @example
 * ```ts
 * const ticks: StreamedBody = {
 *   open(write, end) {
 *     write(': hello\n\n');
 *     const timer = setInterval(() => write(': tick\n\n'), 1000);
 *     return () => clearInterval(timer); // the client left (end() would finish the body from this side)
 *   },
 * };
 * ```
 */
export interface StreamedBody {
  /**
   * Starts the body.
   *
   * @param write - sends a piece; returns false when the client is so far behind that the piece was not taken.
   * @param end - finishes the body (the server closes).
   * @returns what stops the body when the client leaves first (called at most once, never after `end`).
   */
  open(write: (piece: string) => boolean, end: () => void): () => void;
}

/**
 * What the request journal says happened to a request.
 *
 * - `served`: a data endpoint answered 200;
 * - `member_created` / `member_existing`: the audience webhook created a member (201) or matched an existing one (200);
 * - `lead_queued` / `lead_deduplicated` / `lead_failed`: the lead webhook started a conversation, joined an
 *   existing one within 15 minutes, or failed internally (all answered 200);
 * - `throttled`: 429; `fault_injected`: an injected fault answered or dropped the request;
 * - `client_aborted`: the client gave up (closed the connection or aborted) before an answer, e.g. during an
 *   injected delay;
 * - `unauthorized` (401), `forbidden` (403), `not_found` (404), `method_not_allowed` (405),
 *   `invalid_request` (400, 413, 415).
 *
 * @example
 * ```ts
 * expect(server.journal().map((entry) => entry.outcome)).toEqual(['member_created', 'member_existing']);
 * ```
 */
export type JournalOutcome =
  | 'served'
  | 'member_created'
  | 'member_existing'
  | 'lead_queued'
  | 'lead_deduplicated'
  | 'lead_failed'
  | 'throttled'
  | 'fault_injected'
  | 'client_aborted'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'invalid_request';

/** A response with the outcome the journal records. */
export interface Resolved {
  readonly response: MockResponse;
  readonly outcome: JournalOutcome;
  /** Name of the API key used, when one was recognised. */
  readonly keyName?: string | undefined;
  /** Why the mock could not match the request to an operation, or authenticate it (absent when it did). */
  readonly unmatched?: Unmatched | undefined;
}

/**
 * What happened to a request, for a request log: a journal outcome, or `admin` and `openapi` for the
 * admin API and the served OpenAPI document (which the journal leaves out).
 *
 * @example
 * ```ts
 * const outcome: RequestOutcome = 'admin';
 * ```
 */
export type RequestOutcome = JournalOutcome | 'admin' | 'openapi';
