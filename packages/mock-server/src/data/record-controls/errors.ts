/**
 * No record of the resource has this id in the company (or it was deleted): the admin API answers 404.
 *
 * @example
 * ```ts
 * try {
 *   server.records.delete('calls', callId);
 * } catch (error) {
 *   if (!(error instanceof RecordNotFoundError)) throw error; // already gone: nothing to do
 * }
 * ```
 */
export class RecordNotFoundError extends Error {
  override readonly name = 'RecordNotFoundError';
}
