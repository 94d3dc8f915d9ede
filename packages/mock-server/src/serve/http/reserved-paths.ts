/**
 * The path prefix of the admin HTTP API, reserved on every origin the mock answers.
 *
 * @example
 * ```ts
 * await fetch(`${server.apiRoot}${ADMIN_PREFIX}clock/advance`, {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ ms: 16 * 60 * 1000 }),
 * });
 * ```
 */
export const ADMIN_PREFIX = '/__admin/';

/** The admin API's area whose next path segment is a secret webhook token (`audiences/{token}/members`). */
export const ADMIN_TOKEN_SEGMENT = 'audiences';
