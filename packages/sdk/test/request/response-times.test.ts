import { describe, expect, it } from 'vitest';
import {
  HEDGE_MIN_AFTER_MS,
  HEDGE_MIN_SAMPLES,
  HEDGE_SAMPLES_KEPT,
  ResponseTimes,
} from '../../src/request/response-times.js';

describe('the adaptive hedge threshold', () => {
  it('says nothing before a response of the operation is known', () => {
    const times = new ResponseTimes();
    expect(times.hedgeAfterMs('listCalls')).toBeUndefined();
    times.record('listCalls', 500);
    expect(times.hedgeAfterMs('listCalls')).toBe(2 * 500);
    expect(times.hedgeAfterMs('retrieveCall')).toBeUndefined();
  });

  it('is twice the slowest time known while fewer than twenty are, then their 95th percentile', () => {
    const times = new ResponseTimes();
    for (const ms of [120, 300, 150, 110, 130]) times.record('listCalls', ms);
    expect(times.hedgeAfterMs('listCalls')).toBe(600);
    for (let sample = 5; sample < HEDGE_MIN_SAMPLES; sample++) times.record('listCalls', 130);
    // Twenty known: the 95th percentile is the 19th of them, the one outlier (300 ms) above it.
    expect(times.hedgeAfterMs('listCalls')).toBe(150);
  });

  it('is the 95th percentile of the recent times, never below the floor', () => {
    const times = new ResponseTimes();
    // 1..100 ms: the 95th of 100 sorted is 95 ms, below the floor.
    for (let ms = 1; ms <= 100; ms++) times.record('listCalls', ms);
    expect(times.hedgeAfterMs('listCalls')).toBe(HEDGE_MIN_AFTER_MS);
    // 10, 20, … 1,000 ms: the 95th is 950 ms; a slow outlier (the 5 % above) does not move it.
    for (let step = 1; step <= 100; step++) times.record('listCalls', step * 10);
    expect(times.hedgeAfterMs('listCalls')).toBe(950);
  });

  it('forgets times older than the last hundred', () => {
    const times = new ResponseTimes();
    for (let sample = 0; sample < HEDGE_SAMPLES_KEPT; sample++) times.record('listCalls', 5_000);
    expect(times.hedgeAfterMs('listCalls')).toBe(5_000);
    for (let sample = 0; sample < HEDGE_SAMPLES_KEPT; sample++) times.record('listCalls', 300);
    expect(times.hedgeAfterMs('listCalls')).toBe(300);
  });
});
