import type { DataResource } from '@company-data/contract';

/** How a record changed. */
export type DataChangeKind = 'created' | 'updated' | 'deleted';

/** What made a change: a test's control (in-process or the admin API), or the mock's own activity. */
export type DataChangeOrigin = 'control' | 'activity';

/**
 * One change of a record, as the change journal ({@link MockServer.changes}) recorded it.
 *
 * @example
 * ```ts
 * const user = server.records.create('users');
 * server.records.update('users', user.id, { is_active: false });
 * expect(server.changes().at(-1)).toMatchObject({ resource: 'users', id: user.id, kind: 'updated', fields: ['is_active'] });
 * ```
 */
export interface DataChange {
  /** 1, 2, 3 … since the last reset or {@link MockServer.clearChanges}. */
  readonly seq: number;
  /** Mock-clock time of the change (ISO 8601). */
  readonly at: string;
  /** Company id. */
  readonly company: string;
  /** The resource of the record. */
  readonly resource: DataResource;
  /** The record's id. */
  readonly id: string;
  /** Created, updated or deleted. */
  readonly kind: DataChangeKind;
  /** For `updated`: the fields whose value changed (derived ones included, e.g. `full_name`), sorted. */
  readonly fields?: readonly string[];
  /** A control or the mock's activity. */
  readonly origin: DataChangeOrigin;
}

/**
 * The newest changes the journal keeps: with activity running for hours, the oldest go first (`seq` keeps
 * counting, so a gap in it shows that entries were dropped).
 */
export const CHANGE_JOURNAL_LIMIT = 100_000;

/** The change journal of a mock server, oldest first, bounded by {@link CHANGE_JOURNAL_LIMIT}. */
export class ChangeJournal {
  #entries: DataChange[] = [];
  #seq = 0;

  /** Records a change, numbering it. */
  add(change: Omit<DataChange, 'seq'>): DataChange {
    const entry: DataChange = { seq: ++this.#seq, ...change };
    this.#entries.push(entry);
    if (this.#entries.length > CHANGE_JOURNAL_LIMIT * 1.1)
      this.#entries = this.#entries.slice(-CHANGE_JOURNAL_LIMIT);
    return entry;
  }

  /** The changes, oldest first (a copy). */
  entries(): readonly DataChange[] {
    return this.#entries.length > CHANGE_JOURNAL_LIMIT
      ? this.#entries.slice(-CHANGE_JOURNAL_LIMIT)
      : [...this.#entries];
  }

  /** Forgets every change and numbers from 1 again. */
  clear(): void {
    this.#entries = [];
    this.#seq = 0;
  }
}
