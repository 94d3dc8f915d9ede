// What a check of a copy found, kind by kind: a count, and a few ids to look at (the smallest, so the same
// drift gives the same report whatever order the pages came in).

/** The ids a report names of each kind, at most. */
export const CHECK_SAMPLE_SIZE = 5;

/**
 * What a check reports, kind by kind:
 *
 * - `missing`: in the list, not in the copy;
 * - `gone`: in the copy, no longer in the list (looked up by id: the API answered 404);
 * - `stale`: in both, the copy's record is not the list's (deep equality);
 * - `duplicated`: ids on more than one line of a file copy (a table's primary key holds each id once);
 * - `newer`: in the list, created after the copy's last completed run: the next sync takes them (not drift);
 * - `skipped`: in the copy and still there when looked up by id, but the walk of the list did not meet them
 *   (records deleted while it read shift the pages): not compared, and not drift; run the check again.
 *
 * @example
 * ```ts
 * const drift = DRIFT_KINDS.filter((kind) => report[kind].count > 0);
 * ```
 */
export const CHECK_KINDS = ['missing', 'gone', 'stale', 'duplicated', 'newer', 'skipped'] as const;

/**
 * One of {@link CHECK_KINDS}.
 *
 * @example
 * ```ts
 * const kind: CheckKind = 'gone';
 * ```
 */
export type CheckKind = (typeof CHECK_KINDS)[number];

/**
 * The kinds that make a copy differ from its list: `newer` and `skipped` do not.
 *
 * @example
 * ```ts
 * const equal = DRIFT_KINDS.every((kind) => report[kind].count === 0);
 * ```
 */
export const DRIFT_KINDS = ['missing', 'gone', 'stale', 'duplicated'] as const satisfies readonly CheckKind[];

/**
 * How many records of one kind a check found, and the first few of their ids in id order.
 *
 * @example
 * ```ts
 * const gone: CheckFinding = { count: 2, ids: ['0b6f…', '9c1e…'] };
 * ```
 */
export interface CheckFinding {
  /** Records of this kind. */
  readonly count: number;
  /** The smallest of their ids, at most {@link CHECK_SAMPLE_SIZE}, in order. */
  readonly ids: readonly string[];
}

/** Counts the records of one kind and keeps the smallest ids. */
export class Finding {
  #count = 0;
  readonly #ids: string[] = [];

  /** Counts one record of this kind. */
  add(id: string): void {
    this.#count++;
    const ids = this.#ids;
    if (ids.length === CHECK_SAMPLE_SIZE && id >= (ids[ids.length - 1] as string)) return;
    let at = ids.length;
    while (at > 0 && (ids[at - 1] as string) > id) at--;
    ids.splice(at, 0, id);
    if (ids.length > CHECK_SAMPLE_SIZE) ids.pop();
  }

  /** The count and the ids kept. */
  toJSON(): CheckFinding {
    return { count: this.#count, ids: [...this.#ids] };
  }
}

/** A {@link Finding} of each kind. */
export type Findings = Record<CheckKind, Finding>;

/** A new, empty {@link Finding} of each kind. */
export function newFindings(): Findings {
  return Object.fromEntries(CHECK_KINDS.map((kind) => [kind, new Finding()])) as Findings;
}
