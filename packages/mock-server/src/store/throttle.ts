import { z } from 'zod';

/**
 * A request quota: at most `limit` requests per window of `windowSeconds`.
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
 * The default quota of keys without their own: none. A long export or a large test suite against a
 * default server never meets a 429 it did not ask for; the well-known `throttled` key, a per-key
 * quota or `setThrottle` bring them in.
 *
 * @example
 * ```ts
 * server.setThrottle(DEFAULT_THROTTLE); // back to no quota
 * ```
 */
export const DEFAULT_THROTTLE: ThrottleConfig | false = false;

/**
 * The quota of the well-known `throttled` key (`server.keys.throttled`): 5 requests per 5 seconds,
 * so a sixth quick request gets a 429 whose `Retry-After` is at most 5 seconds.
 *
 * @example
 * ```ts
 * for (let i = 0; i <= THROTTLED_KEY_QUOTA.limit; i++) await get('/v1/teams/', server.keys.throttled);
 * ```
 */
export const THROTTLED_KEY_QUOTA: ThrottleConfig = { limit: 5, windowSeconds: 5 };

const LIMIT_RULE = 'must be an integer ≥ 1';
const WINDOW_RULE = 'must be > 0';

/**
 * The quota rule, its one home: the bounds of `limit` and `windowSeconds` and their messages (relative to
 * the field, which each caller names in its own way). The store, the admin API, the fixture format (as
 * `window_seconds`) and the CLI's `--throttle` all read it.
 */
export const ThrottleSchema = z.strictObject({
  limit: z.int({ error: LIMIT_RULE }).min(1, { error: LIMIT_RULE }).describe('Requests allowed per window.'),
  windowSeconds: z
    .number({ error: WINDOW_RULE })
    .positive({ error: WINDOW_RULE })
    .describe('Window length in seconds.'),
}) satisfies z.ZodType<ThrottleConfig>;

/** A quota, or false for none. */
export const QuotaSchema = z.union([z.literal(false), ThrottleSchema]);

/**
 * What is wrong with a quota, by {@link ThrottleSchema}: e.g. `limit must be an integer ≥ 1`.
 *
 * @param value - the quota to check.
 * @returns the problem (the field it is about, when one is), or undefined for a valid quota or false.
 */
export function quotaProblem(value: unknown): { readonly field?: string; readonly text: string } | undefined {
  if (value === false) return undefined;
  const result = ThrottleSchema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  if (issue === undefined || field === undefined)
    return { text: 'must be { limit, windowSeconds } or false' };
  return { field: String(field), text: `${String(field)} ${issue.message}` };
}

/**
 * Validates a quota.
 *
 * @param config - the quota, or false for none.
 * @returns the same quota.
 * @throws RangeError when the limit or the window is not a positive number.
 */
export function checkThrottle(config: ThrottleConfig | false): ThrottleConfig | false {
  const problem = quotaProblem(config);
  if (problem !== undefined)
    throw new RangeError(`throttle${problem.field === undefined ? ' ' : '.'}${problem.text}`);
  return config;
}

/**
 * Fixed-window quotas per API key, on the mock clock. A window opens at a key's first request;
 * once `limit` requests were counted in it, requests are refused until it closes. A key's own quota
 * wins over the default one.
 */
export class Throttle {
  #default: ThrottleConfig | false;
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** @param config - the default quota, or false for none. */
  constructor(config: ThrottleConfig | false) {
    this.#default = checkThrottle(config);
  }

  /** Replaces the default quota and forgets every window. */
  configure(config: ThrottleConfig | false): void {
    this.#default = checkThrottle(config);
    this.#windows.clear();
  }

  /** Forgets one key's window (its quota changed). */
  forget(keyId: string): void {
    this.#windows.delete(keyId);
  }

  /**
   * Counts a request of `keyId` at `nowMs`.
   *
   * @param own - the key's own quota; undefined for the default one.
   * @returns 0 when allowed, otherwise the whole seconds until the key's window closes (≥ 1).
   */
  take(keyId: string, nowMs: number, own?: ThrottleConfig | false): number {
    const config = own ?? this.#default;
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
    // Rounded up, so a client that waits exactly this long finds the window closed.
    return Math.max(1, Math.ceil((window.start + windowMs - nowMs) / 1000));
  }
}
