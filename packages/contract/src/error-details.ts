// The API's error detail texts and the throttle detail's format: plain values, no zod, so the runtime entry
// point can share them.

/** The shape of the error body an endpoint answers with: nested `{error:{detail}}` or flat `{error}`. */
export type ErrorShape = 'nested' | 'flat';

/**
 * The detail texts the spec gives for data-endpoint errors, plus the webhooks' texts: each written once, and
 * imported by the schemas, the mock server and the SDK.
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
  audienceContactRequired: 'At least one of phone or email is required',
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
