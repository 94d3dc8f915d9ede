import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEADLINE_TICK_MS, DeadlinePassed, DeadlineTicker } from '../../src/request/deadline.js';

describe('the shared deadline check', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends each attempt within a tick of its deadline, with one timer for all', () => {
    const ticker = new DeadlineTicker();
    const short = ticker.watch(1_000, undefined);
    const long = ticker.watch(3_000, undefined);
    const ended: string[] = [];
    short.addEventListener('abort', () => ended.push('short'));
    long.addEventListener('abort', () => ended.push('long'));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000 - DEADLINE_TICK_MS);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(DEADLINE_TICK_MS);
    expect(ended).toEqual(['short']);
    expect(short.reason).toBeInstanceOf(DeadlinePassed);
    vi.advanceTimersByTime(2_000);
    expect(ended).toEqual(['short', 'long']);
  });

  it('runs only while attempts are in flight', () => {
    const ticker = new DeadlineTicker();
    const signal = ticker.watch(10_000, undefined);
    ticker.release(signal);
    expect(ticker.running).toBe(true);
    vi.advanceTimersByTime(DEADLINE_TICK_MS);
    expect(ticker.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    ticker.release(ticker.watch(10_000, undefined));
    expect(ticker.running).toBe(true);
    expect(signal.aborted).toBe(false);
  });

  it("forwards the caller's abort, and stops listening to it once released", () => {
    const ticker = new DeadlineTicker();
    const caller = new AbortController();
    const signal = ticker.watch(10_000, caller.signal);
    let aborted = 0;
    signal.addEventListener('abort', () => aborted++);
    caller.abort(new Error('user gave up'));
    expect(signal).toMatchObject({ aborted: true, reason: new Error('user gave up') });
    expect(aborted).toBe(1);
    const other = new AbortController();
    const released = ticker.watch(10_000, other.signal);
    ticker.release(released);
    other.abort();
    expect(released.aborted).toBe(false);
    const early = new AbortController();
    early.abort('before');
    expect(ticker.watch(10_000, early.signal)).toMatchObject({ aborted: true, reason: 'before' });
  });
});
