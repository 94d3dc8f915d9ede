import { ERROR_DETAILS, type ErrorShape } from '@company-data/contract';
import type { JournalOutcome, MockResponse, Resolved } from './types.js';

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

/** A JSON response from already-serialised text. */
export function jsonText(
  status: number,
  body: string,
  headers?: Readonly<Record<string, string>>,
): MockResponse {
  return { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS, body };
}

/** A JSON response from a value. */
export function json(
  status: number,
  value: unknown,
  headers?: Readonly<Record<string, string>>,
): MockResponse {
  return jsonText(status, JSON.stringify(value), headers);
}

/** The outcome recorded for an error status. */
export function outcomeOf(status: number): JournalOutcome {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 429:
      return 'throttled';
    default:
      return 'invalid_request';
  }
}

/**
 * An error in the endpoint's shape: `{error:{detail}}` (nested) or `{error}` (flat, lead webhook).
 */
export function errorResponse(
  shape: ErrorShape,
  status: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
): Resolved {
  const body = shape === 'flat' ? { error: message } : { error: { detail: message } };
  return { response: json(status, body, headers), outcome: outcomeOf(status) };
}

/** A nested-shape error. */
export function nestedError(
  status: number,
  detail: string,
  headers?: Readonly<Record<string, string>>,
): Resolved {
  return errorResponse('nested', status, detail, headers);
}

/** Prebuilt answers of the hot error paths. */
export const COMMON = {
  invalidKey: nestedError(401, ERROR_DETAILS.invalidKey),
  expiredKey: nestedError(401, ERROR_DETAILS.expiredKey),
  forbidden: nestedError(403, ERROR_DETAILS.permissionDenied),
  notFound: nestedError(404, ERROR_DETAILS.notFound),
} as const;
