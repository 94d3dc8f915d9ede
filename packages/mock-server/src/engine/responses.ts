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

const NOT_FOUND: Readonly<Record<ErrorShape, Resolved>> = {
  nested: nestedError(404, ERROR_DETAILS.notFound),
  flat: errorResponse('flat', 404, ERROR_DETAILS.leadNotFound),
};

/**
 * The 404 of an area, prebuilt: `{error:{detail:'Not found.'}}` (nested) or `{error:'Not found'}` (flat).
 *
 * @param shape - the error shape of the endpoint or area.
 */
export function notFound(shape: ErrorShape): Resolved {
  return NOT_FOUND[shape];
}
