import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_NOW, MockClock, toEpochMs } from '../../src/index.js';

/** A real time the test moves by hand, so "real time passing" takes none. */
function realTime(start = 1_000_000) {
  const time = { now: start };
  return { time, realNow: () => time.now };
}

describe('clock', () => {
  it('runs with real time from its initial time by default', () => {
    const { time, realNow } = realTime();
    const clock = new MockClock(undefined, { realNow });
    expect(clock.frozen).toBe(false);
    expect(clock.now().toISOString()).toBe('2026-06-01T12:00:00.000Z');
    time.now += 1500;
    expect(clock.nowMs()).toBe(toEpochMs(DEFAULT_NOW) + 1500);
  });

  it('shifts a running clock with advance and set, and keeps running from there', () => {
    const { time, realNow } = realTime();
    const clock = new MockClock('2026-06-01T12:00:00Z', { realNow });
    clock.advance(60_000);
    expect(clock.now().toISOString()).toBe('2026-06-01T12:01:00.000Z');
    time.now += 1000;
    expect(clock.now().toISOString()).toBe('2026-06-01T12:01:01.000Z');
    clock.set('2030-01-01T00:00:00Z');
    time.now += 250;
    expect(clock.now().toISOString()).toBe('2030-01-01T00:00:00.250Z');
    clock.set(0);
    expect(clock.nowMs()).toBe(0);
  });

  it('freezes, moves only when told, and resumes from where it stands', () => {
    const { time, realNow } = realTime();
    const clock = new MockClock('2026-06-01T12:00:00Z', { realNow });
    time.now += 500;
    clock.freeze();
    expect(clock.frozen).toBe(true);
    time.now += 10_000;
    expect(clock.now().toISOString()).toBe('2026-06-01T12:00:00.500Z');
    clock.advance(1000);
    clock.set(clock.nowMs() + 500);
    expect(clock.now().toISOString()).toBe('2026-06-01T12:00:02.000Z');
    clock.resume();
    expect(clock.frozen).toBe(false);
    time.now += 3000;
    expect(clock.now().toISOString()).toBe('2026-06-01T12:00:05.000Z');
    clock.resume(); // running already: nothing changes
    expect(clock.now().toISOString()).toBe('2026-06-01T12:00:05.000Z');
  });

  it('starts frozen when asked, and reset returns to the initial time and mode', () => {
    const { time, realNow } = realTime();
    const frozen = new MockClock('2026-06-01T12:00:00Z', { mode: 'frozen', realNow });
    time.now += 5000;
    expect(frozen.now().toISOString()).toBe('2026-06-01T12:00:00.000Z');
    frozen.resume();
    frozen.advance(60_000);
    frozen.reset();
    expect(frozen.frozen).toBe(true);
    expect(frozen.nowMs()).toBe(frozen.initialMs());

    const running = new MockClock('2026-06-01T12:00:00Z', { realNow });
    running.freeze();
    running.advance(60_000);
    running.reset();
    expect(running.frozen).toBe(false);
    expect(running.nowMs()).toBe(running.initialMs());
    time.now += 10;
    expect(running.nowMs()).toBe(running.initialMs() + 10);
  });

  it('reads Date.now on every call, so fake timers drive a running clock', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 5_000 });
    try {
      const clock = new MockClock('2026-06-01T12:00:00Z');
      vi.setSystemTime(8_000);
      expect(clock.now().toISOString()).toBe('2026-06-01T12:00:03.000Z');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses bad times and modes', () => {
    expect(() => new MockClock('not a time')).toThrow(RangeError);
    expect(() => new MockClock(0, { mode: 'paused' as never })).toThrow(/running" or "frozen/);
    const clock = new MockClock(0);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.set('soon')).toThrow(RangeError);
  });
});
