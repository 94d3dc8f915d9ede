import type { ListedRecord } from './copy-mark.js';
import type { Finding } from './findings.js';

/** Ids of the copy handed out at a time by {@link CopyComparison.unseen}, to be looked up by id. */
export const UNSEEN_BATCH = 1_000;

/**
 * A copy opened for a check: the list's pages are compared with it one at a time, then the ids it holds
 * that the list did not show are handed out, to be looked up. One per destination: a file
 * (./file-comparison.ts), a table (./postgres-comparison.ts).
 */
export interface CopyComparison {
  /** The copy, as messages name it. */
  readonly name: string;
  /** The SDK checkpoint of the copy's last completed run. */
  readonly checkpoint: string;
  /** Records in the copy when the check began. */
  readonly records: number;
  /** Ids on more than one line (a file; a table holds each id once). */
  readonly duplicated: Finding;
  /**
   * Compares records of the list with the copy, and notes their ids and `newerIds` as seen. A repairing
   * comparison stores the missing and stale ones, in one transaction.
   *
   * @param records - a page's records created up to the copy's mark.
   * @param newerIds - the page's records created after it: seen, not compared.
   * @returns the ids of the records the copy lacks, and of those it holds with another content.
   */
  comparePage(
    records: readonly ListedRecord[],
    newerIds: readonly string[],
  ): Promise<{ missing: string[]; stale: string[] }>;
  /** The ids of the copy that no page showed, a batch at a time. */
  unseen(): AsyncIterable<readonly string[]>;
  /**
   * Told of ids of the copy that the API no longer has (each answered 404); a repairing comparison deletes
   * them, in one transaction.
   */
  gone(ids: readonly string[]): Promise<void>;
  /** Ends the check: a repairing comparison sets the copy's count of records to what it holds. */
  finish(): Promise<void>;
  /** Releases the copy (its connection, its lock). */
  close(): Promise<void>;
}
