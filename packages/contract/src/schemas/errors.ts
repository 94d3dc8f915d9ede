import { z } from 'zod';
import { openObject } from './open-object.js';

/**
 * The error body of data endpoints (and of the audience webhook): `{ error: { detail } }`.
 *
 * @example
 * ```ts
 * ApiErrorBody.parse({ error: { detail: 'Not found.' } });
 * ```
 */
export const ApiErrorBody = openObject({
  error: openObject({ detail: z.string() }),
});
/** The error body of data endpoints. */
export interface ApiErrorBody extends z.output<typeof ApiErrorBody> {}

/**
 * The flat error body of the lead webhook: `{ error: "..." }`.
 *
 * @example
 * ```ts
 * FlatErrorBody.parse({ error: 'phone_number is required' });
 * ```
 */
export const FlatErrorBody = openObject({ error: z.string() });
/** The flat error body of the lead webhook. */
export interface FlatErrorBody extends z.output<typeof FlatErrorBody> {}

/**
 * The detail texts the spec gives for data-endpoint errors, plus the lead webhook's texts.
 *
 * @example
 * ```ts
 * if (body.error.detail === ERROR_DETAILS.expiredKey) renewKey();
 * ```
 */
export const ERROR_DETAILS = {
  invalidKey: 'Invalid API key.',
  expiredKey: 'API key has expired.',
  notFound: 'Not found.',
  permissionDenied: 'You do not have permission to perform this action.',
  leadPhoneRequired: 'phone_number is required',
  leadNotFound: 'Not found',
} as const;

/**
 * Formats the throttle detail exactly as the API does.
 *
 * @param seconds - whole seconds until a request may succeed (at least 1).
 * @returns e.g. `Request was throttled. Expected available in 60 seconds.`
 * @example
 * ```ts
 * throttleDetail(1); // 'Request was throttled. Expected available in 1 second.'
 * ```
 */
export function throttleDetail(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return `Request was throttled. Expected available in ${whole} second${whole === 1 ? '' : 's'}.`;
}

const THROTTLE_PATTERN = /expected available in\s+(\d+(?:\.\d+)?)\s+seconds?/i;

/**
 * Reads the wait out of a throttle detail text.
 *
 * @param detail - the `detail` of a 429 body.
 * @returns the wait in seconds, or `undefined` when the text names none.
 * @example
 * ```ts
 * parseThrottleDetail('Request was throttled. Expected available in 60 seconds.'); // 60
 * ```
 */
export function parseThrottleDetail(detail: string): number | undefined {
  const match = THROTTLE_PATTERN.exec(detail);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
