import type { MockKeys, MockTokens } from '../../data/fake/seeded-store.js';
import type { MockWebhooks } from '../../inspect/keys-and-webhooks.js';
import type { RequestPattern } from '../../inspect/verify/pattern.js';
import { VerificationError, type VerifyResult } from '../../inspect/verify/recorded-requests.js';
import type { RouteMatch } from '../../serve/engine/route-match.js';
import type { ServerSummary } from '../../server/admin/summary.js';
import type { MockSessionOptions } from '../../server/sessions/session-rules.js';
import type { SharedMockServer } from './shared-server.js';

/**
 * What `POST /__admin/sessions` answers: the session's id, its own admin token and when it ends unless used,
 * then what `GET /__admin/` says of it (its addresses, keys, tokens, clock, webhooks, …).
 *
 * @example
 * ```ts
 * const created: SessionSummary = await (await fetch(`${shared.adminURL}sessions`, init)).json();
 * console.log(created.id, created.keys.valid);
 * ```
 */
export interface SessionSummary extends ServerSummary {
  /** The session's own admin token: it reaches this session's controls, and no other session's. */
  readonly adminToken: string;
  /** When the session ends unless used before (ISO 8601), or null when the server keeps sessions forever. */
  readonly idleEndsAt: string | null;
}

/**
 * One request to a session's admin API: the method (GET without a body, POST with one), a JSON body, and
 * query parameters.
 *
 * @example
 * ```ts
 * const request: AdminRequest = { method: 'POST', body: { ms: 60_000 } };
 * await session.admin('clock/advance', request);
 * ```
 */
export interface AdminRequest {
  /** Default: `POST` when there is a body, `GET` otherwise. */
  readonly method?: string | undefined;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Added to the URL (`{ since: 42 }` → `?since=42`). */
  readonly query?: Readonly<Record<string, string | number | boolean>> | undefined;
}

/**
 * An admin request the mock refused: its status and the `detail` of its `{"error":{"detail"}}` body, which
 * says what to fix.
 *
 * @example
 * ```ts
 * try {
 *   await session.admin('records/calls/no-such-id');
 * } catch (error) {
 *   if (error instanceof MockAdminError && error.status === 404) console.log(error.detail);
 * }
 * ```
 */
export class MockAdminError extends Error {
  override readonly name = 'MockAdminError';
  /** The HTTP status (400, 401, 403, 404, 409, …). */
  readonly status: number;
  /** The mock's own words: what was refused and how to get past it. */
  readonly detail: string;

  /**
   * @param request - `METHOD path`, as the message names it.
   * @param status - the HTTP status.
   * @param detail - the mock's `error.detail`.
   */
  constructor(request: string, status: number, detail: string) {
    super(`${request} answered ${status}: ${detail}`);
    this.status = status;
    this.detail = detail;
  }
}

/**
 * A session of a mock server reached over HTTP, as a test file gets it from `useMockSession()` or
 * `openMockSession()`: its own keys, tokens, clock, data and journals in the one server the run shares.
 * A client reaches it at the server's `baseURL` with the session's keys (the key routes each request to
 * its session); its controls are the admin API's, with the session's admin token.
 *
 * @example
 * ```ts
 * const client = new CompanyData({ apiKey: session.keys.valid, baseURL: session.baseURL });
 * await session.admin('clock/advance', { body: { ms: 16 * 60_000 } });
 * await session.verify({ method: 'GET', path: '/v1/calls/' });
 * ```
 */
export interface RemoteMockSession {
  /** `s1`, `s2`, … as the server numbers its sessions. */
  readonly id: string;
  /** `{base_url}`: the server's, ending in `/v1`. */
  readonly baseURL: string;
  /** `{api_root}`: the server's, without `/v1`. */
  readonly apiRoot: string;
  /** Where the admin API answers: the server's `{api_root}/__admin/`. */
  readonly adminURL: string;
  /** The session's admin token: its controls, and no other session's. */
  readonly adminToken: string;
  /** The session's own well-known API keys (`valid`, `expired`, …): they route requests to it. */
  readonly keys: MockKeys;
  /** The webhook tokens of the session's primary company: they route webhooks to it. */
  readonly tokens: MockTokens;
  /** Every audience and lead source of the session, with its webhook URL, as it was made. */
  readonly webhooks: MockWebhooks;
  /** Everything `POST /__admin/sessions` answered when the session was made. */
  readonly created: SessionSummary;
  /**
   * Sends one request to the session's admin API, with its admin token, and answers the JSON body.
   *
   * @param path - under `/__admin/`, e.g. `records/calls`, `clock/advance` (`''`: the session's summary).
   * @param request - method, JSON body and query (default: GET, or POST with a body).
   * @returns the answer's JSON body.
   * @throws MockAdminError when the mock answers an error status (its `detail` says why); TypeError when the
   * mock cannot be reached.
   * @example
   * ```ts
   * const { data: call } = await session.admin<{ data: { id: string } }>('records/calls', { body: { is_booked: true } });
   * await session.admin(`records/calls/${call.id}`, { method: 'DELETE' });
   * ```
   */
  admin<T = unknown>(path: string, request?: AdminRequest): Promise<T>;
  /**
   * Checks that the session received the requests a pattern describes (`POST /__admin/verify`), as
   * `mock.verify` does in process. A `RegExp` in the pattern is sent as `{ matches, flags }`.
   *
   * @param pattern - which requests, and how many (see {@link RequestPattern}); none: any request, at least once.
   * @returns what was found, when it is what the pattern asks.
   * @throws VerificationError whose message is the near-miss report, when it is not; MockAdminError (400)
   * for a pattern the mock cannot use.
   * @example
   * ```ts
   * await session.verify({ method: 'POST', path: '/v1/outbound-campaigns/webhook/{token}/', times: 1 });
   * ```
   */
  verify(pattern?: RequestPattern): Promise<VerifyResult>;
  /**
   * Ends the session (`DELETE /__admin/sessions/{id}`, with its own admin token): its keys, tokens and admin
   * token reach nothing any more. Ending it again does nothing.
   *
   * @throws MockAdminError when the mock refuses (not when the session already ended).
   * @example
   * ```ts
   * await session.end();
   * ```
   */
  end(): Promise<void>;
}

/**
 * Creates a session of a running mock server over HTTP (`POST /__admin/sessions`, with the server's admin
 * token): the helper under `useMockSession`, for a session per test or a fixture of your own.
 *
 * @param server - where the mock answers and its admin token.
 * @param options - the session's seed, sizes or fixture, clock, quota, latency, fault rates, activity and
 * journal limit, as `server.sessions.create` takes them (a route's `RegExp` path is sent as `pathPattern`).
 * @returns the session, ready.
 * @throws MockAdminError for options the mock refuses (400) or when its sessions are full (409); TypeError
 * for a `RegExp` with flags, which the admin API cannot take, or when the mock cannot be reached.
 * @example
 * ```ts
 * const session = await createRemoteSession(shared, { seed: 7, clock: 'frozen' });
 * await session.end();
 * ```
 */
export async function createRemoteSession(
  server: SharedMockServer,
  options: MockSessionOptions = {},
): Promise<RemoteMockSession> {
  const created = await adminFetch<SessionSummary>(server.adminURL, server.adminToken, 'sessions', {
    body: sessionBody(options),
  });
  return new HttpMockSession(created);
}

/** A session reached over HTTP: what its creation answered, and its admin API. */
class HttpMockSession implements RemoteMockSession {
  readonly created: SessionSummary;
  #ended = false;

  constructor(created: SessionSummary) {
    this.created = created;
  }

  get id(): string {
    return this.created.id;
  }
  get baseURL(): string {
    return this.created.baseURL;
  }
  get apiRoot(): string {
    return this.created.apiRoot;
  }
  get adminURL(): string {
    return this.created.adminURL;
  }
  get adminToken(): string {
    return this.created.adminToken;
  }
  get keys(): MockKeys {
    return this.created.keys;
  }
  get tokens(): MockTokens {
    return this.created.tokens;
  }
  get webhooks(): MockWebhooks {
    return this.created.webhooks;
  }

  admin<T = unknown>(path: string, request: AdminRequest = {}): Promise<T> {
    return adminFetch<T>(this.adminURL, this.adminToken, path, request);
  }

  async verify(pattern: RequestPattern = {}): Promise<VerifyResult> {
    const body = JSON.parse(JSON.stringify(pattern, regExpAsMatcher));
    const result = await this.admin<VerifyResult>('verify', { body });
    if (!result.ok) throw new VerificationError(result);
    return result;
  }

  async end(): Promise<void> {
    if (this.#ended) return;
    try {
      await this.admin(`sessions/${encodeURIComponent(this.id)}`, { method: 'DELETE' });
    } catch (error) {
      // Its admin token reaches nothing once it ended (idle, or by the server's token): ended all the same.
      if (!(error instanceof MockAdminError && error.status === 401)) throw error;
    }
    this.#ended = true;
  }
}

/**
 * One admin request: JSON in and out, the token as a bearer.
 *
 * @throws MockAdminError for an error status.
 */
async function adminFetch<T>(
  adminURL: string,
  token: string,
  path: string,
  { method, body, query }: AdminRequest,
): Promise<T> {
  const url = new URL(path.replace(/^\//, ''), adminURL);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, String(value));
  const verb = method ?? (body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: verb,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    const detail = errorDetail(text) ?? (text || response.statusText);
    throw new MockAdminError(`${verb} ${url.pathname}${url.search}`, response.status, detail);
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The `error.detail` of a mock's error body, if it is one. */
function errorDetail(text: string): string | undefined {
  try {
    const detail = (JSON.parse(text) as { error?: { detail?: unknown } }).error?.detail;
    return typeof detail === 'string' ? detail : undefined;
  } catch {
    return undefined;
  }
}

/** A pattern's RegExp as the admin API takes it. */
function regExpAsMatcher(_key: string, value: unknown): unknown {
  return value instanceof RegExp ? { matches: value.source, flags: value.flags } : value;
}

/** Session options as `POST /__admin/sessions` takes them: a route's RegExp path as `pathPattern`. */
function sessionBody(options: MockSessionOptions): Record<string, unknown> {
  const { latency, faultRate, ...rest } = options;
  const body: Record<string, unknown> = { ...rest };
  if (latency !== undefined) body.latency = routes(latency, 'latency');
  if (faultRate !== undefined) body.faultRate = routes(faultRate, 'faultRate');
  return body;
}

function routes<T>(value: T, option: string): unknown {
  if (Array.isArray(value)) return value.map((rule) => route(rule, option));
  return typeof value === 'object' && value !== null ? route(value as RouteMatch, option) : value;
}

function route(rule: RouteMatch, option: string): unknown {
  if (!(rule.path instanceof RegExp)) return rule;
  if (rule.path.flags !== '')
    throw new TypeError(
      `${option}: the path ${String(rule.path)} has flags, which the admin API cannot take (it reads pathPattern as a RegExp source): write the pattern without them, e.g. [Cc]alls for a letter in either case.`,
    );
  const { path, ...rest } = rule;
  return { ...rest, pathPattern: path.source };
}
