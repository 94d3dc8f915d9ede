import { describe, expect, it } from 'vitest';
import { RateGate, SlidingWindowSlots } from '../../src/request/rate-gate.js';
import { turn } from '../support/turns.js';

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

const abortError = () => new Error('aborted');

describe('RateGate', () => {
  it('is open until paused, then holds every waiter until the pause ends', async () => {
    const clock = manualClock();
    const gate = new RateGate({ sleep: clock.sleep, now: clock.now });
    await gate.wait(undefined, abortError);
    gate.pause(5_000);
    expect(gate.paused).toBe(true);
    let passed = 0;
    const waiters = [1, 2, 3].map(() => gate.wait(undefined, abortError).then(() => passed++));
    await turn();
    expect(passed).toBe(0);
    expect(clock.pending.map(({ ms }) => ms)).toEqual([5_000]);
    clock.releaseNext();
    await Promise.all(waiters);
    expect(passed).toBe(3);
    expect(gate.paused).toBe(false);
  });

  it('merges overlapping pauses: a shorter one adds no sleep, a longer one extends', async () => {
    const clock = manualClock();
    const gate = new RateGate({ sleep: clock.sleep, now: clock.now });
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
    await turn();
    expect(open).toBe(false);
    clock.releaseNext();
    await waiter;
    expect(open).toBe(true);
  });

  it('lets one waiter abort while the pause goes on for the others', async () => {
    const clock = manualClock();
    const gate = new RateGate({ sleep: clock.sleep, now: clock.now });
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
    const gate = new RateGate({
      sleep: (_ms, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve())),
      now: () => 0,
    });
    gate.pause(60_000);
    const waiter = gate.wait(undefined, abortError);
    gate.close();
    await expect(waiter).resolves.toBeUndefined();

    const failing = new RateGate({ sleep: () => Promise.reject(new Error('timer broke')), now: () => 0 });
    failing.pause(10);
    await expect(failing.wait(undefined, abortError)).resolves.toBeUndefined();
  });
});

describe('SlidingWindowSlots', () => {
  it('hands out `requests` slots at once, then each one window and the margin after the one `requests` back', () => {
    let now = 0;
    const slots = new SlidingWindowSlots({ requests: 3, perSeconds: 2, marginMs: 50 }, () => now);
    expect([1, 2, 3].map(() => slots.reserve())).toEqual([0, 0, 0]);
    // A burst beyond the quota: FIFO slots, one window apart per `requests`, each computed once.
    expect([1, 2, 3, 4].map(() => slots.reserve())).toEqual([2_050, 2_050, 2_050, 4_100]);
    now = 10_000;
    // Later than every reserved slot plus a window: free again, in full.
    expect([1, 2, 3].map(() => slots.reserve())).toEqual([0, 0, 0]);
    expect(slots.reserve()).toBe(2_050);
  });

  it('never lets more than `requests` fall in any window of `perSeconds` (property over random arrivals)', () => {
    let now = 0;
    const requests = 4;
    const windowMs = 1_000;
    const slots = new SlidingWindowSlots({ requests, perSeconds: windowMs / 1000, marginMs: 0 }, () => now);
    const sent: number[] = [];
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 48_271) % 2_147_483_647;
      now += seed % 300;
      sent.push(now + slots.reserve());
    }
    sent.sort((a, b) => a - b);
    for (let i = requests; i < sent.length; i++) {
      expect((sent[i] as number) - (sent[i - requests] as number)).toBeGreaterThanOrEqual(windowMs);
    }
  });
});

describe('RateGate with a quota', () => {
  it('holds each request until its slot, and the default path takes none', async () => {
    const clock = manualClock();
    const gate = new RateGate({ quota: { requests: 2, perSeconds: 1 }, sleep: clock.sleep, now: clock.now });
    await gate.wait(undefined, abortError);
    await gate.wait(undefined, abortError);
    let third = false;
    const waiter = gate.wait(undefined, abortError).then(() => {
      third = true;
    });
    await turn();
    expect(third).toBe(false);
    expect(clock.pending.map(({ ms }) => ms)).toEqual([1_100]);
    clock.releaseNext();
    await waiter;
    expect(third).toBe(true);
  });

  it('gives up a slot taken before a pause and takes a new one after it', async () => {
    const reserved: number[] = [];
    const clock = manualClock();
    const gate = new RateGate({
      quota: { reserve: () => (reserved.push(clock.now()) === 1 ? 500 : 0) },
      sleep: clock.sleep,
      now: clock.now,
    });
    let passed = false;
    const waiter = gate.wait(undefined, abortError).then(() => {
      passed = true;
    });
    await turn();
    gate.pause(2_000);
    clock.releaseNext(); // the slot's 500 ms (the clock reads 500): a pause is now in force
    await turn();
    expect(passed).toBe(false);
    clock.releaseNext(); // the pause (the clock reads 2 500)
    await waiter;
    expect(reserved).toEqual([0, 2_500]);
  });

  it('a waiter aborts while it waits for its slot; close() ends every wait for a slot', async () => {
    const gate = new RateGate({
      quota: { requests: 1, perSeconds: 60 },
      sleep: (_ms, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve())),
      now: () => 0,
    });
    await gate.wait(undefined, abortError);
    const controller = new AbortController();
    const aborted = gate.wait(controller.signal, abortError);
    const other = gate.wait(undefined, abortError);
    controller.abort();
    await expect(aborted).rejects.toThrow('aborted');
    gate.close();
    await expect(other).resolves.toBeUndefined();
  });
});
