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
