import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoSeconds, Timeline } from '../../../src/data/fake/time.js';

describe('generated times', () => {
  it('formats like Date#toISOString at whole seconds', () => {
    fc.assert(
      // The runtime's own Date is the oracle (years 1 to 9999): independent of the hand-written calendar arithmetic.
      fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_000 }), (ms) => {
        expect(isoSeconds(ms)).toBe(
          new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
        );
      }),
    );
    expect(isoSeconds(Date.UTC(2024, 1, 29, 23, 59, 59, 999))).toBe('2024-02-29T23:59:59Z');
    expect(isoSeconds(Date.UTC(-1, 0, 1))).toMatch(/^-/);
  });

  it('spreads strictly increasing whole seconds, whatever the jitter', () => {
    const timeline = new Timeline(1_000_000, 365, Date.UTC(2026, 5, 1));
    let previous = Number.NEGATIVE_INFINITY;
    for (let position = 0; position < 2000; position++) {
      const at = timeline.at(position * 499, position % 2 === 0 ? 0.999 : 0);
      expect(at % 1000).toBe(0);
      expect(at).toBeGreaterThan(previous);
      previous = at;
    }
    const dense = new Timeline(10, 0, 0);
    expect(dense.at(1, 0.999)).toBeLessThan(dense.at(2, 0));
  });
});
