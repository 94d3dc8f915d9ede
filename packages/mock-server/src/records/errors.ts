/**
 * No record of the resource has this id in the company (or it was deleted): the admin API answers 404.
 *
 * @example
 * ```ts
 * try { server.records.delete('calls', id); } catch (error) { if (error instanceof RecordNotFoundError) … }
 * ```
 */
export class RecordNotFoundError extends Error {
  override readonly name = 'RecordNotFoundError';
}
