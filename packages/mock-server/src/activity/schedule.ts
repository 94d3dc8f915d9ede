import { EXCUSE_REASONS } from '../fake/words.js';
import { hashInts, Prng } from '../random/prng.js';
import { type ActivityRate, perMs, type ResolvedActivity } from './options.js';

/**
 * One event of a company's activity, at a time in epoch ms. Picks (`deactivation`, `deletion`) are a
 * seeded fraction in [0, 1) applied to the records that exist when the event happens, so the schedule
 * itself never reads the data.
 */
export type ActivityEvent =
  | { readonly kind: 'call'; readonly atMs: number; readonly id: string }
  | { readonly kind: 'excusal'; readonly atMs: number; readonly callId: string; readonly reason: string }
  | { readonly kind: 'recording'; readonly atMs: number; readonly id: string }
  | { readonly kind: 'deactivation'; readonly atMs: number; readonly pick: number }
  | { readonly kind: 'deletion'; readonly atMs: number; readonly pick: number };

/** Mixed into the seed so activity draws from streams of its own (the data, latency and faults keep theirs). */
const ACTIVITY_SALT = 0xac71_7e55;

/**
 * One Poisson stream of events: exponential gaps drawn from its own seeded generator, from the start time.
 * Every event consumes a fixed number of draws, so the stream does not depend on who reads it when.
 */
class PoissonStream {
  readonly #random: Prng;
  readonly #perMs: number;
  #t: number;
  /** The time of the next event (ms, a whole number), or Infinity for a rate of 0. */
  nextMs: number;

  constructor(seed: number, kind: number, startMs: number, perMsRate: number) {
    this.#random = new Prng(hashInts(seed, ACTIVITY_SALT, kind, Math.floor(startMs / 2 ** 32), startMs | 0));
    this.#perMs = perMsRate;
    this.#t = startMs;
    // The floor of every event time: events come strictly after the start, and never go back in time.
    this.nextMs = startMs + 1;
    this.#step();
  }

  get random(): Prng {
    return this.#random;
  }

  /** Moves to the following event. */
  #step(): void {
    if (this.#perMs <= 0) {
      this.nextMs = Number.POSITIVE_INFINITY;
      return;
    }
    this.#t += -Math.log(1 - this.#random.next()) / this.#perMs;
    // Ceiling: an event at 12:00:00.4003 happens once the clock reaches .401.
    this.nextMs = Math.max(Math.ceil(this.#t), this.nextMs);
  }

  /** Consumes the current event; the caller draws its details from {@link PoissonStream.random} first. */
  advance(): void {
    this.#step();
  }
}

/** An excusal waiting for its time; `seq` (the call's arrival number) orders excusals of one millisecond. */
interface PendingExcusal {
  readonly atMs: number;
  readonly seq: number;
  readonly callId: string;
  readonly reason: string;
}

const earlier = (a: PendingExcusal, b: PendingExcusal) =>
  a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);

/** A binary min-heap of pending excusals, by time then by arrival order. */
class ExcusalQueue {
  readonly #items: PendingExcusal[] = [];

  /** The time of the next excusal, or Infinity when none is pending. */
  get nextMs(): number {
    return this.#items[0]?.atMs ?? Number.POSITIVE_INFINITY;
  }

  push(item: PendingExcusal): void {
    const items = this.#items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!earlier(item, items[parent] as PendingExcusal)) break;
      items[index] = items[parent] as PendingExcusal;
      index = parent;
    }
    items[index] = item;
  }

  /** Removes and returns the next excusal (the queue must not be empty). */
  pop(): PendingExcusal {
    const items = this.#items;
    const top = items[0] as PendingExcusal;
    const last = items.pop() as PendingExcusal;
    if (items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && earlier(items[right] as PendingExcusal, items[left] as PendingExcusal)
          ? right
          : left;
      if (!earlier(items[child] as PendingExcusal, last)) break;
      items[index] = items[child] as PendingExcusal;
      index = child;
    }
    items[index] = last;
    return top;
  }
}

/** An event kind, in the order kinds go on one millisecond (an excusal always after its call's arrival). */
type Kind = ActivityEvent['kind'];

const STREAM: Readonly<Record<'call' | 'recording' | 'deactivation' | 'deletion', number>> = {
  call: 1,
  recording: 2,
  deactivation: 3,
  deletion: 4,
};
const RATE_OF: Readonly<Record<keyof typeof STREAM, ActivityRate>> = {
  call: 'callsPerMinute',
  recording: 'recordingsPerHour',
  deactivation: 'deactivationsPerDay',
  deletion: 'callDeletionsPerHour',
};

/**
 * A company's seeded schedule of events from a start time, read forward in windows: `take(to)` returns the
 * events after the previous window up to `to` inclusive. The events depend only on the seed, the activity
 * and the start time, never on how time was cut into windows: `take(3 min)` then `take(10 min)` gives what
 * `take(10 min)` gives at once. A window ending before the previous one gives nothing (time never runs back
 * here: {@link ActivitySchedule.reachedMs} stays the furthest time read).
 *
 * @example
 * ```ts
 * const schedule = new ActivitySchedule(1, resolveActivity({ callsPerMinute: 60 }), Date.parse('2026-06-01T12:00:00Z'));
 * schedule.take(Date.parse('2026-06-01T12:10:00Z')).filter((event) => event.kind === 'call').length; // about 600
 * ```
 */
export class ActivitySchedule {
  /** When the schedule starts (events come strictly after it). */
  readonly startMs: number;
  readonly #activity: ResolvedActivity;
  readonly #streams: Readonly<Record<keyof typeof STREAM, PoissonStream>>;
  readonly #excusals = new ExcusalQueue();
  #arrivals = 0;
  #reached: number;

  /**
   * @param seed - the server's seed.
   * @param activity - the activity in force (resolved).
   * @param startMs - the start time (the clock's initial time, or when the activity was last set).
   */
  constructor(seed: number, activity: ResolvedActivity, startMs: number) {
    this.startMs = startMs;
    this.#activity = activity;
    this.#reached = startMs;
    const stream = (kind: keyof typeof STREAM) =>
      new PoissonStream(seed, STREAM[kind], startMs, perMs(activity, RATE_OF[kind]));
    this.#streams = {
      call: stream('call'),
      recording: stream('recording'),
      deactivation: stream('deactivation'),
      deletion: stream('deletion'),
    };
  }

  /** The furthest time read so far (the start time before any window). */
  get reachedMs(): number {
    return this.#reached;
  }

  /** The time of the next event, or Infinity when no event will ever come. */
  get nextMs(): number {
    const { call, recording, deactivation, deletion } = this.#streams;
    return Math.min(
      call.nextMs,
      this.#excusals.nextMs,
      recording.nextMs,
      deactivation.nextMs,
      deletion.nextMs,
    );
  }

  /**
   * The events after the furthest time read so far, up to `toMs` inclusive, oldest first (events on the
   * same millisecond: calls, excusals, recordings, deactivations, deletions).
   *
   * @param toMs - the end of the window (epoch ms).
   * @returns the events (none when `toMs` is not past the furthest time read).
   */
  take(toMs: number): ActivityEvent[] {
    const events: ActivityEvent[] = [];
    if (toMs <= this.#reached) return events;
    this.#reached = toMs;
    for (;;) {
      const next = this.#next(toMs);
      if (next === undefined) return events;
      events.push(next);
    }
  }

  #next(toMs: number): ActivityEvent | undefined {
    const { call, recording, deactivation, deletion } = this.#streams;
    const candidates: [Kind, number][] = [
      ['call', call.nextMs],
      ['excusal', this.#excusals.nextMs],
      ['recording', recording.nextMs],
      ['deactivation', deactivation.nextMs],
      ['deletion', deletion.nextMs],
    ];
    let kind: Kind | undefined;
    let atMs = Number.POSITIVE_INFINITY;
    for (const [candidate, time] of candidates) {
      // Strictly earlier wins: on the same millisecond the first in this list's order goes first.
      if (time < atMs) {
        kind = candidate;
        atMs = time;
      }
    }
    if (kind === undefined || atMs > toMs) return undefined;
    switch (kind) {
      case 'call':
        return this.#arrival(atMs);
      case 'excusal': {
        const { callId, reason } = this.#excusals.pop();
        return { kind, atMs, callId, reason };
      }
      case 'recording': {
        const id = recording.random.uuid();
        recording.advance();
        return { kind, atMs, id };
      }
      default: {
        const stream = this.#streams[kind];
        const pick = stream.random.next();
        stream.advance();
        return { kind, atMs, pick };
      }
    }
  }

  #arrival(atMs: number): ActivityEvent {
    const stream = this.#streams.call;
    const { random } = stream;
    // Every arrival draws the same numbers whatever it becomes, so the stream never shifts.
    const id = random.uuid();
    const excused = random.next() < this.#activity.excusedShare;
    const { min, max } = this.#activity.excusedAfterMinutes;
    const delayMs = Math.round((min + random.next() * (max - min)) * 60_000);
    const reason = EXCUSE_REASONS[random.int(EXCUSE_REASONS.length)] as string;
    stream.advance();
    if (excused) this.#excusals.push({ atMs: atMs + delayMs, seq: this.#arrivals, callId: id, reason });
    this.#arrivals++;
    return { kind: 'call', atMs, id };
  }
}

/**
 * The events of a schedule in the window (`fromMs`, `toMs`]: a pure function of its arguments.
 *
 * @param seed - the server's seed.
 * @param activity - the activity (resolved).
 * @param startMs - when the schedule starts.
 * @param fromMs - the window's start (exclusive).
 * @param toMs - the window's end (inclusive).
 * @returns the events, oldest first.
 * @example
 * ```ts
 * const start = Date.parse('2026-06-01T12:00:00Z');
 * activityEvents(1, resolveActivity({}), start, start, start + 600_000); // the first ten minutes
 * ```
 */
export function activityEvents(
  seed: number,
  activity: ResolvedActivity,
  startMs: number,
  fromMs: number,
  toMs: number,
): ActivityEvent[] {
  const schedule = new ActivitySchedule(seed, activity, startMs);
  schedule.take(fromMs);
  return schedule.take(toMs);
}
