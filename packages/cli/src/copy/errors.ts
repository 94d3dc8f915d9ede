import { describeHolder, type LockHolder } from './lock-holder.js';

/**
 * `EX_TEMPFAIL` from sysexits.h: "try again later". What a run exits with when another run holds the copy,
 * so a scheduler (cron, a CI job, systemd) can tell "busy" from "failed".
 */
export const COPY_LOCKED_EXIT_CODE = 75;

/**
 * A problem with a copy's destination (its file, its progress, its database tables), told in words that say
 * how to fix it. Nothing more was written.
 *
 * @example
 * ```ts
 * import { CopyError, NdjsonCopy } from '@company-data/cli/copy';
 *
 * const copy = await NdjsonCopy.open('calls.ndjson').catch((error) => {
 *   if (error instanceof CopyError) console.error(error.message);
 *   throw error;
 * });
 * ```
 */
export class CopyError extends Error {
  /**
   * @param message - what is wrong and how to fix it.
   */
  constructor(message: string) {
    super(message);
    this.name = 'CopyError';
  }
}

/**
 * The destination given cannot take the copy, and was left exactly as it was: a file holding data of its
 * own (no progress file says a copy wrote it), a folder given as the file, or a folder that does not exist.
 * Nothing was created or changed; the fix is in the command (another file name, the file moved away, the
 * folder created). The `company-data` command exits 2 (bad usage or configuration).
 *
 * @example
 * ```ts
 * import { DestinationRefusedError, NdjsonCopy } from '@company-data/cli/copy';
 *
 * const copy = await NdjsonCopy.open('notes.txt').catch((error: unknown) => {
 *   if (error instanceof DestinationRefusedError) console.error(error.message); // notes.txt already holds …
 *   throw error;
 * });
 * ```
 */
export class DestinationRefusedError extends CopyError {
  /**
   * @param message - what is in the way and how to fix it.
   */
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefusedError';
  }
}

/**
 * Another run holds the copy: this one did not read or write it. Run again later, or wait for it (`wait`).
 * The `company-data` command exits with {@link COPY_LOCKED_EXIT_CODE}.
 *
 * @example
 * ```ts
 * import { CopyLockedError, lockFile } from '@company-data/cli/copy';
 *
 * try {
 *   const lock = await lockFile('calls.ndjson');
 *   await lock.release();
 * } catch (error: unknown) {
 *   if (error instanceof CopyLockedError) console.error(`busy: held by pid ${error.holder?.pid}`);
 *   else throw error;
 * }
 * ```
 */
export class CopyLockedError extends CopyError {
  /** Who holds it, when it said so (a run that has just taken a lock may not have yet). */
  readonly holder: LockHolder | undefined;
  /** The destination, as given (a path, or a table). */
  readonly destination: string;

  /**
   * @param destination - the file or table.
   * @param holder - who holds it, if known.
   * @param hint - what to do, appended to the message.
   */
  constructor(destination: string, holder: LockHolder | undefined, hint: string) {
    super(`${destination} is being copied by another run: ${describeHolder(holder)}. ${hint}`);
    this.name = 'CopyLockedError';
    this.destination = destination;
    this.holder = holder;
  }
}

/**
 * The lock was taken over while this run held it (its process was stopped for longer than the lock's stale
 * time, or its lock file was removed by hand): the run stops before writing anything more, so two runs never
 * write one copy. What it recorded before stays valid.
 *
 * @example
 * ```ts
 * import { LockLostError } from '@company-data/cli/copy';
 *
 * const lost = (error: unknown) => error instanceof LockLostError;
 * ```
 */
export class LockLostError extends CopyError {
  constructor(destination: string, why: string) {
    super(
      `Stopped: the lock on ${destination} was lost (${why}); another run may be writing it now. What was recorded before stays; run again once the other run is done.`,
    );
    this.name = 'LockLostError';
  }
}
