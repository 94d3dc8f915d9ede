/**
 * A per-key request quota: at most `limit` requests per window of `windowSeconds`.
 *
 * @example
 * ```ts
 * server.setThrottle({ limit: 5, windowSeconds: 60 } satisfies ThrottleConfig);
 * ```
 */
export interface ThrottleConfig {
  /** Requests allowed per window (at least 1). */
  limit: number;
  /** Window length in seconds (more than 0). */
  windowSeconds: number;
}

/**
 * The default quota (1000 requests per 60 seconds per key): generous, so only tests that lower it
 * ever see a 429.
 *
 * @example
 * ```ts
 * server.setThrottle(DEFAULT_THROTTLE); // back to the default
 * ```
 */
export const DEFAULT_THROTTLE: ThrottleConfig = { limit: 1000, windowSeconds: 60 };

/**
 * Validates a throttle setting.
 *
 * @throws RangeError when the limit or the window is not a positive number.
 */
export function checkThrottle(config: ThrottleConfig | false): ThrottleConfig | false {
  if (config === false) return false;
  if (!Number.isInteger(config.limit) || config.limit < 1)
    throw new RangeError('throttle.limit must be an integer ≥ 1');
  if (!Number.isFinite(config.windowSeconds) || config.windowSeconds <= 0)
    throw new RangeError('throttle.windowSeconds must be > 0');
  return config;
}

/**
 * Fixed-window quotas per API key, on the mock clock. A window opens at a key's first request;
 * once `limit` requests were counted in it, requests are refused until it closes.
 */
export class Throttle {
  #config: ThrottleConfig | false;
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** @param config - the quota, or false for none. */
  constructor(config: ThrottleConfig | false) {
    this.#config = checkThrottle(config);
  }

  /** Replaces the quota and forgets every window. */
  configure(config: ThrottleConfig | false): void {
    this.#config = checkThrottle(config);
    this.#windows.clear();
  }

  /**
   * Counts a request of `keyId` at `nowMs`.
   *
   * @returns 0 when allowed, otherwise the whole seconds until the key's window closes (≥ 1).
   */
  take(keyId: string, nowMs: number): number {
    const config = this.#config;
    if (config === false) return 0;
    const windowMs = config.windowSeconds * 1000;
    const window = this.#windows.get(keyId);
    if (!window || nowMs >= window.start + windowMs || nowMs < window.start) {
      this.#windows.set(keyId, { start: nowMs, count: 1 });
      return 0;
    }
    if (window.count < config.limit) {
      window.count++;
      return 0;
    }
    return Math.max(1, Math.ceil((window.start + windowMs - nowMs) / 1000));
  }
}
