/** How one attempt of a call ended, as far as its request slot is concerned. */
export type AttemptOutcome = 'answered' | 'failed' | 'rate_limited';

/** Ends an attempt's hold on its slot; called exactly once per acquired slot. */
export type ReleaseSlot = (outcome: AttemptOutcome) => void;

/**
 * One call's claim on a {@link RequestSlots} pool: the core acquires a slot before each attempt and
 * releases it as soon as the attempt's response (or failure) is in, before any backoff. A call that is
 * backing off therefore holds no slot, and the slot goes to the next page in line.
 */
export interface AttemptSlots {
  /**
   * Waits for a free slot.
   *
   * @param onAbort - the error to reject with when the pool's signal aborts first.
   * @returns the function that releases the slot.
   */
  acquire(onAbort: () => Error): Promise<ReleaseSlot>;
}

interface Waiter {
  readonly priority: number;
  readonly grant: () => void;
  readonly abort: () => void;
}

/**
 * A pool of request slots: at most `size` attempts in flight at once, whatever the number of calls under
 * way. Waiters are served lowest priority number first (a list passes its page number), so the oldest
 * page's retry goes out before pages further ahead.
 */
export class RequestSlots {
  #free: number;
  readonly #waiting: Waiter[] = [];
  readonly #signal: AbortSignal;

  /**
   * @param size - the most attempts in flight at once (at least 1).
   * @param signal - the signal of every call that claims a slot (a list's own): when it aborts, every
   * waiter gives up. One listener for all, where a listener per waiter would pile up on the signal.
   */
  constructor(size: number, signal: AbortSignal) {
    this.#free = size;
    this.#signal = signal;
    signal.addEventListener('abort', () => {
      for (const waiter of this.#waiting.splice(0)) waiter.abort();
    });
  }

  /**
   * A claim on the pool for one call.
   *
   * @param priority - lower goes first when slots are short.
   * @param onOutcome - told how each attempt of the call ended.
   */
  claim(priority: number, onOutcome?: (outcome: AttemptOutcome) => void): AttemptSlots {
    return {
      acquire: (onAbort) => this.#acquire(priority, onAbort, onOutcome),
    };
  }

  #acquire(
    priority: number,
    onAbort: () => Error,
    onOutcome: ((outcome: AttemptOutcome) => void) | undefined,
  ): Promise<ReleaseSlot> {
    let released = false;
    const release: ReleaseSlot = (outcome) => {
      if (released) return;
      released = true;
      this.#release();
      onOutcome?.(outcome);
    };
    if (this.#signal.aborted) return Promise.reject(onAbort());
    if (this.#free > 0 && this.#waiting.length === 0) {
      this.#free--;
      return Promise.resolve(release);
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter: Waiter = { priority, grant: () => resolve(release), abort: () => reject(onAbort()) };
      // Kept sorted by priority; a list holds few waiters, so a linear insert is cheapest.
      let at = this.#waiting.length;
      while (at > 0 && (this.#waiting[at - 1] as Waiter).priority > priority) at--;
      this.#waiting.splice(at, 0, waiter);
    });
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#free++;
    else next.grant();
  }
}
