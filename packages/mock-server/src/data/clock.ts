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
 * How a mock server's clock starts: `'running'` moves with real time from its initial time (so a
 * 429's `Retry-After` comes true for a client that really waits), `'frozen'` stands still until a
 * test moves it (so timestamps repeat run after run).
 *
 * @example
 * ```ts
 * const server = createMockServer({ clock: 'frozen' satisfies ClockMode });
 * ```
 */
export type ClockMode = 'running' | 'frozen';

/**
 * The default initial time of every mock server's clock.
 *
 * @example
 * ```ts
 * expect(createMockServer({ clock: 'frozen' }).clock.now().toISOString()).toBe(new Date(DEFAULT_NOW).toISOString());
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
 * Options of a {@link MockClock}.
 *
 * @example
 * ```ts
 * const clock = new MockClock('2026-06-01T12:00:00Z', { mode: 'frozen' } satisfies MockClockOptions);
 * ```
 */
export interface MockClockOptions {
  /** Whether it starts running with real time or frozen (default `'running'`). */
  mode?: ClockMode | undefined;
  /** The real time it runs with, in epoch ms (default `Date.now`, read on every call, so fake timers drive it). */
  realNow?: (() => number) | undefined;
  /**
   * Told before {@link MockClock.set} moves the time (forwards or backwards), while the clock still reads the
   * old time: a server applies what happened up to then first, so a jump back never skips it.
   */
  beforeSet?: (() => void) | undefined;
}

/**
 * The mock server's clock: real time plus an offset. It drives key expiry, throttle windows, the
 * lead deduplication window and the timestamps of created members and leads. Running, it moves by
 * itself, so a client that waits out a `Retry-After` over HTTP really gets through; `advance` and
 * `set` shift it without waiting; `freeze` stops it for deterministic tests.
 *
 * @example
 * ```ts
 * const clock = new MockClock('2026-06-01T12:00:00Z', { mode: 'frozen' });
 * clock.advance(15 * 60 * 1000);
 * clock.now().toISOString(); // '2026-06-01T12:15:00.000Z'
 * clock.resume(); // moves with real time again from 12:15
 * ```
 */
export class MockClock {
  readonly #initial: number;
  readonly #initialMode: ClockMode;
  readonly #realNow: () => number;
  readonly #beforeSet: (() => void) | undefined;
  /** Mock time minus real time while running. */
  #offset = 0;
  /** The mock time while frozen; undefined while running. */
  #frozenAt: number | undefined;

  /**
   * @param initial - the starting time (default {@link DEFAULT_NOW}).
   * @param options - running or frozen, and the real time source.
   * @throws RangeError when `initial` is not a valid time.
   */
  constructor(initial: TimeInput = DEFAULT_NOW, options: MockClockOptions = {}) {
    this.#initial = toEpochMs(initial);
    this.#initialMode = options.mode ?? 'running';
    if (this.#initialMode !== 'running' && this.#initialMode !== 'frozen')
      throw new RangeError(`clock must be "running" or "frozen", got ${JSON.stringify(options.mode)}`);
    this.#realNow = options.realNow ?? (() => Date.now());
    this.#beforeSet = options.beforeSet;
    this.reset();
  }

  /**
   * The current mock time.
   *
   * @returns a new `Date`.
   */
  now(): Date {
    return new Date(this.nowMs());
  }

  /**
   * The current mock time in epoch milliseconds.
   *
   * @returns epoch milliseconds.
   */
  nowMs(): number {
    return this.#frozenAt ?? this.#realNow() + this.#offset;
  }

  /** Whether the clock stands still (see {@link MockClock.freeze}). */
  get frozen(): boolean {
    return this.#frozenAt !== undefined;
  }

  /**
   * Moves time forward at once, running or frozen.
   *
   * @param ms - milliseconds to add (0 or more).
   * @throws RangeError when `ms` is negative or not finite.
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`Cannot advance the clock by ${ms} ms`);
    if (this.#frozenAt === undefined) this.#offset += ms;
    else this.#frozenAt += ms;
  }

  /**
   * Jumps to a time, forwards or backwards; a running clock runs on from there.
   *
   * @param time - the new time.
   * @throws RangeError when `time` is not a valid time.
   */
  set(time: TimeInput): void {
    const ms = toEpochMs(time);
    this.#beforeSet?.();
    if (this.#frozenAt === undefined) this.#offset = ms - this.#realNow();
    else this.#frozenAt = ms;
  }

  /** Stops the clock at the current mock time; it moves again only through `advance`, `set` or `resume`. */
  freeze(): void {
    this.#frozenAt = this.nowMs();
  }

  /** Lets a frozen clock run with real time again, from the mock time it stands at. */
  resume(): void {
    if (this.#frozenAt === undefined) return;
    this.#offset = this.#frozenAt - this.#realNow();
    this.#frozenAt = undefined;
  }

  /**
   * The initial time in epoch milliseconds (what {@link MockClock.reset} returns to).
   *
   * @returns epoch milliseconds.
   */
  initialMs(): number {
    return this.#initial;
  }

  /** Goes back to the initial time, running or frozen as it started. */
  reset(): void {
    if (this.#initialMode === 'frozen') {
      this.#frozenAt = this.#initial;
    } else {
      this.#frozenAt = undefined;
      this.#offset = this.#initial - this.#realNow();
    }
  }
}

/**
 * A clock as the admin API answers it (`GET /__admin/clock`) and the watch page's events carry it.
 *
 * @param clock - the clock.
 * @returns its time now (ISO 8601) and whether it stands still.
 */
export function clockReading(clock: Pick<MockClock, 'now' | 'frozen'>): { now: string; frozen: boolean } {
  return { now: clock.now().toISOString(), frozen: clock.frozen };
}
