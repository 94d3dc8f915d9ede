import { describe, expect, it } from 'vitest';
import { DEFAULT_ACTIVITY, resolveActivity } from '../../../src/data/activity/options.js';
import { ActivitySchedule, activityEvents } from '../../../src/data/activity/schedule.js';

const START = Date.parse('2026-06-01T12:00:00Z');
const MINUTE = 60_000;
const busy = resolveActivity({
  callsPerMinute: 200,
  excusedShare: 0.3,
  excusedAfterMinutes: { min: 1, max: 4 },
  recordingsPerHour: 120,
  deactivationsPerDay: 2000,
  callDeletionsPerHour: 600,
});

describe('the activity schedule', () => {
  it('gives the same events whatever windows the time is cut into', () => {
    const once = activityEvents(7, busy, START, START, START + 10 * MINUTE);
    const schedule = new ActivitySchedule(7, busy, START);
    const cuts = [1, 3 * MINUTE, 3 * MINUTE, 3 * MINUTE + 17, 7 * MINUTE, 10 * MINUTE];
    const pieces = cuts.flatMap((cut) => schedule.take(START + cut));
    expect(pieces).toEqual(once);
    expect(activityEvents(7, busy, START, START + 3 * MINUTE, START + 10 * MINUTE)).toEqual(
      once.filter((event) => event.atMs > START + 3 * MINUTE),
    );
    expect(new Set(once.map((event) => event.kind))).toEqual(
      new Set(['call', 'excusal', 'recording', 'deactivation', 'deletion']),
    );
  });

  it('draws arrivals at the rate asked for, in time order, strictly after the start', () => {
    const events = activityEvents(1, busy, START, START, START + 10 * MINUTE);
    const calls = events.filter((event) => event.kind === 'call');
    // 2,000 expected; a Poisson count's standard deviation is about 45.
    expect(calls.length).toBeGreaterThan(1800);
    expect(calls.length).toBeLessThan(2200);
    expect(events[0]?.atMs).toBeGreaterThan(START);
    for (let index = 1; index < events.length; index++)
      expect(events[index]?.atMs).toBeGreaterThanOrEqual(events[index - 1]?.atMs as number);
    expect(new Set(calls.map((event) => event.kind === 'call' && event.id)).size).toBe(calls.length);
  });

  it('excuses a share of the arrived calls, each between min and max minutes after it arrived', () => {
    const events = activityEvents(3, busy, START, START, START + 20 * MINUTE);
    const arrived = new Map<string, number>();
    let excusals = 0;
    for (const event of events) {
      if (event.kind === 'call') arrived.set(event.id, event.atMs);
      if (event.kind !== 'excusal') continue;
      excusals++;
      const at = arrived.get(event.callId) as number;
      expect(event.atMs - at).toBeGreaterThanOrEqual(MINUTE);
      expect(event.atMs - at).toBeLessThanOrEqual(4 * MINUTE);
      expect(event.reason.length).toBeGreaterThan(0);
    }
    // Calls of the last four minutes may be excused after the window: count those that arrived before.
    const cutoff = START + 16 * MINUTE;
    const early = [...arrived.values()].filter((at) => at <= cutoff).length;
    const earlyExcusals = events.filter(
      (event) => event.kind === 'excusal' && (arrived.get(event.callId) as number) <= cutoff,
    ).length;
    expect(excusals).toBeGreaterThanOrEqual(earlyExcusals);
    const share = earlyExcusals / early;
    expect(share).toBeGreaterThan(0.27);
    expect(share).toBeLessThan(0.33);
  });

  it('depends on the seed and the start time, and a rate of 0 makes no event of its kind', () => {
    const a = activityEvents(1, busy, START, START, START + MINUTE);
    expect(activityEvents(2, busy, START, START, START + MINUTE)).not.toEqual(a);
    expect(activityEvents(1, busy, START + 1, START + 1, START + MINUTE + 1)).not.toEqual(a);
    const quiet = resolveActivity({ ...DEFAULT_ACTIVITY, callsPerMinute: 0, callDeletionsPerHour: 0 });
    const events = activityEvents(1, quiet, START, START, START + 24 * 60 * MINUTE);
    expect(events.filter((event) => event.kind === 'call' || event.kind === 'excusal')).toEqual([]);
    expect(events.filter((event) => event.kind === 'recording').length).toBeGreaterThan(60);
  });

  it('reads each arrival again from its place alone: its id, and when and why it is excused', () => {
    const schedule = new ActivitySchedule(5, busy, START);
    const events = schedule.take(START + 20 * MINUTE);
    const excusals = new Map(
      events.flatMap((event) => (event.kind === 'excusal' ? [[event.callId, event]] : [])),
    );
    let calls = 0;
    let recordings = 0;
    for (const event of events) {
      if (event.kind !== 'call' && event.kind !== 'recording') continue;
      expect(event.n).toBe(event.kind === 'call' ? calls++ : recordings++);
      expect(event.arrivals).toBe(event.kind === 'call' ? schedule.calls : schedule.recordings);
      expect(event.arrivals.id(event.n)).toBe(event.id);
      const excusal = excusals.get(event.id);
      const read = event.arrivals.excusal(event.n, event.atMs);
      // An excusal past the window's end is read, though not taken yet.
      if (excusal === undefined && read !== undefined) expect(read.atMs).toBeGreaterThan(START + 20 * MINUTE);
      else expect(read).toEqual(excusal && { atMs: excusal.atMs, reason: excusal.reason });
    }
    // Those excused after the window are read too: 30% of the calls, in all.
    expect(calls).toBeGreaterThan(3600);
    const excused = Array.from({ length: calls }, (_, n) => schedule.calls.excusal(n, START)).filter(Boolean);
    expect(excused.length / calls).toBeGreaterThan(0.27);
    expect(excused.length / calls).toBeLessThan(0.33);
    expect(schedule.recordings.excusal(0, START)).toBeUndefined();
  });

  it('reads nothing again when a window ends before the furthest time read', () => {
    const schedule = new ActivitySchedule(1, busy, START);
    const first = schedule.take(START + 2 * MINUTE);
    expect(first.length).toBeGreaterThan(0);
    expect(schedule.take(START + MINUTE)).toEqual([]);
    expect(schedule.reachedMs).toBe(START + 2 * MINUTE);
    expect(schedule.take(START + 3 * MINUTE)[0]?.atMs).toBeGreaterThan(START + 2 * MINUTE);
  });
});
