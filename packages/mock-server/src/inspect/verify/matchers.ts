import { type RequestPattern, VerifyPatternError } from './pattern.js';
import { negatedMessage, VerificationError, type VerifyResult } from './recorded-requests.js';

/**
 * What the matchers read of the `this` vitest (or jest) hands a matcher: whether it runs under `.not`.
 *
 * @example
 * ```ts
 * const { pass } = mockServerMatchers.toHaveReceived.call({ isNot: false }, mock, { path: '/v1/users/' });
 * ```
 */
export interface MatcherContext {
  /** The expectation is negated (`expect(mock).not…`). */
  readonly isNot: boolean;
}

/**
 * What a matcher answers vitest (or jest): whether it passed, and what to say when the expectation fails.
 *
 * @example
 * ```ts
 * const result: MatcherResult = mockServerMatchers.toHaveReceived.call({ isNot: false }, mock);
 * if (!result.pass) console.log(result.message());
 * ```
 */
export interface MatcherResult {
  /** The journal holds what the pattern asks. */
  readonly pass: boolean;
  /** The report: the near misses, or (under `.not`) the requests that matched. */
  readonly message: () => string;
}

/** What the matchers verify: a mock server, by its `verify` alone. */
interface Verifiable {
  verify(pattern?: RequestPattern): VerifyResult;
}

/**
 * The matchers of `@company-data/mock-server/vitest`, for `expect.extend` (importing that entry extends
 * vitest's `expect` with them already): each runs `mock.verify` and fails with its report, the closest
 * requests received and how each differs.
 *
 * @example
 * ```ts
 * import { mockServerMatchers } from '@company-data/mock-server/vitest';
 * import { expect } from 'vitest';
 *
 * expect.extend(mockServerMatchers); // only for an `expect` of your own: the entry did it for vitest's
 * ```
 */
export const mockServerMatchers = {
  /**
   * Passes when the mock received requests matching the pattern, as many as its `times` says (at least one
   * by default).
   */
  toHaveReceived(this: MatcherContext, received: unknown, pattern: RequestPattern = {}): MatcherResult {
    return verified(this, received, pattern);
  },
  /** Passes when the mock received exactly `times` requests matching the pattern. */
  toHaveReceivedTimes(
    this: MatcherContext,
    received: unknown,
    times: number,
    pattern: RequestPattern = {},
  ): MatcherResult {
    if (pattern.times !== undefined)
      throw new VerifyPatternError(
        'times',
        'toHaveReceivedTimes(times, pattern) takes the count as its first argument: leave times out of the pattern, or use toHaveReceived(pattern).',
      );
    return verified(this, received, { ...pattern, times });
  },
};

/**
 * Runs `verify` for a matcher. A pattern the mock cannot use, and unmatched requests to report
 * (`onUnmatchedRequest: 'error'`), throw: the test fails, with or without `.not`.
 */
function verified(context: MatcherContext, received: unknown, pattern: RequestPattern): MatcherResult {
  const server = received as Partial<Verifiable> | null | undefined;
  if (typeof server?.verify !== 'function')
    throw new TypeError(
      `expect(mock).toHaveReceived(…) takes a mock server (from createMockServer() or startMockServer()); received ${received === null ? 'null' : typeof received}.`,
    );
  let result: VerifyResult;
  try {
    result = server.verify(pattern);
  } catch (error) {
    if (!(error instanceof VerificationError) || error.result.unmatched.length > 0) throw error;
    result = error.result;
  }
  const found = result;
  return { pass: found.matched, message: () => (context.isNot ? negatedMessage(found) : found.message) };
}
