import { type ActivityOptions, type ResolvedActivity, resolveActivity } from './options.js';
import { type ActivityEvent, ActivitySchedule } from './schedule.js';

/** Applies one event to the data, at its time (e.g. creates the arrived call). */
export type ApplyActivityEvent = (event: ActivityEvent) => void;

/**
 * The activity in force and how far it has been applied. Lazy: nothing runs on a timer; the server calls
 * {@link ActivityRunner.catchUp} before it reads or changes data, which applies every event whose time has
 * come and that was not applied yet, oldest first. Time never runs back here: when the clock is set earlier,
 * nothing is undone and events resume after the furthest time applied.
 */
export class ActivityRunner {
  readonly #apply: ApplyActivityEvent;
  #activity: ResolvedActivity | false = false;
  #schedule: ActivitySchedule | undefined;
  /** Set while events are applied: a control they go through does not catch up again. */
  #applying = false;

  /**
   * @param apply - applies one event (through the same mutation path as the record controls).
   */
  constructor(apply: ApplyActivityEvent) {
    this.#apply = apply;
  }

  /** The activity in force, every field filled in, or false for none. */
  get activity(): ResolvedActivity | false {
    return this.#activity;
  }

  /**
   * Starts an activity afresh from a time: its schedule begins there, whatever came before is forgotten
   * (events of a previous schedule that had not come yet, such as pending excusals, never happen).
   *
   * @param seed - the server's seed.
   * @param activity - the options, or false (or undefined) for none.
   * @param startMs - where the new schedule begins (events come strictly after it).
   * @throws RangeError for an invalid activity (the one in force stays then).
   */
  start(seed: number, activity: ActivityOptions | false | undefined, startMs: number): void {
    const resolved = activity === undefined || activity === false ? false : resolveActivity(activity);
    this.#activity = resolved;
    this.#schedule = resolved === false ? undefined : new ActivitySchedule(seed, resolved, startMs);
  }

  /** The schedule in force (undefined for none): where it starts, how far it was read, what it brings. */
  get schedule(): ActivitySchedule | undefined {
    return this.#schedule;
  }

  /**
   * Starts an activity as {@link ActivityRunner.start} does, then reads its schedule up to `reachedMs`
   * without applying what it brings: where a saved runner stood, whose events are in the data already. The
   * events after it (excusals still to come included) are those the saved runner had still to bring.
   *
   * @param seed - the server's seed.
   * @param activity - the activity, or false for none.
   * @param startMs - where its schedule began.
   * @param reachedMs - how far it had been read.
   * @throws RangeError for an invalid activity.
   */
  resume(seed: number, activity: ActivityOptions | false, startMs: number, reachedMs: number): void {
    this.start(seed, activity, startMs);
    this.#schedule?.takeEach(reachedMs, () => {});
  }

  /**
   * Applies every event whose time is at most `nowMs` and that was not applied yet.
   *
   * @param nowMs - the mock clock's time.
   * @returns how many events were applied.
   */
  catchUp(nowMs: number): number {
    const schedule = this.#schedule;
    // The common case, on every request: nothing is due.
    if (schedule === undefined || this.#applying || schedule.nextMs > nowMs) return 0;
    this.#applying = true;
    try {
      return schedule.takeEach(nowMs, this.#apply);
    } finally {
      this.#applying = false;
    }
  }
}
