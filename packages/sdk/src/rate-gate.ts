import { raceAbort, type Sleep } from './sleep.js';

/**
 * One gate per client that every request passes before it is sent. A 429 closes it for the wait the
 * server asked for, so the client's other requests queue behind it instead of stampeding into more
 * 429s; when the wait is over they all proceed.
 */
export class RateGate {
  #release: Promise<void> | undefined;
  #until = Number.NEGATIVE_INFINITY;
  readonly #closing = new AbortController();
  readonly #sleep: Sleep;
  readonly #now: () => number;

  /**
   * @param sleep - how to wait (injected so tests control time).
   * @param now - the current time in ms, on the same clock as `sleep`.
   */
  constructor(sleep: Sleep, now: () => number) {
    this.#sleep = sleep;
    this.#now = now;
  }

  /** Whether a pause is in progress. */
  get paused(): boolean {
    return this.#release !== undefined;
  }

  /**
   * Closes the gate for `ms` from now. A pause never shortens one in progress: of two 429s answered to
   * requests that were in flight together, the longer wait wins, and only one sleep runs per extension.
   */
  pause(ms: number): void {
    const until = this.#now() + ms;
    if (this.#release !== undefined && until <= this.#until) return;
    this.#until = until;
    const release: Promise<void> = this.#sleep(ms, this.#closing.signal)
      .catch(() => undefined)
      .then(() => {
        if (this.#release === release) this.#release = undefined;
      });
    this.#release = release;
  }

  /**
   * Resolves once the gate is open (at once when it is). Rejects with `onAbort()` if `signal` aborts
   * while waiting; the pause itself goes on for the client's other requests.
   */
  async wait(signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
    while (this.#release !== undefined) await raceAbort(this.#release, signal, onAbort);
  }

  /** Ends any pause (on `client.close()`), so nothing keeps the process alive. */
  close(): void {
    this.#closing.abort();
  }
}
