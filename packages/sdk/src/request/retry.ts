import { parseThrottleDetail } from '@company-data/contract/runtime';
import type { ResponseHeaders } from '../core/errors.js';

/** First backoff ceiling, doubled on every retry. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Backoff ceiling never exceeds this. */
export const MAX_RETRY_DELAY_MS = 8_000;

/**
 * How long a 429 asks the client to wait, in milliseconds: the `Retry-After` header (delay-seconds or
 * an HTTP date), else the number in the detail text ("Expected available in N seconds."). `undefined`
 * when the server said neither.
 *
 * @param headers - response headers (lower-case names).
 * @param detail - the error detail text.
 * @param now - current time in epoch ms (to turn an HTTP date into a delay).
 */
export function rateLimitWaitMs(
  headers: ResponseHeaders,
  detail: string | undefined,
  now: number,
): number | undefined {
  const header = headers['retry-after']?.trim();
  if (header) {
    if (/^\d+(\.\d+)?$/.test(header)) return Number(header) * 1000;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const seconds = detail === undefined ? undefined : parseThrottleDetail(detail);
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * Exponential backoff with full jitter: a uniformly random delay between 0 and
 * `min(MAX_RETRY_DELAY_MS, INITIAL_RETRY_DELAY_MS * 2^retry)`, so clients that failed together do not
 * come back together.
 *
 * @param retry - 0 for the first retry.
 * @param random - a source of numbers in [0, 1).
 */
export function backoffDelayMs(retry: number, random: () => number): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, INITIAL_RETRY_DELAY_MS * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** What to do with a failed attempt. */
export type RetryClass = 'rate_limit' | 'backoff' | 'never';

/**
 * Classifies a response status: 429 waits as the server says, 408 and 5xx back off, every other
 * status is final.
 *
 * @param status - the HTTP status.
 */
export function classifyStatus(status: number): RetryClass {
  if (status === 429) return 'rate_limit';
  if (status === 408 || status >= 500) return 'backoff';
  return 'never';
}
