import { describe, expect, it } from 'vitest';
import { RateGate } from '../../src/rate-gate.js';

/** A clock whose sleeps stay pending until the test releases them. */
function manualClock() {
  let now = 0;
  const pending: { ms: number; resolve: () => void }[] = [];
  return {
    pending,
    now: () => now,
    sleep: (ms: number) => new Promise<void>((resolve) => pending.push({ ms, resolve })),
    releaseNext() {
      const next = pending.shift();
      if (!next) throw new Error('no pending sleep');
      now += next.ms;
      next.resolve();
    },
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const abortError = () => new Error('aborted');

describe('RateGate', () => {
  it('is open until paused, then holds every waiter until the pause ends', async () => {
    const clock = manualClock();
    const gate = new RateGate(clock.sleep, clock.now);
    await gate.wait(undefined, abortError);
    gate.pause(5_000);
    expect(gate.paused).toBe(true);
    let passed = 0;
    const waiters = [1, 2, 3].map(() => gate.wait(undefined, abortError).then(() => passed++));
    await tick();
    expect(passed).toBe(0);
    expect(clock.pending.map(({ ms }) => ms)).toEqual([5_000]);
    clock.releaseNext();
    await Promise.all(waiters);
    expect(passed).toBe(3);
    expect(gate.paused).toBe(false);
  });

  it('merges overlapping pauses: a shorter one adds no sleep, a longer one extends', async () => {
    const clock = manualClock();
    const gate = new RateGate(clock.sleep, clock.now);
    gate.pause(5_000);
    gate.pause(5_000);
    gate.pause(1_000);
    expect(clock.pending).toHaveLength(1);
    gate.pause(8_000);
    expect(clock.pending.map(({ ms }) => ms)).toEqual([5_000, 8_000]);
    let open = false;
    const waiter = gate.wait(undefined, abortError).then(() => {
      open = true;
    });
    clock.releaseNext();
    await tick();
    expect(open).toBe(false);
    clock.releaseNext();
    await waiter;
    expect(open).toBe(true);
  });

  it('lets one waiter abort while the pause goes on for the others', async () => {
    const clock = manualClock();
    const gate = new RateGate(clock.sleep, clock.now);
    gate.pause(1_000);
    const controller = new AbortController();
    const aborted = gate.wait(controller.signal, abortError);
    const other = gate.wait(undefined, abortError);
    controller.abort();
    await expect(aborted).rejects.toThrow('aborted');
    expect(gate.paused).toBe(true);
    clock.releaseNext();
    await expect(other).resolves.toBeUndefined();
  });

  it('opens on close, whatever the pending sleep does, and a failing sleep also opens it', async () => {
    const gate = new RateGate(
      (_ms, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve())),
      () => 0,
    );
    gate.pause(60_000);
    const waiter = gate.wait(undefined, abortError);
    gate.close();
    await expect(waiter).resolves.toBeUndefined();

    const failing = new RateGate(
      () => Promise.reject(new Error('timer broke')),
      () => 0,
    );
    failing.pause(10);
    await expect(failing.wait(undefined, abortError)).resolves.toBeUndefined();
  });
});
