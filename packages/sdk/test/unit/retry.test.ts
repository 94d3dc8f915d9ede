import { throttleDetail } from '@company-data/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  classifyStatus,
  INITIAL_RETRY_DELAY_MS,
  MAX_RETRY_DELAY_MS,
  rateLimitWaitMs,
} from '../../src/internal/retry.js';

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
  it('uses full jitter under an exponential ceiling capped at the maximum', () => {
    expect(backoffDelayMs(0, () => 0.5)).toBe(INITIAL_RETRY_DELAY_MS / 2);
    expect(backoffDelayMs(1, () => 0.5)).toBe(INITIAL_RETRY_DELAY_MS);
    expect(backoffDelayMs(30, () => 0.999)).toBeLessThan(MAX_RETRY_DELAY_MS);
    expect(backoffDelayMs(3, () => 0)).toBe(0);
  });

  it('stays within [0, ceiling) for any retry and random value', () => {
    fc.assert(
      fc.property(
        fc.nat(64),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, value) => {
          const delay = backoffDelayMs(retry, () => value);
          const ceiling = Math.min(MAX_RETRY_DELAY_MS, INITIAL_RETRY_DELAY_MS * 2 ** retry);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
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
