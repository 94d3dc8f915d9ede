/**
 * A problem the user fixes before running again: a missing API key or base URL, a bad option, an output
 * path that cannot be written, an interrupted snapshot of another server in the way. Its message says how
 * to fix it; the command exits with code 2.
 *
 * @example
 * ```ts
 * import { snapshot, UsageError } from '@company-data/cli';
 *
 * await snapshot({ output: 'fixture.json' }).catch((error) => {
 *   if (error instanceof UsageError) console.error(error.message);
 *   else throw error;
 * });
 * ```
 */
export class UsageError extends Error {
  /**
   * @param message - what is wrong and how to fix it.
   */
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
