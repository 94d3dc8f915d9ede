import { z } from 'zod';
import { warnDeprecated } from '../deprecation.js';

/**
 * A request quota: at most `requests` requests per window of `perSeconds`, in the words of the SDK's and
 * the Redis gate's `quota`.
 *
 * @example
 * ```ts
 * server.setQuota({ requests: 5, perSeconds: 60 } satisfies Quota);
 * ```
 */
export interface Quota {
  /** Requests allowed per window (at least 1). */
  requests: number;
  /** Window length in seconds (more than 0). */
  perSeconds: number;
}

/**
 * The old names of a {@link Quota}: `limit` for `requests`, `windowSeconds` for `perSeconds`. Accepted
 * wherever a quota is, with a deprecation warning, until the next minor release.
 *
 * @deprecated Use {@link Quota}: `{ requests, perSeconds }`.
 * @example
 * ```ts
 * const old: ThrottleConfig = { limit: 5, windowSeconds: 60 }; // now { requests: 5, perSeconds: 60 }
 * ```
 */
export interface ThrottleConfig {
  /** Requests allowed per window (at least 1). */
  limit: number;
  /** Window length in seconds (more than 0). */
  windowSeconds: number;
}

/**
 * A quota in its names or, until the next minor release, in the old ones.
 *
 * @example
 * ```ts
 * const quota: QuotaInput = { requests: 5, perSeconds: 60 };
 * ```
 */
export type QuotaInput = Quota | ThrottleConfig;

/**
 * The default quota of keys without their own: none. A long export or a large test suite against a
 * default server never meets a 429 it did not ask for; the well-known `throttled` key, a per-key
 * quota or `setQuota` bring them in.
 *
 * @example
 * ```ts
 * server.setQuota(DEFAULT_QUOTA); // back to no quota
 * ```
 */
export const DEFAULT_QUOTA: Quota | false = false;

/**
 * The old name of {@link DEFAULT_QUOTA}.
 *
 * @deprecated Use {@link DEFAULT_QUOTA}.
 * @example
 * ```ts
 * server.setQuota(DEFAULT_THROTTLE); // as DEFAULT_QUOTA
 * ```
 */
export const DEFAULT_THROTTLE: Quota | false = DEFAULT_QUOTA;

/**
 * The quota of the well-known `throttled` key (`server.keys.throttled`): 5 requests per 5 seconds,
 * so a sixth quick request gets a 429 whose `Retry-After` is at most 5 seconds.
 *
 * @example
 * ```ts
 * for (let i = 0; i <= THROTTLED_KEY_QUOTA.requests; i++) await get('/v1/teams/', server.keys.throttled);
 * ```
 */
export const THROTTLED_KEY_QUOTA: Quota = Object.freeze({ requests: 5, perSeconds: 5 });

const REQUESTS_RULE = 'must be an integer ≥ 1';
const PER_SECONDS_RULE = 'must be > 0';

/**
 * The quota rule, its one home: the bounds of `requests` and `perSeconds` and their messages (relative to
 * the field, which each caller names in its own way). The store, the admin API, the fixture format (as
 * `per_seconds`) and the CLI's `--throttle` all read it.
 */
export const QuotaSchema = z.strictObject({
  requests: z
    .int({ error: REQUESTS_RULE })
    .min(1, { error: REQUESTS_RULE })
    .describe('Requests allowed per window.'),
  perSeconds: z
    .number({ error: PER_SECONDS_RULE })
    .positive({ error: PER_SECONDS_RULE })
    .describe('Window length in seconds.'),
}) satisfies z.ZodType<Quota>;

/**
 * A quota in its names, from one that may use the old ones (`limit`, `windowSeconds`), which then warn once
 * per process. Anything else comes back as it is, for the quota rule to judge.
 *
 * @param value - a quota as given.
 * @param where - what the old names were given to, for the warning (e.g. `setQuota`).
 */
export function currentQuotaNames(value: unknown, where: string): unknown {
  if (typeof value !== 'object' || value === null || 'requests' in value || 'perSeconds' in value)
    return value;
  if (!('limit' in value) && !('windowSeconds' in value)) return value;
  warnDeprecated(`a quota's { limit, windowSeconds } (given to ${where})`, '{ requests, perSeconds }');
  const { limit, windowSeconds, ...rest } = value as Record<string, unknown>;
  return { requests: limit, perSeconds: windowSeconds, ...rest };
}

/** A quota (in its names or, deprecated, the old ones), or false for none. */
export const QuotaOrNoneSchema = z.preprocess(
  (value) => currentQuotaNames(value, 'the admin API'),
  z.union([z.literal(false), QuotaSchema]),
);

/**
 * What is wrong with a quota, by {@link QuotaSchema}: e.g. `requests must be an integer ≥ 1`.
 *
 * @param value - the quota to check (in its names).
 * @returns the problem (the field it is about, when one is), or undefined for a valid quota or false.
 */
export function quotaProblem(value: unknown): { readonly field?: string; readonly text: string } | undefined {
  if (value === false) return undefined;
  const result = QuotaSchema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  if (issue === undefined || field === undefined)
    return { text: 'must be { requests, perSeconds } or false' };
  return { field: String(field), text: `${String(field)} ${issue.message}` };
}

/**
 * Validates a quota, taking the old names (with a warning) until the next minor release.
 *
 * @param config - the quota, or false for none.
 * @param where - what it was given to, for the deprecation warning and the message (default `quota`).
 * @returns the quota in its names.
 * @throws RangeError when `requests` or `perSeconds` is out of bounds, naming the field.
 */
export function checkQuota(config: QuotaInput | false, where = 'quota'): Quota | false {
  const current = currentQuotaNames(config, where);
  const problem = quotaProblem(current);
  if (problem !== undefined)
    throw new RangeError(`quota${problem.field === undefined ? ' ' : '.'}${problem.text}`);
  return current as Quota | false;
}

/**
 * The quotas in force: the default one of keys without their own, and the windows open now.
 *
 * @example
 * ```ts
 * server.setQuota({ requests: 10, perSeconds: 60 });
 * const { windows }: QuotaReadout = server.quotas();
 * for (const open of windows) console.log(`${open.keyName}: ${open.requests}/${open.quota.requests} until ${open.closesAt}`);
 * ```
 */
export interface QuotaReadout {
  /** The quota of keys without their own (false: none). */
  readonly default: Quota | false;
  /** The windows open now (mock time), oldest first: one per key that made a request in its window. */
  readonly windows: readonly QuotaWindowInfo[];
}

/**
 * One key's quota window, open now.
 *
 * @example
 * ```ts
 * const full = server.quotas().windows.filter((open: QuotaWindowInfo) => open.requests >= open.quota.requests);
 * ```
 */
export interface QuotaWindowInfo {
  /** The key's id. */
  readonly keyId: string;
  /** The key's name (what the journal shows). */
  readonly keyName: string;
  /** The quota that counts it: the key's own, or the default one. */
  readonly quota: Quota;
  /** The requests counted in the window (at most `quota.requests` get through). */
  readonly requests: number;
  /** When the window opened, at the key's first request in it (mock time, ISO 8601). */
  readonly openedAt: string;
  /** When it closes (mock time, ISO 8601): the next request after it opens a new one. */
  readonly closesAt: string;
}

/** A key's quota window open now: its key's id, when it opened (epoch ms) and the requests it counted. */
export interface QuotaWindow {
  readonly key: string;
  readonly startMs: number;
  readonly count: number;
}

/**
 * Fixed-window quotas per API key, on the mock clock. A window opens at a key's first request;
 * once `limit` requests were counted in it, requests are refused until it closes. A key's own quota
 * wins over the default one.
 */
export class Throttle {
  #default: Quota | false;
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** @param config - the default quota, or false for none. */
  constructor(config: QuotaInput | false) {
    this.#default = checkQuota(config);
  }

  /** Replaces the default quota and forgets every window. */
  configure(config: QuotaInput | false): void {
    this.#default = checkQuota(config);
    this.#windows.clear();
  }

  /** The quota of keys without their own (false: none). */
  get defaultQuota(): Quota | false {
    return this.#default;
  }

  /** The windows open now, by key id: when each opened (mock time, epoch ms) and the requests it counted. */
  windows(): QuotaWindow[] {
    return [...this.#windows].map(([key, { start, count }]) => ({ key, startMs: start, count }));
  }

  /**
   * Opens windows as {@link Throttle.windows} listed them (a saved state's); the others are forgotten.
   *
   * @param windows - the windows.
   */
  restoreWindows(windows: readonly QuotaWindow[]): void {
    this.#windows.clear();
    for (const { key, startMs, count } of windows) this.#windows.set(key, { start: startMs, count });
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
  take(keyId: string, nowMs: number, own?: Quota | false): number {
    const config = own ?? this.#default;
    if (config === false) return 0;
    const windowMs = config.perSeconds * 1000;
    const window = this.#windows.get(keyId);
    if (!window || nowMs >= window.start + windowMs || nowMs < window.start) {
      this.#windows.set(keyId, { start: nowMs, count: 1 });
      return 0;
    }
    if (window.count < config.requests) {
      window.count++;
      return 0;
    }
    // Rounded up, so a client that waits exactly this long finds the window closed.
    return Math.max(1, Math.ceil((window.start + windowMs - nowMs) / 1000));
  }
}
