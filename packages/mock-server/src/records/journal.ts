import type { DataResource } from '@company-data/contract';
import { BoundedJournal } from '../journal/bounded-journal.js';
import { DEFAULT_JOURNAL_LIMIT } from '../journal/rules.js';

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
  /** 1, 2, 3 … since the last reset, reseed, fixture load or {@link MockServer.clearChanges}: read after it with `since`. */
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
 * The old name of {@link DEFAULT_JOURNAL_LIMIT}: the change journal now keeps what `journalLimit` says, 10,000
 * by default (it kept 100,000 before).
 *
 * @deprecated Use `DEFAULT_JOURNAL_LIMIT`, or read a server's own limit in `server.journals.changes.stats()`.
 * @example
 * ```ts
 * server.journals.changes.stats().limit; // 10000, unless journalLimit says otherwise
 * ```
 */
export const CHANGE_JOURNAL_LIMIT = DEFAULT_JOURNAL_LIMIT;

/** A change as the editor records it: its time kept as a number, formatted when read. */
export interface RecordedChange {
  /** Mock-clock time of the change, epoch ms. */
  readonly atMs: number;
  readonly company: string;
  readonly resource: DataResource;
  readonly id: string;
  readonly kind: DataChangeKind;
  readonly fields?: readonly string[] | undefined;
  readonly origin: DataChangeOrigin;
}

/** The change journal of a mock server, oldest first, bounded by its limit. */
export type ChangeJournal = BoundedJournal<RecordedChange, DataChange>;

/**
 * A change journal that keeps at most `limit` changes, the newest.
 *
 * @param limit - changes kept (0: none; Infinity: all).
 * @throws RangeError for another limit.
 */
export function changeJournal(limit: number = DEFAULT_JOURNAL_LIMIT): ChangeJournal {
  return new BoundedJournal(limit, ({ atMs, fields, ...change }, seq) => {
    const { company, resource, id, kind, origin } = change;
    return {
      seq,
      at: new Date(atMs).toISOString(),
      company,
      resource,
      id,
      kind,
      ...(fields === undefined ? {} : { fields }),
      origin,
    };
  });
}
