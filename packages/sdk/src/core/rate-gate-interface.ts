import type { Logger } from './logger-interface.js';

/**
 * A request quota the client stays under on its own: at most `requests` in any `perSeconds` window
 * (a sliding window, so it never exceeds a server's fixed windows, wherever those start).
 *
 * @example
 * ```ts
 * const client = new CompanyData({ quota: { requests: 100, perSeconds: 60 } });
 * ```
 */
export interface RateQuota {
  /** Requests allowed per window: an integer of at least 1. */
  requests: number;
  /** The window, in seconds (more than 0). */
  perSeconds: number;
  /**
   * Added to the window, in ms, so that requests whose trip to the server takes longer than others' still
   * arrive no more than `requests` per window. Default: {@link DEFAULT_QUOTA_MARGIN_MS}.
   */
  marginMs?: number | undefined;
}

/** The default {@link RateQuota.marginMs}: the spread in request latency the quota absorbs. */
export const DEFAULT_QUOTA_MARGIN_MS = 100;

/**
 * Where a gate takes its quota's slots: a sliding window in this process ({@link SlidingWindowSlots}) or
 * one shared with other processes (as `@company-data/redis-gate` does through Redis).
 *
 * @example
 * ```ts
 * const slots: QuotaSlots = new SlidingWindowSlots({ requests: 10, perSeconds: 1 });
 * const gate = new RateGate({ quota: slots });
 * ```
 */
export interface QuotaSlots {
  /**
   * Reserves the next free slot for one request.
   *
   * @returns how long to wait, in ms, before the slot comes (0: send now). It is already counted: a caller
   * that does not send wastes it.
   */
  reserve(): number | Promise<number>;
}

/**
 * What a client tells the gate it adopts (see {@link RateGateLike.attach}).
 *
 * @example
 * ```ts
 * const gate: RateGateLike = {
 *   wait: async () => {},
 *   pause: () => {},
 *   attach: ({ logger }) => logger.info('gate adopted'),
 * };
 * ```
 */
export interface RateGateContext {
  /** The client's API key (a shared gate derives its default name from it, never revealing it). */
  readonly apiKey: string | undefined;
  /** The client's logger, already filtered by its level and scrubbed of secrets. */
  readonly logger: Logger;
}

/**
 * What a client needs of a rate gate: the built-in {@link RateGate}, or one shared by many processes (the
 * `gate` option, e.g. `@company-data/redis-gate`'s `RedisRateGate`). Every attempt of every call waits on
 * it before it is sent, and every 429 reports its wait to it.
 *
 * @example
 * ```ts
 * // A gate that logs what it is told and lets everything through.
 * const gate: RateGateLike = {
 *   wait: async () => {},
 *   pause: (ms) => console.warn(`a 429 asked to wait ${ms} ms`),
 * };
 * const client = new CompanyData({ gate });
 * ```
 */
export interface RateGateLike {
  /**
   * Resolves once one request may be sent: no pause is in force and, with a quota, a slot was taken.
   *
   * @param signal - the call's signal: when it aborts, reject with `onAbort()` at once.
   * @param onAbort - the error to reject with.
   */
  wait(signal: AbortSignal | undefined, onAbort: () => Error): Promise<void>;
  /**
   * A 429 asked to wait `ms`: hold every request that passes this gate for that long. A pause never
   * shortens one in force.
   */
  pause(ms: number): void;
  /**
   * Called once by each client given this gate in its `gate` option, as the client is created.
   *
   * @param context - the client's key and logger.
   */
  attach?(context: RateGateContext): void;
}
