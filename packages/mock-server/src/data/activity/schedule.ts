import { EXCUSE_REASONS } from '../fake/words.js';
import { hashInts, Prng } from '../random/prng.js';
import { type ActivityRate, perMs, type ResolvedActivity } from './options.js';

/**
 * The arrivals of one kind in a schedule, each a function of its place in the stream (`n`, from 0): what
 * an arrived record is generated again from, as a seeded record is from its position.
 */
export interface ScheduledArrivals {
  /** The kind of record that arrives. */
  readonly kind: 'call' | 'recording';
  /** When the schedule they belong to starts (what, with the seed and the activity, makes them again). */
  readonly startMs: number;
  /** The activity of that schedule. */
  readonly activity: ResolvedActivity;
  /**
   * The id of arrival `n`.
   *
   * @param n - the arrival's place in the stream, from 0.
   */
  id(n: number): string;
  /**
   * When and why arrival `n` is excused, or undefined for an arrival never excused (a recording's, or a call
   * outside the excused share). Whether it happened is the data's business: a call deleted meanwhile is not.
   *
   * @param n - the arrival's place in the stream.
   * @param atMs - when it arrived (epoch ms).
   */
  excusal(n: number, atMs: number): { readonly atMs: number; readonly reason: string } | undefined;
}

/**
 * One event of a company's activity, at a time in epoch ms. An arrival names its place `n` in its stream
 * (`arrivals`), from which the record is generated. Picks (`deactivation`, `deletion`) are a seeded fraction
 * in [0, 1) applied to the records that exist when the event happens, so the schedule itself never reads
 * the data.
 */
export type ActivityEvent =
  | {
      readonly kind: 'call' | 'recording';
      readonly atMs: number;
      readonly id: string;
      readonly n: number;
      readonly arrivals: ScheduledArrivals;
    }
  | { readonly kind: 'excusal'; readonly atMs: number; readonly callId: string; readonly reason: string }
  | { readonly kind: 'deactivation'; readonly atMs: number; readonly pick: number }
  | { readonly kind: 'deletion'; readonly atMs: number; readonly pick: number };

/** Mixed into the seed so activity draws from streams of its own (the data, latency and faults keep theirs). */
const ACTIVITY_SALT = 0xac71_7e55;

/**
 * One Poisson stream of events: exponential gaps drawn from its own seeded generator, from the start time.
 * Every event draws a fixed number of details (`detailDraws`) then its gap to the next, so the stream does
 * not depend on who reads it when, and the details of event `n` can be read again at once ({@link detailsOf}).
 */
class PoissonStream {
  readonly #seed: number;
  readonly #random: Prng;
  readonly #perMs: number;
  readonly #detailDraws: number;
  #t: number;
  /** Events consumed so far: the place of the current event. */
  #index = 0;
  /** The time of the next event (ms, a whole number), or Infinity for a rate of 0. */
  nextMs: number;

  constructor(seed: number, kind: number, startMs: number, perMsRate: number, detailDraws: number) {
    this.#seed = hashInts(seed, ACTIVITY_SALT, kind, Math.floor(startMs / 2 ** 32), startMs | 0);
    this.#random = new Prng(this.#seed);
    this.#perMs = perMsRate;
    this.#detailDraws = detailDraws;
    this.#t = startMs;
    // The floor of every event time: events come strictly after the start, and never go back in time.
    this.nextMs = startMs + 1;
    this.#step();
  }

  /** Where the current event draws its details: exactly `detailDraws` numbers, before {@link advance}. */
  get random(): Prng {
    return this.#random;
  }

  /** The place of the current event in the stream (0 for the first). */
  get index(): number {
    return this.#index;
  }

  /**
   * The generator as event `n` found it: the same numbers its details were drawn from.
   *
   * @param n - an event's place in the stream.
   */
  detailsOf(n: number): Prng {
    // The first gap, then each event's details and the gap after it.
    return Prng.after(this.#seed, 1 + n * (this.#detailDraws + 1));
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
    this.#index++;
    this.#step();
  }
}

/** What an arriving call draws: its id and, whether it is excused or not, an excusal delay and a reason. */
interface CallDetails {
  readonly id: string;
  readonly excused: boolean;
  readonly delayMs: number;
  readonly reason: string;
}

/** How many numbers {@link drawCall} draws (a uuid is four): the call stream's details per event. */
const CALL_DETAIL_DRAWS = 7;
/** How many numbers a recording's details draw: its uuid. */
const RECORDING_DETAIL_DRAWS = 4;
/** How many numbers a pick draws. */
const PICK_DETAIL_DRAWS = 1;

/** Draws an arriving call's details: the same numbers whatever it becomes, so the stream never shifts. */
function drawCall(random: Prng, activity: ResolvedActivity): CallDetails {
  const id = random.uuid();
  const excused = random.next() < activity.excusedShare;
  const { min, max } = activity.excusedAfterMinutes;
  const delayMs = Math.round((min + random.next() * (max - min)) * 60_000);
  const reason = EXCUSE_REASONS[random.int(EXCUSE_REASONS.length)] as string;
  return { id, excused, delayMs, reason };
}

/** The arrivals of one stream, read again from their places. */
class StreamArrivals implements ScheduledArrivals {
  readonly kind: 'call' | 'recording';
  readonly startMs: number;
  readonly activity: ResolvedActivity;
  readonly #stream: PoissonStream;

  constructor(
    kind: 'call' | 'recording',
    stream: PoissonStream,
    activity: ResolvedActivity,
    startMs: number,
  ) {
    this.kind = kind;
    this.#stream = stream;
    this.activity = activity;
    this.startMs = startMs;
  }

  id(n: number): string {
    // Both kinds draw their uuid first.
    return this.#stream.detailsOf(n).uuid();
  }

  excusal(n: number, atMs: number): { atMs: number; reason: string } | undefined {
    if (this.kind !== 'call') return undefined;
    const call = drawCall(this.#stream.detailsOf(n), this.activity);
    return call.excused ? { atMs: atMs + call.delayMs, reason: call.reason } : undefined;
  }
}

/**
 * An excusal waiting for its time; `seq` (the call's place in its stream) orders excusals of one millisecond,
 * and gives the call's id and the reason again when it comes (so a waiting excusal holds two numbers).
 */
interface PendingExcusal {
  readonly atMs: number;
  readonly seq: number;
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

type StreamKind = 'call' | 'recording' | 'deactivation' | 'deletion';
const STREAM: Readonly<Record<StreamKind, number>> = {
  call: 1,
  recording: 2,
  deactivation: 3,
  deletion: 4,
};
const DETAIL_DRAWS: Readonly<Record<StreamKind, number>> = {
  call: CALL_DETAIL_DRAWS,
  recording: RECORDING_DETAIL_DRAWS,
  deactivation: PICK_DETAIL_DRAWS,
  deletion: PICK_DETAIL_DRAWS,
};
const RATE_OF: Readonly<Record<StreamKind, ActivityRate>> = {
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
  readonly #streams: Readonly<Record<StreamKind, PoissonStream>>;
  /** The calls that arrive in this schedule, each generated again from its place. */
  readonly calls: ScheduledArrivals;
  /** The recordings that arrive in this schedule. */
  readonly recordings: ScheduledArrivals;
  readonly #excusals = new ExcusalQueue();
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
    const stream = (kind: StreamKind) =>
      new PoissonStream(seed, STREAM[kind], startMs, perMs(activity, RATE_OF[kind]), DETAIL_DRAWS[kind]);
    const streams = {
      call: stream('call'),
      recording: stream('recording'),
      deactivation: stream('deactivation'),
      deletion: stream('deletion'),
    };
    this.#streams = streams;
    this.calls = new StreamArrivals('call', streams.call, activity, startMs);
    this.recordings = new StreamArrivals('recording', streams.recording, activity, startMs);
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
    this.takeEach(toMs, (event) => events.push(event));
    return events;
  }

  /**
   * As {@link ActivitySchedule.take}, handing each event to `visit` as it is drawn: an hour of a busy
   * activity is never held as one array.
   *
   * @param toMs - the end of the window (epoch ms).
   * @param visit - called with each event, oldest first.
   * @returns how many events there were.
   */
  takeEach(toMs: number, visit: (event: ActivityEvent) => void): number {
    if (toMs <= this.#reached) return 0;
    this.#reached = toMs;
    for (let count = 0; ; count++) {
      const next = this.#next(toMs);
      if (next === undefined) return count;
      visit(next);
    }
  }

  #next(toMs: number): ActivityEvent | undefined {
    const { call, recording, deactivation, deletion } = this.#streams;
    // Strictly earlier wins: on the same millisecond the kind considered first goes first.
    let kind: Kind = 'call';
    let atMs = call.nextMs;
    if (this.#excusals.nextMs < atMs) {
      kind = 'excusal';
      atMs = this.#excusals.nextMs;
    }
    if (recording.nextMs < atMs) {
      kind = 'recording';
      atMs = recording.nextMs;
    }
    if (deactivation.nextMs < atMs) {
      kind = 'deactivation';
      atMs = deactivation.nextMs;
    }
    if (deletion.nextMs < atMs) {
      kind = 'deletion';
      atMs = deletion.nextMs;
    }
    if (atMs > toMs) return undefined;
    switch (kind) {
      case 'call':
        return this.#arrival(atMs);
      case 'excusal': {
        const { seq } = this.#excusals.pop();
        const { id, reason } = drawCall(this.#streams.call.detailsOf(seq), this.#activity);
        return { kind, atMs, callId: id, reason };
      }
      case 'recording': {
        const n = recording.index;
        const id = recording.random.uuid();
        recording.advance();
        return { kind, atMs, id, n, arrivals: this.recordings };
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
    const n = stream.index;
    const { id, excused, delayMs } = drawCall(stream.random, this.#activity);
    stream.advance();
    if (excused) this.#excusals.push({ atMs: atMs + delayMs, seq: n });
    return { kind: 'call', atMs, id, n, arrivals: this.calls };
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
