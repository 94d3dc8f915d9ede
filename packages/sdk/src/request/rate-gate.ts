import { checkOptions } from '../core/checks/refusals.js';
import { OPTION_CHECKS } from '../core/checks/schemas.generated.js';
import type { ConfigurationError } from '../core/errors.js';
import type { Sleep } from '../core/options.js';
import {
  DEFAULT_QUOTA_MARGIN_MS,
  type QuotaSlots,
  type RateGateLike,
  type RateQuota,
} from '../core/rate-gate-interface.js';
import { raceAbort, realSleep } from './sleep.js';

/** What {@link RateGate.wait} answers when the gate is open: one settled promise for every call. */
const OPEN: Promise<void> = Promise.resolve();

/**
 * A sliding-window log of the slots handed out in this process: a slot is at least one window (plus the
 * margin) after the slot `requests` places before it. Reservations are kept in a ring, so a burst of
 * waiters gets its slots in order, each computed once, with no polling.
 *
 * @example
 * ```ts
 * const slots = new SlidingWindowSlots({ requests: 2, perSeconds: 1 }, () => 0);
 * slots.reserve(); // 0
 * slots.reserve(); // 0
 * slots.reserve(); // 1100: one window and the default margin after the first
 * ```
 */
export class SlidingWindowSlots implements QuotaSlots {
  readonly #ring: number[] = [];
  readonly #windowMs: number;
  readonly #requests: number;
  readonly #now: () => number;
  #next = 0;

  /**
   * @param quota - the quota to keep.
   * @param now - the current time in ms. Default: `Date.now`.
   * @throws {@link ConfigurationError} with code `'invalid_option'` for a quota that is not one, naming
   * each wrong field.
   */
  constructor(quota: RateQuota, now: () => number = Date.now) {
    checkOptions(OPTION_CHECKS.quota, { quota }, 'a quota');
    this.#requests = quota.requests;
    this.#windowMs = quota.perSeconds * 1000 + (quota.marginMs ?? DEFAULT_QUOTA_MARGIN_MS);
    this.#now = now;
  }

  /** @returns the wait in ms before the reserved slot (0: send now). */
  reserve(): number {
    const now = this.#now();
    // The slot `requests` places back (the oldest in the ring once it is full).
    const earlier = this.#ring.length < this.#requests ? undefined : this.#ring[this.#next];
    const slot = earlier === undefined ? now : Math.max(now, earlier + this.#windowMs);
    this.#ring[this.#next] = slot;
    this.#next = (this.#next + 1) % this.#requests;
    return slot - now;
  }
}

/** Options of `new RateGate()`. */
export interface RateGateOptions {
  /** A quota to stay under: its numbers (a sliding window in this process) or where to take slots. */
  quota?: RateQuota | QuotaSlots | undefined;
  /** How to wait (injected so tests control time). Default: a timer. */
  sleep?: Sleep | undefined;
  /** The current time in ms, on the same clock as `sleep`. Default: `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * The gate every request of a client passes before it is sent (each client has its own unless given one
 * in the `gate` option). A 429 closes it for the wait the server asked for, so the client's other requests
 * queue behind it instead of stampeding into more 429s; when the wait is over they all proceed. With a
 * quota, each request also waits for a slot, so that the client stays under it and rarely meets a 429.
 *
 * @example
 * ```ts
 * // One gate, one quota, for two clients of the same key in one process.
 * const gate = new RateGate({ quota: { requests: 100, perSeconds: 60 } });
 * const reports = new CompanyData({ gate });
 * const sync = new CompanyData({ gate, maxRetries: 5 });
 * ```
 */
export class RateGate implements RateGateLike {
  #release: Promise<void> | undefined;
  #until = Number.NEGATIVE_INFINITY;
  readonly #closing = new AbortController();
  readonly #sleep: Sleep;
  readonly #now: () => number;
  readonly #slots: QuotaSlots | undefined;

  /** @param options - an optional quota, and the clock (see {@link RateGateOptions}). */
  constructor(options: RateGateOptions = {}) {
    this.#sleep = options.sleep ?? realSleep;
    this.#now = options.now ?? Date.now;
    const { quota } = options;
    this.#slots =
      quota === undefined || 'reserve' in quota ? quota : new SlidingWindowSlots(quota, this.#now);
  }

  /** Whether a pause is in progress. */
  get paused(): boolean {
    return this.#release !== undefined;
  }

  /**
   * Closes the gate for `ms` from now. A pause never shortens one in progress: of two 429s answered to
   * requests that were in flight together, the longer wait wins, and only one sleep runs per extension.
   *
   * @param ms - how long to hold every request.
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
   * Resolves once the gate is open (at once when it is and there is no quota) and, with a quota, once the
   * request's slot has come. A slot taken before a pause is given up: after the pause the request takes a
   * new one, so requests held by a pause cannot add to the next window's.
   *
   * @param signal - rejects the wait with `onAbort()` when it aborts; the pause goes on for the others.
   * @param onAbort - the error to reject with.
   * @throws whatever `onAbort()` returns, when `signal` aborts.
   */
  wait(signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
    // Every attempt of every call passes here: an open gate without a quota answers with no async frame.
    if (this.#release === undefined && this.#slots === undefined) return OPEN;
    return this.#waitClosed(signal, onAbort);
  }

  async #waitClosed(signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
    while (this.#release !== undefined) await raceAbort(this.#release, signal, onAbort);
    if (this.#slots !== undefined) await this.#takeSlot(this.#slots, signal, onAbort);
  }

  async #takeSlot(slots: QuotaSlots, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
    // Either the call or close() ends a wait for a slot, so no timer outlives them.
    const ended = signal ? AbortSignal.any([signal, this.#closing.signal]) : this.#closing.signal;
    for (;;) {
      const delay = await raceAbort(Promise.resolve(slots.reserve()), signal, onAbort);
      if (delay > 0) await raceAbort(this.#sleep(delay, ended), signal, onAbort);
      if (this.#release === undefined || this.#closing.signal.aborted) return;
      while (this.#release !== undefined) await raceAbort(this.#release, signal, onAbort);
    }
  }

  /** Ends any pause or wait for a slot (on `client.close()`), so nothing keeps the process alive. */
  close(): void {
    this.#closing.abort();
  }
}
