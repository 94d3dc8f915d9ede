import { ERROR_DETAILS, type ErrorShape } from '@company-data/contract';
import type { JournalOutcome, MockResponse, Resolved } from './types.js';
import type { Unmatched } from './unmatched.js';

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
 * The one builder of every error body the mock answers: `{error:{detail}}` (nested, with any `extra`
 * fields beside `detail`) or `{error}` (flat, the lead webhook's).
 *
 * @param shape - the endpoint's or area's error shape.
 * @param message - the detail text.
 * @param extra - more fields of a nested error (e.g. a fixture's `issues`); ignored by the flat shape.
 */
export function errorBody(
  shape: ErrorShape,
  message: string,
  extra?: Readonly<Record<string, unknown>>,
): { readonly error: unknown } {
  if (shape === 'flat') return { error: message };
  return { error: extra === undefined ? { detail: message } : { detail: message, ...extra } };
}

/**
 * An error response (the body from {@link errorBody}).
 *
 * @param status - the status.
 * @param message - the detail text.
 * @param options - headers, the error shape (default nested) and extra fields of a nested body.
 */
export function errorJson(
  status: number,
  message: string,
  options: {
    readonly headers?: Readonly<Record<string, string>> | undefined;
    readonly shape?: ErrorShape | undefined;
    readonly extra?: Readonly<Record<string, unknown>> | undefined;
  } = {},
): MockResponse {
  return json(status, errorBody(options.shape ?? 'nested', message, options.extra), options.headers);
}

/** An error in the endpoint's shape, with the outcome its status records. */
export function errorResponse(
  shape: ErrorShape,
  status: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
): Resolved {
  return { response: errorJson(status, message, { headers, shape }), outcome: outcomeOf(status) };
}

/**
 * The 405 of every area (API, admin API, OpenAPI document): one text, and the `Allow` header listing
 * the methods the path takes.
 *
 * @param shape - the area's error shape.
 * @param method - the refused method.
 * @param allow - the allowed methods, e.g. `GET, HEAD`.
 */
export function methodNotAllowed(shape: ErrorShape, method: string, allow: string): Resolved {
  return errorResponse(shape, 405, `Method "${method}" not allowed.`, { allow });
}

/**
 * An answer to a request the mock could not match, saying why (for `mock.unmatched()`); the answer itself
 * is unchanged.
 *
 * @param resolved - the answer.
 * @param why - why it went unmatched.
 */
export function unmatched(resolved: Resolved, why: Unmatched): Resolved {
  return { response: resolved.response, outcome: resolved.outcome, unmatched: why };
}

/** The 500 of a request the mock failed on (never expected): the reason beats a hung client. */
export function serverError(error: unknown): MockResponse {
  return errorJson(500, `Mock server error: ${String(error)}`);
}

/** The detail of an injected fault's answer when the fault names no body. */
export const INJECTED_FAULT_DETAIL = 'Injected fault.';

/** The header and text telling a client its path lacks the trailing slash every API path ends with. */
export const MISSING_SLASH_HINT = {
  header: 'x-mock-hint',
  text: 'Paths end with a trailing slash.',
} as const;

const NOT_FOUND: Readonly<Record<ErrorShape, Resolved>> = {
  nested: errorResponse('nested', 404, ERROR_DETAILS.notFound),
  flat: errorResponse('flat', 404, ERROR_DETAILS.leadNotFound),
};

const NOT_FOUND_WITH_HINT: Readonly<Record<ErrorShape, Resolved>> = {
  nested: errorResponse('nested', 404, ERROR_DETAILS.notFound, {
    [MISSING_SLASH_HINT.header]: MISSING_SLASH_HINT.text,
  }),
  flat: errorResponse('flat', 404, ERROR_DETAILS.leadNotFound, {
    [MISSING_SLASH_HINT.header]: MISSING_SLASH_HINT.text,
  }),
};

/**
 * The 404 of an area, prebuilt: `{error:{detail:'Not found.'}}` (nested) or `{error:'Not found'}` (flat).
 *
 * @param shape - the error shape of the endpoint or area.
 * @param missingSlash - the path matches a route once a `/` is added: the answer carries {@link MISSING_SLASH_HINT}.
 */
export function notFound(shape: ErrorShape, missingSlash = false): Resolved {
  return missingSlash ? NOT_FOUND_WITH_HINT[shape] : NOT_FOUND[shape];
}
