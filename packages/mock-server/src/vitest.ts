/**
 * Vitest matchers for a mock server: `expect(mock).toHaveReceived(pattern)` and
 * `expect(mock).toHaveReceivedTimes(n, pattern)`, each failing with the report of `mock.verify` (the
 * closest requests received and how each differs). Importing this entry extends vitest's `expect` and, for
 * TypeScript, its `Assertion` type. vitest is an optional peer dependency (vitest 4): this entry loads it,
 * the rest of the package never does.
 *
 * @module @company-data/mock-server/vitest
 * @group Entry points
 */
import { expect } from 'vitest';
import { type MatcherContext, type MatcherResult, mockServerMatchers } from './verify/matchers.js';
import type { RequestPattern } from './verify/pattern.js';

expect.extend(mockServerMatchers);

export { type MatcherContext, type MatcherResult, mockServerMatchers };

/**
 * The mock server's matchers, as vitest's `Assertion` gains them (declaration merging on vitest's
 * `Matchers`).
 *
 * @example
 * ```ts
 * import '@company-data/mock-server/vitest';
 * import { expect } from 'vitest';
 *
 * expect(mock).toHaveReceived({ method: 'GET', path: '/v1/calls/', query: { page: 2 } });
 * expect(mock).toHaveReceivedTimes(1, { method: 'POST', path: '/v1/outbound-campaigns/webhook/{token}/' });
 * expect(mock).not.toHaveReceived({ method: 'DELETE' });
 * ```
 */
export interface MockServerMatchers<R = unknown> {
  /**
   * Passes when the mock received requests matching the pattern, as many as its `times` says (at least
   * one by default); fails with the closest requests received and how each differs.
   *
   * @param pattern - which requests (see {@link RequestPattern}); none: any request.
   */
  toHaveReceived(pattern?: RequestPattern): R;
  /**
   * Passes when the mock received exactly `times` requests matching the pattern.
   *
   * @param times - how many, exactly (0: none).
   * @param pattern - which requests, without `times`.
   */
  toHaveReceivedTimes(times: number, pattern?: RequestPattern): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Matchers<T = any>; a merged declaration must match it.
  interface Matchers<T = any> extends MockServerMatchers<T> {}
}
