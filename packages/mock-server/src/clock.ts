/**
 * A time the clock accepts: a `Date`, an ISO 8601 string or epoch milliseconds.
 *
 * @example
 * ```ts
 * const times: TimeInput[] = [new Date(), '2026-06-01T12:00:00Z', 1_780_315_200_000];
 * ```
 */
export type TimeInput = Date | string | number;

/**
 * The default initial time of every mock server's clock.
 *
 * @example
 * ```ts
 * expect(createMockServer().clock.now().toISOString()).toBe(new Date(DEFAULT_NOW).toISOString());
 * ```
 */
export const DEFAULT_NOW = '2026-06-01T12:00:00Z';

/**
 * Turns a {@link TimeInput} into epoch milliseconds.
 *
 * @param time - a `Date`, an ISO 8601 string or epoch milliseconds.
 * @returns epoch milliseconds.
 * @throws RangeError when the value is not a valid time.
 * @example
 * ```ts
 * toEpochMs('2026-06-01T12:00:00Z'); // 1780315200000
 * ```
 */
export function toEpochMs(time: TimeInput): number {
  const ms = time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) throw new RangeError(`Not a valid time: ${String(time)}`);
  return ms;
}

/**
 * The mock server's controllable clock. It drives key expiry, throttle windows and the lead
 * deduplication window; it never moves by itself, so a test advances it instead of sleeping.
 *
 * @example
 * ```ts
 * const clock = new MockClock('2026-06-01T12:00:00Z');
 * clock.advance(15 * 60 * 1000);
 * clock.now().toISOString(); // '2026-06-01T12:15:00.000Z'
 * ```
 */
export class MockClock {
  readonly #initial: number;
  #now: number;

  /**
   * @param initial - the starting time (default {@link DEFAULT_NOW}).
   * @throws RangeError when `initial` is not a valid time.
   */
  constructor(initial: TimeInput = DEFAULT_NOW) {
    this.#initial = toEpochMs(initial);
    this.#now = this.#initial;
  }

  /**
   * The current mock time.
   *
   * @returns a new `Date`.
   */
  now(): Date {
    return new Date(this.#now);
  }

  /**
   * The current mock time in epoch milliseconds.
   *
   * @returns epoch milliseconds.
   */
  nowMs(): number {
    return this.#now;
  }

  /**
   * Moves time forward.
   *
   * @param ms - milliseconds to add (0 or more).
   * @throws RangeError when `ms` is negative or not finite.
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`Cannot advance the clock by ${ms} ms`);
    this.#now += ms;
  }

  /**
   * Jumps to a time, forwards or backwards.
   *
   * @param time - the new time.
   * @throws RangeError when `time` is not a valid time.
   */
  set(time: TimeInput): void {
    this.#now = toEpochMs(time);
  }

  /**
   * The initial time in epoch milliseconds (what {@link MockClock.reset} returns to).
   *
   * @returns epoch milliseconds.
   */
  initialMs(): number {
    return this.#initial;
  }

  /** Goes back to the initial time. */
  reset(): void {
    this.#now = this.#initial;
  }
}
