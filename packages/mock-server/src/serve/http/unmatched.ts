/**
 * Why the mock could not match a request to an operation of the API, or could not authenticate it:
 *
 * - `unknown_path`: no operation has its path (404);
 * - `missing_slash`: no operation has its path, but one has it with a final `/` (404);
 * - `method_not_allowed`: operations have its path, none its method (405);
 * - `missing_key`: a data endpoint without `Authorization: Bearer <key>` (401);
 * - `invalid_key`: a data endpoint with a key the mock does not know, or a revoked one (401);
 * - `expired_key`: a data endpoint with an expired key (401);
 * - `unknown_webhook_token`: a webhook path whose token no audience or live lead source has (404).
 *
 * Every other answer (400, 403, a 404 for an unknown record id, 429, …) is the API's answer to a request it
 * matched, journaled as usual.
 *
 * @example
 * ```ts
 * const reasons: UnmatchedReason[] = mock.unmatched().map((request) => request.reason);
 * ```
 */
export type UnmatchedReason =
  | 'unknown_path'
  | 'missing_slash'
  | 'method_not_allowed'
  | 'missing_key'
  | 'invalid_key'
  | 'expired_key'
  | 'unknown_webhook_token';

/** Why a request went unmatched: the reason, and the same in words. */
export interface Unmatched {
  readonly reason: UnmatchedReason;
  /** The reason in words, saying what would have matched when the mock can tell. */
  readonly detail: string;
}

/** The reasons that need nothing of the request, each with its words: their one home. */
export const UNMATCHED = {
  missingKey: {
    reason: 'missing_key',
    detail: 'No API key: the request has no "Authorization: Bearer <key>" header.',
  },
  invalidKey: { reason: 'invalid_key', detail: 'The mock knows no such API key, or it is revoked.' },
  expiredKey: { reason: 'expired_key', detail: 'The API key has expired.' },
  unknownAudience: { reason: 'unknown_webhook_token', detail: 'No audience has this webhook token.' },
  unknownLeadSource: {
    reason: 'unknown_webhook_token',
    detail: 'No live lead source has this webhook token (unknown, or deleted).',
  },
} as const satisfies Record<string, Unmatched>;

/**
 * A path no operation has.
 *
 * @param withSlash - the path with a final `/`, when an operation has that one.
 * @param closest - an operation's path close to it, when one is.
 */
export function unmatchedPath(withSlash: string | undefined, closest: string | undefined): Unmatched {
  if (withSlash !== undefined)
    return {
      reason: 'missing_slash',
      detail: `No operation of the API has this path: its paths end with a slash (${withSlash}).`,
    };
  return {
    reason: 'unknown_path',
    detail: `No operation of the API has this path${closest === undefined ? '' : ` (did you mean ${closest}?)`}.`,
  };
}

/**
 * A path whose operations take other methods.
 *
 * @param method - the request's method.
 * @param allow - the methods the path takes, e.g. `GET, HEAD`.
 */
export function unmatchedMethod(method: string, allow: string): Unmatched {
  return { reason: 'method_not_allowed', detail: `This path takes ${allow}, not ${method}.` };
}
