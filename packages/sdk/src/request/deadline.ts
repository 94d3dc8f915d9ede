/**
 * How often the shared deadline check runs while attempts are in flight. An attempt past its deadline
 * ends at most this much later (plus any event-loop delay); see {@link DEADLINE_TOLERANCE_MS}.
 */
export const DEADLINE_TICK_MS = 250;

/**
 * How late past `timeout` an attempt of the client's own pool may end, as documented: the shared check's
 * period, and undici's own coarse timers (which keep the headers and the pauses of the body) fire up to
 * about a second late.
 */
export const DEADLINE_TOLERANCE_MS = 1_000;

/** Why an attempt was ended: its time limit passed (whichever way it was kept). */
export class DeadlinePassed extends Error {}

/**
 * An abort source as the transport's dispatch reads one (`aborted`, `reason` and one `abort` listener; see
 * `AbortSignalLike` in `dispatch.ts`), made without an AbortController: a plain object that costs next
 * to nothing per attempt.
 */
export class AttemptSignal {
  /** Whether it fired. */
  aborted = false;
  /** Why: a {@link DeadlinePassed}, or the caller's own abort reason. */
  reason: unknown = undefined;
  /** Monotonic time (performance.now()) after which the attempt is ended. */
  readonly deadline: number;
  /** Its place in its ticker's list while watched, -1 otherwise (see {@link DeadlineTicker}). */
  slot = -1;
  #listener: (() => void) | undefined;
  readonly #caller: AbortSignal | undefined;
  readonly #forward: (() => void) | undefined;

  /**
   * @param deadline - when the attempt must end, on `performance.now()`'s clock.
   * @param caller - the caller's signal, forwarded when given.
   */
  constructor(deadline: number, caller: AbortSignal | undefined) {
    this.deadline = deadline;
    if (caller === undefined) return;
    this.#caller = caller;
    if (caller.aborted) {
      this.aborted = true;
      this.reason = caller.reason;
      return;
    }
    this.#forward = () => this.abort(caller.reason);
    caller.addEventListener('abort', this.#forward, { once: true });
  }

  /** As EventTarget's: the dispatch registers its one `abort` listener here. */
  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listener = listener;
  }

  /** As EventTarget's. */
  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.#listener === listener) this.#listener = undefined;
  }

  /** Fires the signal once. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
  }

  /** Stops listening to the caller's signal. */
  release(): void {
    if (this.#forward !== undefined) this.#caller?.removeEventListener('abort', this.#forward);
  }
}

/**
 * One coarse timer for every attempt in flight, instead of a timer and an AbortController each: every
 * {@link DEADLINE_TICK_MS} it ends the attempts past their deadline. It runs only while attempts are in
 * flight (it stops at the first tick that finds none) and never keeps the process alive (unref'd).

 */
export class DeadlineTicker {
  /**
   * The attempts in flight, each knowing its place (`slot`), so that one leaves in O(1) by taking the last
   * one's place: an attempt joins and leaves on every request, and a Set's add and delete cost ten times as
   * much, its table filling with deleted entries that must be rehashed away.
   */
  readonly #inFlight: AttemptSignal[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Attempts in flight (for tests). */
  get size(): number {
    return this.#inFlight.length;
  }

  /** Whether the timer runs (for tests). */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Watches an attempt.
   *
   * @param timeoutMs - its time limit.
   * @param caller - the caller's signal, forwarded.
   * @returns the signal to hand the dispatch; give it back to {@link release} when the attempt is over.
   */
  watch(timeoutMs: number, caller: AbortSignal | undefined): AttemptSignal {
    const signal = new AttemptSignal(performance.now() + timeoutMs, caller);
    signal.slot = this.#inFlight.length;
    this.#inFlight.push(signal);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), DEADLINE_TICK_MS);
      this.#timer.unref?.();
    }
    return signal;
  }

  /** The attempt is over: stop watching it. */
  release(signal: AttemptSignal): void {
    this.#forget(signal);
    signal.release();
  }

  #forget(signal: AttemptSignal): void {
    const { slot } = signal;
    if (slot < 0) return;
    signal.slot = -1;
    const last = this.#inFlight.pop() as AttemptSignal;
    if (last === signal) return;
    this.#inFlight[slot] = last;
    last.slot = slot;
  }

  #tick(): void {
    if (this.#inFlight.length === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = performance.now();
    // From the end, so that the attempt moved into an ended one's place has been looked at already.
    for (let index = this.#inFlight.length - 1; index >= 0; index--) {
      const signal = this.#inFlight[index];
      if (signal === undefined || now < signal.deadline) continue;
      this.#forget(signal);
      signal.abort(new DeadlinePassed());
    }
  }
}
