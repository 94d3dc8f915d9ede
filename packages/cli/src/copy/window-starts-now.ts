/**
 * What a sync with a look-back window says when {@link windowStartsNow}: it had nothing to compare with, so
 * "0 changed and 0 removed" would claim what it could not see.
 */
export const WINDOW_STARTS_NOW =
  'the look-back window starts now: the next sync reports what changed or left it';

/**
 * Whether a sync from this checkpoint starts its look-back window, rather than comparing with one: there is
 * no checkpoint yet (a first run), or the checkpoint kept no window (`"window": null`, what a full export and
 * a sync without `lookBack` store; see "The sync checkpoint" in the spec gaps). Such a run can report no
 * changed or removed record; the next one can.
 *
 * @param checkpoint - the checkpoint the run starts from (the copy's, before the run), or undefined.
 * @returns true when the run has no window to compare with; false for a checkpoint with a window, and for a
 *   text that is not a checkpoint (the sync refuses that one itself).
 * @example
 * ```ts
 * import { windowStartsNow } from '@company-data/cli/copy';
 *
 * windowStartsNow(undefined); // true: a first run
 * windowStartsNow('{"checkpoint":"company-data sync checkpoint","version":1,"list":"calls","filters":{},"mark":null,"window":null,"walk":null}'); // true: after an export
 * ```
 */
export function windowStartsNow(checkpoint: string | undefined): boolean {
  if (checkpoint === undefined) return true;
  try {
    const parsed: unknown = JSON.parse(checkpoint);
    return typeof parsed === 'object' && parsed !== null && (parsed as { window?: unknown }).window === null;
  } catch {
    return false;
  }
}
