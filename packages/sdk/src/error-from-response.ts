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
} from './errors.js';

/** An HTTP response that was not a success, as the transport read it. */
export interface ErrorResponse {
  status: number;
  headers: ResponseHeaders;
  body: string;
}

/**
 * Reads the detail text out of an error body: the nested `{error: {detail}}` of data endpoints and the
 * audience webhook, or the lead webhook's flat `{error: "..."}`; any other body gives a short excerpt.
 */
export function errorDetail(body: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const text = body.trim();
    return text === '' ? undefined : text.slice(0, 200);
  }
  if (ERROR_BODY_CHECKS.nested(json)) return (json as { error: { detail: string } }).error.detail;
  if (ERROR_BODY_CHECKS.flat(json)) return (json as { error: string }).error;
  return undefined;
}

/**
 * Maps an error response to the SDK's error class for its status.
 *
 * @param response - status, headers and raw body.
 * @param request - method and URL, webhook tokens redacted, e.g. `GET https://api.example.com/v1/users/`.
 * @param retryAfterSeconds - the wait the server asked for on a 429, if any.
 */
export function errorFromResponse(
  response: ErrorResponse,
  request: string,
  retryAfterSeconds?: number,
): CompanyDataError {
  const { status, headers } = response;
  const detail = errorDetail(response.body);
  const init = { status, headers, detail };
  const message = `${status} ${detail ?? 'no detail'} (${request})`;
  if (status === 400) return new BadRequestError(message, init);
  if (status === 401) {
    const expired = detail === ERROR_DETAILS.expiredKey;
    return new AuthenticationError(expired ? 'expired_key' : 'invalid_key', message, init);
  }
  if (status === 403) return new PermissionDeniedError(message, init);
  if (status === 404) return new NotFoundError(message, init);
  if (status === 429) return new RateLimitError(message, retryAfterSeconds, init);
  if (status >= 500) return new ServerError(message, init);
  return new CompanyDataError('unexpected_status', message, init);
}
