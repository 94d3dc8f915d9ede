import { z } from 'zod';
import { hashInts, Prng } from '../../data/random/prng.js';
import { type RouteMatch, routeMatches } from './route-match.js';

/**
 * How long the mock waits before it answers, in real milliseconds: a fixed wait, a uniform draw between
 * two bounds, or a long-tailed lognormal draw given its median and 99th percentile (most answers near the
 * median, one in a hundred slower than `p99Ms`, as real APIs behave). Draws are seeded: the same seed and
 * the same requests give the same waits.
 *
 * @example
 * ```ts
 * const fixed: LatencyDistribution = { fixedMs: 20 };
 * const uniform: LatencyDistribution = { minMs: 10, maxMs: 80 };
 * const longTailed: LatencyDistribution = { medianMs: 30, p99Ms: 400 };
 * ```
 */
export type LatencyDistribution =
  | { readonly fixedMs: number }
  | { readonly minMs: number; readonly maxMs: number }
  | { readonly medianMs: number; readonly p99Ms: number };

/**
 * A latency for the requests a method and path match (like {@link FaultSpec}'s matching); without
 * `method` and `path` it matches every request. The first matching rule of a list decides.
 *
 * @example
 * ```ts
 * const rules: LatencyRule[] = [
 *   { method: 'GET', path: /^\/v1\/calls\//, latency: { medianMs: 120, p99Ms: 2000 } },
 *   { latency: { minMs: 10, maxMs: 80 } },
 * ];
 * ```
 */
export interface LatencyRule extends RouteMatch {
  /** The wait of the matching requests. */
  readonly latency: LatencyDistribution;
}

/**
 * A latency profile: one distribution for every request, or rules per route (first match decides;
 * a request no rule matches is answered at once).
 *
 * @example
 * ```ts
 * const server = createMockServer({ latency: { minMs: 10, maxMs: 80 } satisfies LatencyProfile });
 * ```
 */
export type LatencyProfile = LatencyDistribution | readonly LatencyRule[];

/** The z-score of the 99th percentile of a standard normal distribution. */
const Z_P99 = 2.326_347_874;
/** Mixed into the server's seed so the latency stream is independent of the data and of the fault rate. */
const LATENCY_SALT = 0x1a7e_0c11;

/**
 * Reads the command line's latency syntax: `20` (fixed), `10..80` (uniform) or
 * `lognormal:median=30,p99=400` (long-tailed).
 *
 * @param text - the text.
 * @returns the distribution.
 * @throws Error saying which forms are accepted.
 */
export function parseLatency(text: string): LatencyDistribution {
  const number = String.raw`(\d+(?:\.\d+)?)`;
  const fixed = new RegExp(`^${number}$`).exec(text);
  if (fixed) return checkLatency({ fixedMs: Number(fixed[1]) });
  const range = new RegExp(`^${number}\\.\\.${number}$`).exec(text);
  if (range) return checkLatency({ minMs: Number(range[1]), maxMs: Number(range[2]) });
  const lognormal = new RegExp(`^lognormal:median=${number},p99=${number}$`).exec(text);
  if (lognormal) return checkLatency({ medianMs: Number(lognormal[1]), p99Ms: Number(lognormal[2]) });
  throw new Error(
    `expects <ms> (e.g. 20), <min>..<max> (e.g. 10..80) or lognormal:median=<ms>,p99=<ms> (e.g. lognormal:median=30,p99=400), got "${text}"`,
  );
}

const WAIT = 'must be a finite number of ms ≥ 0';
const wait = z.number({ error: WAIT }).nonnegative({ error: WAIT });

/**
 * The one schema of a latency distribution, with its bounds and messages: read by the server's controls,
 * the admin API and `--latency`.
 */
export const LatencyDistributionSchema = z.union([
  z.strictObject({ fixedMs: wait }),
  z
    .strictObject({ minMs: wait, maxMs: wait })
    .refine((range) => range.minMs <= range.maxMs, { error: 'minMs must not exceed maxMs' }),
  z
    .strictObject({ medianMs: wait, p99Ms: wait })
    .refine((spread) => spread.medianMs > 0 && spread.p99Ms >= spread.medianMs, {
      error: 'medianMs must be above 0 and p99Ms at least medianMs',
    }),
]);

/**
 * Checks a distribution by {@link LatencyDistributionSchema}.
 *
 * @throws RangeError for a negative wait, `minMs` above `maxMs`, or a `p99Ms` below a positive `medianMs`.
 */
export function checkLatency(latency: LatencyDistribution): LatencyDistribution {
  const result = LatencyDistributionSchema.safeParse(latency);
  if (result.success) return latency;
  const issue = result.error.issues[0];
  if (issue === undefined || issue.code === 'invalid_union')
    throw new RangeError('latency: give { fixedMs }, { minMs, maxMs } or { medianMs, p99Ms }');
  throw new RangeError(`latency: ${issue.path.length > 0 ? `every wait ${issue.message}` : issue.message}`);
}

/** A latency profile in force: matches requests and draws their waits from its own seeded stream. */
export class LatencyTable {
  /** The profile, as given. */
  readonly profile: LatencyProfile;
  readonly #rules: readonly LatencyRule[];
  readonly #random: Prng;

  /**
   * @param profile - the profile.
   * @param seed - the server's seed (the stream starts again with every new table).
   * @param stream - where the stream stands (a saved table's {@link LatencyTable.stream}; default: its start).
   * @throws RangeError for a bad distribution.
   */
  constructor(profile: LatencyProfile, seed: number, stream?: number) {
    this.profile = profile;
    const rules: readonly LatencyRule[] = Array.isArray(profile)
      ? profile
      : [{ latency: profile as LatencyDistribution }];
    for (const rule of rules) checkLatency(rule.latency);
    this.#rules = rules.map((rule) => ({ ...rule, method: rule.method?.toUpperCase() }));
    this.#random = new Prng(stream ?? hashInts(seed, LATENCY_SALT));
  }

  /** Where its seeded stream of waits stands (see {@link Prng.state}). */
  get stream(): number {
    return this.#random.state;
  }

  /** The wait for a request in whole ms: 0 when no rule matches it. */
  draw(method: string, path: string): number {
    const rule = this.#rules.find((candidate) => routeMatches(candidate, method, path));
    return rule === undefined ? 0 : Math.round(sample(rule.latency, this.#random));
  }
}

function sample(latency: LatencyDistribution, random: Prng): number {
  if ('fixedMs' in latency) return latency.fixedMs;
  if ('minMs' in latency) return latency.minMs + random.next() * (latency.maxMs - latency.minMs);
  // Box-Muller: a standard normal from two uniforms (1 - next() is never 0, so the log is finite).
  const normal = Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const sigma = Math.log(latency.p99Ms / latency.medianMs) / Z_P99;
  return latency.medianMs * Math.exp(sigma * normal);
}
