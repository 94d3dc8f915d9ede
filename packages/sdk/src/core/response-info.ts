import type { ResponseHeaders } from './errors.js';
import type { HedgeOutcome } from './options.js';

/** Status and headers of the response a result was read from. */
export interface ResponseInfo {
  /** HTTP status, e.g. 200, or 201 for a newly added audience member. */
  status: number;
  /** Response headers, lower-case names. */
  headers: ResponseHeaders;
  /** Which copy answered, when the call was hedged and its second copy went out (see the `hedge` option). */
  hedge?: HedgeOutcome | undefined;
}

/**
 * A result together with the response it came from, as given by `.withResponse()`.
 *
 * @typeParam T - the parsed result.
 */
export interface WithResponse<T> {
  /** The parsed result, as `await` alone would give it. */
  data: T;
  /** Status and headers of the response. */
  response: ResponseInfo;
}
