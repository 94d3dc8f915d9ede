import { ERROR_BODY_CHECKS, ERROR_DETAILS } from '@company-data/contract/runtime';
import {
  AuthenticationError,
  BadRequestError,
  CompanyDataError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type ResponseHeaders,
  ServerError,
} from '../core/errors.js';
import { checkTheBaseURL } from './base-url-hint.js';
import type { CallEndpoint } from './call-request.js';

/** An HTTP response that was not a success, as the transport read it. */
export interface ErrorResponse {
  status: number;
  headers: ResponseHeaders;
  body: string;
}

/** Longest excerpt of a body that is not the API's JSON error, in characters (an ellipsis marks a cut). */
export const BODY_EXCERPT_CHARS = 200;

/**
 * Reads the detail text out of an error body: the nested `{error: {detail}}` of data endpoints and the
 * audience webhook, or the lead webhook's flat `{error: "..."}`; any other body gives a short excerpt
 * (see {@link bodyExcerpt}).
 */
export function errorDetail(body: string): string | undefined {
  return readErrorBody(body).detail;
}

/** An error response's body, parsed once: what `CompanyDataError.body` holds, and the detail text in it. */
interface ReadBody {
  /** The parsed JSON, or the text when it is not JSON. */
  readonly parsed: unknown;
  readonly detail: string | undefined;
}

function readErrorBody(body: string, headers?: ResponseHeaders): ReadBody {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { parsed: body, detail: bodyExcerpt(body) };
  }
  // A JSON body under another content type (a proxy's text/plain `"oops"`) is kept as the text it was sent as.
  const parsed = headers === undefined || isJson(headers) ? json : body;
  if (ERROR_BODY_CHECKS.nested(json))
    return { parsed, detail: (json as { error: { detail: string } }).error.detail };
  if (ERROR_BODY_CHECKS.flat(json)) return { parsed, detail: (json as { error: string }).error };
  return { parsed, detail: undefined };
}

/**
 * A body that is not the API's JSON, made fit for one line of a message: an HTML page's text without its
 * tags, scripts and styles, whitespace folded to single spaces, at most {@link BODY_EXCERPT_CHARS}
 * characters. A proxy's 502 page then reads `502 Bad Gateway 502 Bad Gateway nginx`, not a screen of markup.
 *
 * @returns the excerpt, or undefined for a blank body.
 */
export function bodyExcerpt(body: string): string | undefined {
  const text = body
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->|<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return undefined;
  return text.length <= BODY_EXCERPT_CHARS ? text : `${text.slice(0, BODY_EXCERPT_CHARS - 1)}…`;
}

/** Whether an error response is the API's own JSON error: a JSON type and the nested or flat error shape. */
export function isApiErrorBody(response: ErrorResponse): boolean {
  if (!isJson(response.headers)) return false;
  try {
    const json: unknown = JSON.parse(response.body);
    return ERROR_BODY_CHECKS.nested(json) || ERROR_BODY_CHECKS.flat(json);
  } catch {
    return false;
  }
}

/** Whether a body is the API's own JSON, by its content type (a proxy's error page is not). */
function isJson(headers: ResponseHeaders): boolean {
  const type = headers['content-type'];
  return type === undefined || /^application\/([\w.+-]+\+)?json\b/i.test(type.trim());
}

/**
 * Maps an error response to the SDK's error class for its status.
 *
 * @param response - status, headers and raw body.
 * @param request - method and URL, webhook tokens redacted, e.g. `GET https://api.example.com/v1/users/`.
 * @param retryAfterSeconds - the wait the server asked for on a 429, if any.
 * @param keySource - where the refused key came from, in words (`the COMPANY_DATA_API_KEY environment
 * variable`): a 401's message ends by saying to check it.
 * @param notFoundHint - what a 404's message ends with, when it likely means a wrong base URL.
 */
export function errorFromResponse(
  response: ErrorResponse,
  request: string,
  retryAfterSeconds?: number,
  keySource?: string,
  notFoundHint?: string,
): CompanyDataError {
  const { status, headers } = response;
  const { parsed, detail } = readErrorBody(response.body, headers);
  const init = { status, headers, detail, body: parsed };
  // Not the API's JSON (e.g. a proxy's HTML page): say so, with the type, so the excerpt is read as such.
  const shown = isJson(headers) ? detail : `${headers['content-type']} body: ${detail ?? '(empty)'}`;
  const message = `${status} ${shown ?? 'no detail'} (${request})`;
  if (status === 400) return new BadRequestError(message, init);
  if (status === 401) {
    const expired = detail === ERROR_DETAILS.expiredKey;
    const hint = keySource === undefined ? '' : `: check the API key in ${keySource}`;
    return new AuthenticationError(expired ? 'expired_key' : 'invalid_key', `${message}${hint}`, init);
  }
  if (status === 403) return new PermissionDeniedError(message, init);
  if (status === 404) return new NotFoundError(notFoundHint ? `${message}: ${notFoundHint}` : message, init);
  if (status === 429) return new RateLimitError(message, retryAfterSeconds, init);
  if (status >= 500) return new ServerError(message, init);
  return new CompanyDataError('unexpected_status', message, init);
}

/**
 * Why a 404 may mean a wrong base URL, for its message: a list never answers 404 (a page past the last is
 * an empty page), and the API's 404 of an unknown id is its own JSON error; a 404 of anything else under
 * the base URL (a gateway's or another server's page) most likely comes from a path that is not the API's,
 * such as `/api/v1` for `/v1`. The API's JSON 404 on a by-id call says nothing: the id may be unknown.
 *
 * @param endpoint - the operation called: under which address, and of which kind.
 * @param response - the error response.
 * @param baseURLSource - where the base URL came from, in words; none, no hint.
 */
export function notFoundHint(
  endpoint: Pick<CallEndpoint, 'base' | 'kind'>,
  response: ErrorResponse,
  baseURLSource: string | undefined,
): string | undefined {
  if (response.status !== 404 || endpoint.base !== 'baseURL' || baseURLSource === undefined) return undefined;
  if (endpoint.kind === 'list') return `a list never answers 404: ${checkTheBaseURL('path', baseURLSource)}`;
  if (isApiErrorBody(response)) return undefined;
  return `not the API's own error: ${checkTheBaseURL('path', baseURLSource)}`;
}
