import { MAX_CONCURRENCY } from '@company-data/sdk';
import { UsageError } from '../errors.js';

/** Calls read when `maxCalls` is not given. */
export const DEFAULT_MAX_CALLS = 500;
/** Recordings read when `maxRecordings` is not given (each costs two requests and holds word timings). */
export const DEFAULT_MAX_RECORDINGS = 100;
/** Requests in flight when `concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 4;
/** The most requests in flight: the SDK's own limit on a list's `concurrency`. */
export { MAX_CONCURRENCY } from '@company-data/sdk';

/**
 * A count limit: a whole number from 0, or `'all'`.
 *
 * @throws UsageError naming the option.
 */
export function checkMax(
  name: string,
  value: number | 'all' | undefined,
  fallback: number,
): number | undefined {
  if (value === undefined) return fallback;
  if (value === 'all') return undefined;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new UsageError(`${name} expects a whole number from 0, or "all"; got ${value}.`);
  return value;
}

/**
 * The number of requests in flight: 1 to {@link MAX_CONCURRENCY}.
 *
 * @throws UsageError.
 */
export function checkConcurrency(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY)
    throw new UsageError(`concurrency expects a whole number from 1 to ${MAX_CONCURRENCY}; got ${value}.`);
  return value;
}

/**
 * A start time: a date (`2026-01-31`, midnight UTC) or an ISO 8601 time, as epoch ms.
 *
 * @throws UsageError with an example.
 */
export function checkSince(value: string | Date | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms =
    value instanceof Date
      ? value.getTime()
      : /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(value)
        ? Date.parse(value)
        : Number.NaN;
  if (Number.isNaN(ms))
    throw new UsageError(
      `since expects a date such as 2026-01-31 or a time such as 2026-01-31T09:00:00Z; got "${String(value)}".`,
    );
  return ms;
}

/**
 * The fewest characters a seed may have. The seed keys every stand-in of an anonymized fixture: a short one
 * can be guessed, and with it real names tested against the file. An empty one is most often an unset
 * variable (`--seed "$FIXTURE_SEED"`).
 *
 * @example
 * ```ts
 * import { randomBytes } from 'node:crypto';
 * import { MIN_SEED_LENGTH } from '@company-data/cli';
 *
 * const seed = randomBytes(MIN_SEED_LENGTH).toString('hex'); // store it as a CI secret
 * ```
 */
export const MIN_SEED_LENGTH = 16;

/**
 * A seed of at least {@link MIN_SEED_LENGTH} characters, or none (a random one is used).
 *
 * @throws UsageError saying how to make one.
 */
export function checkSeed(seed: string | undefined): string | undefined {
  if (seed === undefined || seed.length >= MIN_SEED_LENGTH) return seed;
  const what =
    seed === ''
      ? 'seed is empty (is the variable in --seed "$FIXTURE_SEED" set?)'
      : `seed has ${seed.length} characters`;
  throw new UsageError(
    `${what}: the seed is a secret that keeps the stand-ins unguessable, so it needs ${MIN_SEED_LENGTH} characters or more, e.g. from \`openssl rand -hex 16\`. Leave it out for a random one.`,
  );
}
