/**
 * The code of an error, from the error or the first of its causes that has one: a system error's (`ENOENT`,
 * `ECONNREFUSED`), an SDK error's socket error (in its `cause`), or a PostgreSQL error's SQLSTATE (`57P01`).
 * An `AggregateError` (a connection tried on several addresses) gives its own, or its first error's.
 *
 * @param error - anything thrown.
 * @returns the code, or undefined when there is none.
 * @example
 * ```ts
 * errorCode(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })); // 'ECONNREFUSED'
 * ```
 */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return undefined;
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}
