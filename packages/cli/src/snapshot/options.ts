import { UsageError } from '../errors.js';

/** Calls read when `maxCalls` is not given. */
export const DEFAULT_MAX_CALLS = 500;
/** Recordings read when `maxRecordings` is not given (each costs two requests and holds word timings). */
export const DEFAULT_MAX_RECORDINGS = 100;
/** Requests in flight when `concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 4;
/** The most requests in flight (the SDK's own prefetch limit). */
export const MAX_CONCURRENCY = 16;

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
