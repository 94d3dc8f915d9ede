import { endpointList, rootPath } from '@company-data/contract';
import type { ServedRequest } from '../serve/engine/engine.js';
import { appliedFault, type JournalFault } from '../serve/engine/request-journal.js';
import { ADMIN_TOKEN_SEGMENT } from '../serve/http/reserved-paths.js';
import type { MockRequest, MockResponse, RequestOutcome } from '../serve/http/types.js';

export type { RequestOutcome } from '../serve/http/types.js';

/**
 * One request as {@link MockServerOptions.onRequest} reports it, safe to write to a log: the API key
 * is named, never shown, and webhook tokens in the path are replaced by `{token}`.
 *
 * @example
 * ```ts
 * const server = await startMockServer({ onRequest: (event: RequestEvent) => console.error(formatRequestText(event)) });
 * ```
 */
export interface RequestEvent {
  /** Mock-clock time the request arrived (ISO 8601). */
  readonly at: string;
  /** HTTP method. */
  readonly method: string;
  /** URL path, webhook tokens replaced by `{token}`. */
  readonly path: string;
  /** The query string without `?` ('' when none). */
  readonly query: string;
  /** The answered status, or null when nothing was answered. */
  readonly status: number | null;
  /** What happened. */
  readonly outcome: RequestOutcome;
  /** Name of the API key used, when one was recognised. */
  readonly keyName: string | null;
  /** Real milliseconds from arrival to answer (an injected delay included). */
  readonly durationMs: number;
  /** Real milliseconds of it the latency profile added (0 without one). */
  readonly latencyMs: number;
  /** The injected fault the request met, or null. */
  readonly fault: JournalFault | null;
  /** Why a request was refused (4xx or 5xx): the error body's message, as the client reads it; null otherwise. */
  readonly detail: string | null;
  /** The session that answered it (`s1`, …); absent for the server's own world, the default session. */
  readonly session?: string;
}

/**
 * The message of an error answer, for the request log: `error.detail` of the usual error body, or
 * `error` of a flat one (the webhooks'); null for a success, an empty body or another shape.
 *
 * @param response - the answer, when there was one.
 * @returns the message, or null.
 * @example
 * ```ts
 * refusalDetail({ status: 404, headers: {}, body: '{"error":{"detail":"Not found."}}' }); // 'Not found.'
 * ```
 */
export function refusalDetail(response: MockResponse | undefined): string | null {
  if (response === undefined || response.status < 400 || response.body === '') return null;
  try {
    const { error } = JSON.parse(response.body) as { error?: unknown };
    if (typeof error === 'string') return error;
    const detail = (error as { detail?: unknown } | undefined)?.detail;
    return typeof detail === 'string' ? detail : null;
  } catch {
    return null;
  }
}

/**
 * The path segments a secret token follows: that before `{webhook_token}` in each path-token row of the
 * endpoint table (`webhook`), and the admin API's audience area. Matched anywhere in a path, so a token
 * sent to a wrong path (e.g. under `/v1` by mistake) is redacted too.
 */
const TOKEN_SEGMENT = new RegExp(
  `/(${[
    ...new Set([
      ...endpointList
        .filter((endpoint) => endpoint.auth === 'pathToken')
        .map((endpoint) => /\/([^/]+)\/\{webhook_token\}/.exec(rootPath(endpoint))?.[1] ?? 'webhook'),
      ADMIN_TOKEN_SEGMENT,
    ]),
  ].join('|')})/[^/?]+`,
  'g',
);

/**
 * Replaces the secret tokens of webhook (and admin audience) paths by `{token}`.
 *
 * @param path - a URL path.
 * @returns the path, safe to log.
 * @example
 * ```ts
 * redactTokens('/messaging-agent/webhook/0b6f…/'); // '/messaging-agent/webhook/{token}/'
 * ```
 */
export function redactTokens(path: string): string {
  return path.replace(TOKEN_SEGMENT, '/$1/{token}');
}

/**
 * One line of text for a request event: time, method, path, status, outcome, duration, the latency
 * profile's wait, key name, fault and, for a refusal, why (the message the client got).
 *
 * @param event - the event.
 * @returns the line, without a newline.
 * @example
 * ```ts
 * // 2026-06-01T12:00:03.120Z GET /v1/calls/?page=2 200 served 0.4ms key="Full access"
 * // 2026-06-01T12:00:03.121Z GET /v1/calls/?colour=red 400 invalid_request 0.2ms key="Full access" detail="…"
 * const server = await startMockServer({ onRequest: (event) => process.stderr.write(`${formatRequestText(event)}\n`) });
 * ```
 */
export function formatRequestText(event: RequestEvent): string {
  const target = event.query === '' ? event.path : `${event.path}?${event.query}`;
  const parts = [
    event.at,
    event.method,
    target,
    event.status === null ? '-' : String(event.status),
    event.outcome,
    `${event.durationMs.toFixed(1)}ms`,
  ];
  if (event.latencyMs > 0) parts.push(`latency=${event.latencyMs}ms`);
  if (event.session !== undefined) parts.push(`session=${event.session}`);
  if (event.keyName !== null) parts.push(`key=${JSON.stringify(event.keyName)}`);
  if (event.fault !== null) parts.push(`fault=${JSON.stringify(event.fault)}`);
  if (event.detail !== null) parts.push(`detail=${JSON.stringify(event.detail)}`);
  return parts.join(' ');
}

/**
 * One JSON line for a request event (the event's fields, `durationMs` rounded to 0.1 ms).
 *
 * @param event - the event.
 * @returns the JSON text, without a newline.
 * @example
 * ```ts
 * const server = await startMockServer({ onRequest: (event) => process.stderr.write(`${formatRequestJson(event)}\n`) });
 * ```
 */
export function formatRequestJson(event: RequestEvent): string {
  return JSON.stringify({ ...event, durationMs: Math.round(event.durationMs * 10) / 10 });
}

/**
 * The request event of a served (or abandoned) request: the key named, never shown; webhook tokens
 * redacted; a refusal's message read back from its body.
 *
 * @param request - the request.
 * @param atMs - its arrival on the mock clock, epoch ms.
 * @param served - how it was served.
 * @param durationMs - real milliseconds from arrival to answer.
 * @returns the event.
 */
export function requestEvent(
  request: MockRequest,
  atMs: number,
  served: ServedRequest,
  durationMs: number,
): RequestEvent {
  const { result, fault } = served;
  return {
    at: new Date(atMs).toISOString(),
    method: request.method,
    path: redactTokens(request.path),
    query: request.search,
    status: served.status,
    outcome: served.outcome,
    keyName: served.keyName ?? null,
    durationMs,
    latencyMs: served.latencyMs,
    fault: fault === undefined ? null : appliedFault(fault),
    detail: result !== undefined && 'response' in result ? refusalDetail(result.response) : null,
  };
}
