import { ValidationError } from '../core/errors.js';

// A sync checkpoint: JSON text a person can read, versioned, naming the list and its filters. Times are the
// records' own `created_at` (ISO 8601); ids are the records' ids. The scan under way (`SyncState.scan`) is
// the field `walk` of the JSON: a stored format, named so since the first checkpoint was written.

/** What the first line of every checkpoint says it is. */
const FORMAT = 'company-data sync checkpoint';
/** The version this SDK writes and reads. */
const VERSION = 1;

/** A place in a newest-first list: an instant, and the ids of the records at it that are behind. */
export interface SyncMark {
  /** ISO 8601. */
  at: string;
  ids: string[];
}

/** The look-back window of the last complete run: fingerprints of the records created from `from` on. */
export interface SyncWindow {
  /** ISO 8601: the fingerprints cover every record created from this instant to the mark. */
  from: string;
  /** Record id → fingerprint. */
  fingerprints: Record<string, string>;
}

/** A run's scan under way: enough to resume it. */
export interface SyncScanState {
  /** The newest record of the run (its first record read), and the ids at its instant read so far. */
  top: SyncMark;
  /** The last record the run passed, and the ids at its instant. */
  cursor: SyncMark;
  /** Records passed from the top down to the cursor. */
  passed: number;
  /** The place (0-based) of the record after the cursor when the last page was read: where to resume. */
  place: number;
  /** The list's `count` when the last page was read. */
  count: number;
  /** The run's look-back window, in ms. */
  lookBack: number;
  /** Fingerprints of the records of the new window read so far. */
  fingerprints: Record<string, string>;
}

/** Everything a checkpoint holds. */
export interface SyncState {
  /** The list, as `client.<list>` names it. */
  list: string;
  /** The list's filters the runs use. */
  filters: Record<string, string | number | boolean>;
  /** Every record up to here was delivered; `null` before the first complete run. */
  mark: SyncMark | null;
  /**
   * The look-back window of the last complete run; while a run is under way, what is left of it (a
   * fingerprint is taken out as its record is read again, and those left at the end were removed).
   */
  window: SyncWindow | null;
  /** The scan under way, or `null` once the run completed (the checkpoint's JSON names it `walk`). */
  scan: SyncScanState | null;
}

/**
 * The checkpoint's text: one JSON object, its keys in a fixed order.
 *
 * @param state - the state to write.
 * @param scanFingerprints - the run's fingerprints already written as the inside of a JSON object (a run
 * keeps them so as it goes: written whole for every batch, a large window would cost its size per page).
 * @returns the checkpoint.
 */
export function encodeCheckpoint(state: SyncState, scanFingerprints?: string): string {
  const { list, filters, mark, window, scan } = state;
  const head = { checkpoint: FORMAT, version: VERSION, list, filters, mark, window };
  if (scan === null) return JSON.stringify({ ...head, walk: null });
  const { top, cursor, passed, place, count, lookBack, fingerprints } = scan;
  const text = JSON.stringify({ ...head, walk: { top, cursor, passed, place, count, lookBack } });
  const prints = scanFingerprints ?? fingerprintEntries(fingerprints);
  // `text` ends with the scan's `}` and the checkpoint's: the fingerprints go last in the scan.
  return `${text.slice(0, -2)},"fingerprints":{${prints}}}}`;
}

/**
 * Fingerprints as the inside of a JSON object: `"id":"hash",…`.
 *
 * @param fingerprints - record id → fingerprint.
 * @returns the entries, comma-separated.
 */
export function fingerprintEntries(fingerprints: Readonly<Record<string, string>>): string {
  return JSON.stringify(fingerprints).slice(1, -1);
}

/**
 * One fingerprint as an entry of {@link fingerprintEntries}.
 *
 * @param id - the record's id.
 * @param hash - its fingerprint.
 * @returns `"id":"hash"`.
 */
export function fingerprintEntry(id: string, hash: string): string {
  return `${JSON.stringify(id)}:${JSON.stringify(hash)}`;
}

/** The state of a list never synced. */
export function emptyState(list: string, filters: SyncState['filters']): SyncState {
  return { list, filters, mark: null, window: null, scan: null };
}

/**
 * Reads a checkpoint given to `sync()`, for this list and these filters.
 *
 * @param text - what the caller passed.
 * @param list - the list synced, as `client.<list>` names it.
 * @param filters - the filters of this run.
 * @param method - the method, as messages name it.
 * @returns the state it holds.
 * @throws ValidationError (code `invalid_checkpoint`) for text that is no checkpoint of this SDK, of
 * another version, another list or other filters, each saying what to do.
 */
export function decodeCheckpoint(
  text: string,
  list: string,
  filters: SyncState['filters'],
  method: string,
): SyncState {
  const startOver = `or leave \`checkpoint\` out to start a full export of ${list}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const object = asObject(value);
  if (object?.checkpoint !== FORMAT) {
    throw checkpointError(
      `The checkpoint given to ${method} is not a sync checkpoint (${preview(text)}): pass the string a previous run's \`run.checkpoint\` returned, unchanged, ${startOver}.`,
    );
  }
  if (object.version !== VERSION) {
    throw checkpointError(
      `The checkpoint given to ${method} is of version ${JSON.stringify(object.version)}, and this SDK reads version ${VERSION}: use the SDK version that wrote it, ${startOver}.`,
    );
  }
  if (object.list !== list) {
    throw checkpointError(
      `The checkpoint given to ${method} is a checkpoint of ${JSON.stringify(object.list)}: pass it to that list's sync(), ${startOver}.`,
    );
  }
  const problem = shapeProblem(object);
  if (problem !== undefined) {
    throw checkpointError(
      `The checkpoint given to ${method} is damaged (${problem}): pass the string a previous run's \`run.checkpoint\` returned, unchanged, ${startOver}.`,
    );
  }
  const state = object as unknown as Omit<SyncState, 'scan'> & { walk: SyncScanState | null };
  if (!sameFilters(state.filters, filters)) {
    throw checkpointError(
      `The checkpoint given to ${method} was made with the filters ${JSON.stringify(state.filters)}, and this run has ${JSON.stringify(filters)}: pass the same \`params\` filters, ${startOver} with the new filters.`,
    );
  }
  return { list, filters: state.filters, mark: state.mark, window: state.window, scan: state.walk };
}

function checkpointError(message: string): ValidationError {
  return new ValidationError(
    message,
    [{ code: 'custom', message, path: ['checkpoint'] }],
    'invalid_checkpoint',
  );
}

/** What is wrong with the fields of a checkpoint, or `undefined`. */
function shapeProblem(object: Record<string, unknown>): string | undefined {
  const filters = asObject(object.filters);
  if (filters === undefined || !Object.values(filters).every(isScalar))
    return '`filters` is not an object of values';
  if (object.mark !== null && !isMark(object.mark)) return '`mark` is not { at, ids }';
  if (object.window !== null && !isWindow(object.window)) return '`window` is not { from, fingerprints }';
  if (object.walk === null) return undefined;
  const walk = asObject(object.walk);
  if (walk === undefined) return '`walk` is not an object';
  if (!isMark(walk.top) || !isMark(walk.cursor)) return '`walk.top` or `walk.cursor` is not { at, ids }';
  for (const name of ['passed', 'place', 'count', 'lookBack'] as const) {
    const number = walk[name];
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) {
      return `\`walk.${name}\` is not a whole number`;
    }
  }
  if (!isFingerprints(walk.fingerprints)) return '`walk.fingerprints` is not an object of fingerprints';
  return undefined;
}

function isMark(value: unknown): value is SyncMark {
  const mark = asObject(value);
  return (
    mark !== undefined &&
    isInstant(mark.at) &&
    Array.isArray(mark.ids) &&
    mark.ids.every((id) => typeof id === 'string')
  );
}

function isWindow(value: unknown): value is SyncWindow {
  const window = asObject(value);
  return window !== undefined && isInstant(window.from) && isFingerprints(window.fingerprints);
}

function isFingerprints(value: unknown): value is Record<string, string> {
  const fingerprints = asObject(value);
  return fingerprints !== undefined && Object.values(fingerprints).every((hash) => typeof hash === 'string');
}

function isInstant(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function sameFilters(a: SyncState['filters'], b: SyncState['filters']): boolean {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const name of names) if (a[name] !== b[name]) return false;
  return true;
}

/** The start of a text, for a message. */
function preview(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
