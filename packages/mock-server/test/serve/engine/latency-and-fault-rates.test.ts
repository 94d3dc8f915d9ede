import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULT_MIX, FaultRateTable, parseFaultMix } from '../../../src/serve/engine/faults.js';
import { LatencyTable, parseLatency } from '../../../src/serve/engine/latency.js';

const draws = (table: LatencyTable, count: number) =>
  Array.from({ length: count }, () => table.draw('GET', '/v1/calls/'));

describe('latency distributions', () => {
  it('fixed, uniform within its bounds, lognormal with its median and p99', () => {
    expect(new Set(draws(new LatencyTable({ fixedMs: 20 }, 1), 50))).toEqual(new Set([20]));
    const uniform = draws(new LatencyTable({ minMs: 10, maxMs: 80 }, 1), 2000);
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...uniform)).toBeLessThanOrEqual(80);
    expect(Math.max(...uniform) - Math.min(...uniform)).toBeGreaterThan(60);
    const sorted = draws(new LatencyTable({ medianMs: 30, p99Ms: 400 }, 1), 20_000).sort((a, b) => a - b);
    expect(sorted[10_000]).toBeGreaterThanOrEqual(27);
    expect(sorted[10_000]).toBeLessThanOrEqual(33);
    expect(sorted[19_800]).toBeGreaterThanOrEqual(330);
    expect(sorted[19_800]).toBeLessThanOrEqual(480);
  });

  it('is seeded: the same seed gives the same waits, another seed others', () => {
    const profile = { medianMs: 30, p99Ms: 400 };
    expect(draws(new LatencyTable(profile, 7), 100)).toEqual(draws(new LatencyTable(profile, 7), 100));
    expect(draws(new LatencyTable(profile, 7), 100)).not.toEqual(draws(new LatencyTable(profile, 8), 100));
  });

  it('matches rules by method and path, first match deciding', () => {
    const table = new LatencyTable(
      [
        { method: 'post', path: /webhook/, latency: { fixedMs: 5 } },
        { path: '/v1/users/', latency: { fixedMs: 7 } },
      ],
      1,
    );
    expect(table.draw('POST', '/messaging-agent/webhook/x/')).toBe(5);
    expect(table.draw('GET', '/messaging-agent/webhook/x/')).toBe(0);
    expect(table.draw('GET', '/v1/users/')).toBe(7);
    expect(table.draw('GET', '/v1/teams/')).toBe(0);
  });

  it('reads the command-line forms, and says which it accepts', () => {
    expect(parseLatency('20')).toEqual({ fixedMs: 20 });
    expect(parseLatency('10..80')).toEqual({ minMs: 10, maxMs: 80 });
    expect(parseLatency('lognormal:median=30,p99=400')).toEqual({ medianMs: 30, p99Ms: 400 });
    expect(() => parseLatency('fast')).toThrow(/<min>\.\.<max>/);
    expect(() => parseLatency('80..10')).toThrow(RangeError);
    expect(() => parseLatency('lognormal:median=30,p99=10')).toThrow(/p99Ms/);
  });
});

describe('fault rates', () => {
  it('fails about the share asked, with every entry of the mix, up to the cap', () => {
    const table = new FaultRateTable({ rate: 0.2 }, 1);
    const drawn = Array.from({ length: 5000 }, () => table.draw('GET', '/v1/calls/', true));
    const failed = drawn.filter((fault) => fault !== undefined);
    expect(failed.length).toBeGreaterThan(900);
    expect(failed.length).toBeLessThan(1100);
    for (const entry of DEFAULT_FAULT_MIX) expect(failed).toContainEqual({ ...entry, fromRate: true });
    const capped = new FaultRateTable({ rate: 1, max: 3 }, 1);
    const faults = Array.from({ length: 10 }, () => capped.draw('GET', '/', true));
    expect(faults.filter((fault) => fault !== undefined)).toHaveLength(3);
  });

  it('reads the command-line mix, and says which forms it accepts', () => {
    expect(parseFaultMix('503*3,drop,cut:100,html,html:504,malformed,delay:200,drip:4/50')).toEqual([
      { status: 503, weight: 3 },
      { drop: true },
      { cutAfterBytes: 100 },
      { status: 502, htmlPage: true },
      { status: 504, htmlPage: true },
      { malformedJson: true },
      { delayMs: 200 },
      { drip: { bytes: 4, everyMs: 50 } },
    ]);
    expect(() => parseFaultMix('503,boom')).toThrow(/cannot read "boom": use a status/);
    expect(() => parseFaultMix('999')).toThrow(/status must be an HTTP status/);
  });
});
