import { throttleDetail } from '@company-data/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  classifyStatus,
  INITIAL_RETRY_DELAY_MS,
  MAX_RETRY_DELAY_MS,
  rateLimitWaitMs,
} from '../../src/request/retry.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

describe('rateLimitWaitMs', () => {
  it('reads Retry-After as delay-seconds, whole or fractional', () => {
    expect(rateLimitWaitMs({ 'retry-after': '60' }, undefined, NOW)).toBe(60_000);
    expect(rateLimitWaitMs({ 'retry-after': ' 1.5 ' }, undefined, NOW)).toBe(1_500);
    expect(rateLimitWaitMs({ 'retry-after': '0' }, undefined, NOW)).toBe(0);
  });

  it('reads Retry-After as an HTTP date, relative to now, never negative', () => {
    const inFive = new Date(NOW + 5_000).toUTCString();
    expect(rateLimitWaitMs({ 'retry-after': inFive }, undefined, NOW)).toBe(5_000);
    const past = new Date(NOW - 5_000).toUTCString();
    expect(rateLimitWaitMs({ 'retry-after': past }, undefined, NOW)).toBe(0);
  });

  it('prefers the header to the detail text', () => {
    expect(rateLimitWaitMs({ 'retry-after': '2' }, throttleDetail(60), NOW)).toBe(2_000);
  });

  it('falls back to the detail text, plural and singular', () => {
    expect(rateLimitWaitMs({}, throttleDetail(60), NOW)).toBe(60_000);
    expect(rateLimitWaitMs({}, throttleDetail(1), NOW)).toBe(1_000);
    expect(rateLimitWaitMs({}, 'Request was throttled. Expected available in 1 second.', NOW)).toBe(1_000);
    expect(rateLimitWaitMs({ 'retry-after': 'soon' }, throttleDetail(3), NOW)).toBe(3_000);
  });

  it('gives undefined when the server named no wait', () => {
    expect(rateLimitWaitMs({}, undefined, NOW)).toBeUndefined();
    expect(rateLimitWaitMs({}, 'Slow down.', NOW)).toBeUndefined();
    expect(rateLimitWaitMs({ 'retry-after': '' }, undefined, NOW)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  /** The largest double below 1: the top of what a random source may give. */
  const JUST_BELOW_ONE = 1 - 2 ** -53;
  /** A random source that gives `values` in turn and fails when asked for one more. */
  const draws =
    (...values: number[]) =>
    () => {
      const value = values.shift();
      if (value === undefined) throw new Error('drew more random numbers than expected');
      return value;
    };

  it('starts at 500 ms and caps at 8 s, as the docs say', () => {
    expect(INITIAL_RETRY_DELAY_MS).toBe(500);
    expect(MAX_RETRY_DELAY_MS).toBe(8_000);
  });

  // Worked out by hand: the ceiling is 500, 1000, 2000, 4000 ms for retries 0 to 3, then 8000 ms (the cap);
  // the delay is the drawn fraction of the ceiling, rounded down to a whole ms.
  it.each([
    { retry: 0, half: 250, threeQuarters: 375, top: 499 },
    { retry: 1, half: 500, threeQuarters: 750, top: 999 },
    { retry: 2, half: 1_000, threeQuarters: 1_500, top: 1_999 },
    { retry: 3, half: 2_000, threeQuarters: 3_000, top: 3_999 },
    { retry: 4, half: 4_000, threeQuarters: 6_000, top: 7_999 },
    { retry: 5, half: 4_000, threeQuarters: 6_000, top: 7_999 },
    { retry: 30, half: 4_000, threeQuarters: 6_000, top: 7_999 },
    { retry: 64, half: 4_000, threeQuarters: 6_000, top: 7_999 },
  ])(
    'retry $retry: $half ms at 0.5, $threeQuarters ms at 0.75, $top ms just below 1, 0 at 0',
    ({ retry, half, threeQuarters, top }) => {
      expect(backoffDelayMs(retry, draws(0.5))).toBe(half);
      expect(backoffDelayMs(retry, draws(0.75))).toBe(threeQuarters);
      expect(backoffDelayMs(retry, draws(JUST_BELOW_ONE))).toBe(top);
      expect(backoffDelayMs(retry, draws(0))).toBe(0);
    },
  );

  it('rounds down to a whole millisecond, one draw per delay', () => {
    const random = draws(0.0031, 0.0031, 0.9999, 0.9999);
    expect(backoffDelayMs(0, random)).toBe(1); // 1.55 ms
    expect(backoffDelayMs(4, random)).toBe(24); // 24.8 ms
    expect(backoffDelayMs(0, random)).toBe(499); // 499.95 ms
    expect(backoffDelayMs(4, random)).toBe(7_999); // 7999.2 ms
  });

  // The table above pins 0 at a draw of 0 and ceiling - 1 just below 1; these hold every draw in between.
  it('stays within [0, ceiling) for any retry and random value: whole ms, never less for a larger draw or a later retry', () => {
    const ceilingOf = (retry: number) => [500, 1_000, 2_000, 4_000][retry] ?? 8_000;
    const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
    fc.assert(
      fc.property(fc.nat(64), fraction, fraction, (retry, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const delay = backoffDelayMs(retry, () => high);
        expect(Number.isInteger(delay), `${delay}`).toBe(true);
        expect(delay).toBeLessThan(ceilingOf(retry));
        // With 0 at a draw of 0, never less for a larger draw means never below 0.
        expect(backoffDelayMs(retry, () => low)).toBeLessThanOrEqual(delay);
        expect(backoffDelayMs(retry + 1, () => high)).toBeGreaterThanOrEqual(delay);
      }),
    );
  });
});

describe('classifyStatus', () => {
  it('waits on 429, backs off on 408 and 5xx, never retries other statuses', () => {
    expect(classifyStatus(429)).toBe('rate_limit');
    for (const status of [408, 500, 502, 503, 504]) expect(classifyStatus(status)).toBe('backoff');
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422])
      expect(classifyStatus(status)).toBe('never');
  });
});
