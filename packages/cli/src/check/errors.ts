import { CopyError } from '../copy/errors.js';

/**
 * The copy cannot be checked yet: there is no export of the list there (`reason: 'none'`), or its last run
 * did not complete (`'incomplete'`: an interrupted export, or a sync stopped half-way), so most of the list
 * would be "missing" for no other reason. Finish the export (run it again: it resumes), then check.
 *
 * @example
 * ```ts
 * import { checkCopy, UncheckableCopyError } from '@company-data/cli/copy';
 *
 * const report = await checkCopy({ client, list: 'calls', copy: { file: 'calls.ndjson' } }).catch((error) => {
 *   if (error instanceof UncheckableCopyError && error.reason === 'incomplete') console.error('finish the export first');
 *   throw error;
 * });
 * ```
 */
export class UncheckableCopyError extends CopyError {
  /** Why: no copy of the list there, or one whose last run did not complete. */
  readonly reason: 'none' | 'incomplete';
  /** The copy, as messages name it (a file, or `<schema>.<list>`). */
  readonly destination: string;
  /** Records the copy holds (0 without one). */
  readonly records: number;

  /**
   * @param destination - the copy, as messages name it.
   * @param list - the list.
   * @param reason - no copy, or an incomplete one.
   * @param records - records the copy holds.
   */
  constructor(destination: string, list: string, reason: 'none' | 'incomplete', records = 0) {
    super(
      reason === 'none'
        ? `${destination} holds no export of ${list}: export it first, then check it.`
        : `${destination} holds an export of ${list} that did not complete (${records} records so far): finish the export first (run it again: it resumes), then check it.`,
    );
    this.name = 'UncheckableCopyError';
    this.reason = reason;
    this.destination = destination;
    this.records = records;
  }
}
