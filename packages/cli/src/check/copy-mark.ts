// Where a copy's last completed run stopped, read from its SDK sync checkpoint: the `created_at` of the
// newest record it delivered and the ids at that instant. A record of the list past that mark was created
// after the run: the next sync takes it, so a check counts it apart (`newer`), never as missing. The rule
// is the sync's own (packages/sdk/src/sync/sync-walk.ts): a record is behind the mark when it was created
// before the mark's instant, or at that instant and among its ids.
import { CopyError } from '../copy/errors.js';

/** A record as a check reads it: its id and creation time. */
export interface ListedRecord {
  readonly id: string;
  readonly created_at: string;
}

/** Where a copy's last completed run stopped. */
export interface CopyMark {
  /** Whether the record was created after the copy's last completed run (the next sync's). */
  isNewer(record: ListedRecord): boolean;
}

/**
 * Reads the mark of a completed run's checkpoint.
 *
 * @param checkpoint - the copy's SDK sync checkpoint.
 * @param where - the copy, as messages name it.
 * @returns its mark; with none (an export of an empty list), every record is newer.
 * @throws {@link CopyError} for a text that is not a checkpoint, or one of a run still under way.
 */
export function markOf(checkpoint: string, where: string): CopyMark {
  let state: { mark?: unknown; walk?: unknown } | undefined;
  try {
    state = JSON.parse(checkpoint) as { mark?: unknown; walk?: unknown };
  } catch {
    state = undefined;
  }
  const mark = state?.mark as { at?: unknown; ids?: unknown } | null | undefined;
  const shaped =
    mark === null ||
    (typeof mark?.at === 'string' &&
      Array.isArray(mark.ids) &&
      mark.ids.every((id) => typeof id === 'string'));
  if (state === undefined || !shaped)
    throw new CopyError(`The checkpoint of ${where} is not a sync checkpoint: export the list again.`);
  if (state.walk != null)
    throw new CopyError(
      `The checkpoint of ${where} is of a run under way, though the copy says it completed: export the list again.`,
    );
  if (mark === null) return { isNewer: () => true };
  const at = Date.parse(mark.at as string);
  const ids = new Set(mark.ids as string[]);
  return {
    isNewer(record) {
      const time = Date.parse(record.created_at);
      return !(time < at || (time === at && ids.has(record.id)));
    },
  };
}
