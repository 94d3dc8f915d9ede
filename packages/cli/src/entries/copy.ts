/**
 * A copy of a list kept exactly once, whatever stops it and however many runs start: the machinery of the
 * `company-data export` and `company-data sync` commands, for your own scripts. One run at a time holds a
 * copy (a lock on its file, or an advisory lock in PostgreSQL; a dead holder's copy is taken over), each page
 * is stored with its checkpoint (an NDJSON file and its progress file in that order; a database in one
 * transaction), and a stopped run resumes with no record missing and none twice.
 *
 * `checkCopy` compares a copy with the whole list (records missing, deleted since however long ago, changed)
 * and, in PostgreSQL, repairs it: the machinery of `company-data check`.
 *
 * Imported apart from `@company-data/cli`, so a script that copies loads neither the mock server nor the
 * snapshot's anonymiser.
 *
 * @example
 * ```ts
 * import { NdjsonCopy, copyList } from '@company-data/cli/copy';
 *
 * const destination = await NdjsonCopy.open('calls.ndjson'); // CopyLockedError while another run holds it
 * try {
 *   const result = await copyList({ client, list: 'calls', destination, mode: 'sync' });
 *   console.log(`${result.created} new calls`);
 * } finally {
 *   await destination.close();
 * }
 * ```
 *
 * @packageDocumentation
 */
export {
  CHECK_DEFAULT_CONCURRENCY,
  type CheckCopyOptions,
  type CheckReport,
  checkCopy,
} from '../check/check-copy.js';
export { UncheckableCopyError } from '../check/errors.js';
export {
  CHECK_KINDS,
  CHECK_SAMPLE_SIZE,
  type CheckFinding,
  type CheckKind,
  DRIFT_KINDS,
} from '../check/findings.js';
export {
  type CopyCounts,
  type CopyListOptions,
  type CopyMode,
  type CopyResult,
  copyList,
  isLastBatch,
} from '../copy/copy-list.js';
export type { CopyDestination } from '../copy/destination.js';
export {
  COPY_LOCKED_EXIT_CODE,
  CopyError,
  CopyLockedError,
  DestinationRefusedError,
  LockLostError,
} from '../copy/errors.js';
export { type CopyLock, holderPathOf, LOCK_STALE_MS, type LockOptions, lockFile } from '../copy/file-lock.js';
export { COPY_LISTS, type CopyListName } from '../copy/lists.js';
export type { LockHolder } from '../copy/lock-holder.js';
export {
  NdjsonCopy,
  type NdjsonCopyOptions,
  type NdjsonProgress,
  type Progress,
  progressPathOf,
  readProgress,
} from '../copy/ndjson-copy.js';
export { DEFAULT_SCHEMA, PostgresCopy, type PostgresCopyOptions } from '../copy/postgres-copy.js';
export { WINDOW_STARTS_NOW, windowStartsNow } from '../copy/window-starts-now.js';
export { DURATION_FORMAT, parseDuration } from '../duration.js';
