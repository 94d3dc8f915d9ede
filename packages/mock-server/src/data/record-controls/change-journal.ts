import { DATA_RESOURCES, type DataResource } from '@company-data/contract';
import { BoundedJournal, type JournalStore } from '../journal/bounded-journal.js';
import { DEFAULT_JOURNAL_LIMIT } from '../journal/limits.js';
import { Chunked } from '../store/chunked.js';

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
  return new BoundedJournal(limit, new ChangeColumns());
}

const KINDS: readonly DataChangeKind[] = ['created', 'updated', 'deleted'];
const ORIGINS: readonly DataChangeOrigin[] = ['control', 'activity'];
/** Where the dashes of a uuid are. */
const DASHES = new Set([8, 13, 18, 23]);
/** The four words of the id {@link readId} read last. */
const WORDS = [0, 0, 0, 0];

/**
 * Reads a record id as the generator and the activity write it, 32 lower-case hex digits in five groups,
 * into {@link WORDS} (digit by digit: no string is made, since a busy activity journals an id per call).
 *
 * @returns false for any other id.
 */
function readId(id: string): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let digits = 0;
  for (let index = 0; index < 36; index++) {
    const code = id.charCodeAt(index);
    if (DASHES.has(index)) {
      if (code !== 45) return false;
      continue;
    }
    const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
    if (digit < 0) return false;
    word = word * 16 + digit;
    if (++digits % 8 === 0) {
      WORDS[digits / 8 - 1] = word;
      word = 0;
    }
  }
  return true;
}

/** Numbers for a few distinct values (companies, lists of changed fields), each kept once. */
class Interned<Value> {
  readonly #values: Value[] = [];
  readonly #numbers = new Map<string, number>();

  number(key: string, value: Value): number {
    let number = this.#numbers.get(key);
    if (number === undefined) {
      number = this.#values.push(value) - 1;
      this.#numbers.set(key, number);
    }
    return number;
  }

  value(number: number): Value {
    return this.#values[number] as Value;
  }
}

/**
 * The change journal's entries as columns of numbers: a change costs about 33 bytes and no object, so a busy
 * activity (a change for every arriving call) makes no garbage for the collector to follow. An id that is not
 * a lower-case uuid (a fixture's may be anything) is kept as text beside them.
 */
class ChangeColumns implements JournalStore<RecordedChange, DataChange> {
  #atMs = new Chunked((length) => new Float64Array(length));
  /** The resource, kind and origin, as their numbers in their lists. */
  #codes = new Chunked((length) => new Uint8Array(length));
  #companies = new Chunked((length) => new Uint32Array(length));
  /** The list of changed fields' number, plus one (0: none). */
  #fields = new Chunked((length) => new Uint32Array(length));
  /** An id's 32 hex digits, as four numbers. */
  #id = [0, 1, 2, 3].map(() => new Chunked((length) => new Uint32Array(length)));
  #otherIds = new Map<number, string>();
  readonly #companyNames = new Interned<string>();
  readonly #fieldLists = new Interned<readonly string[]>();

  write(place: number, change: RecordedChange): void {
    this.#atMs.put(place, change.atMs);
    const code =
      DATA_RESOURCES.indexOf(change.resource) |
      (KINDS.indexOf(change.kind) << 2) |
      (ORIGINS.indexOf(change.origin) << 4);
    this.#codes.put(place, code);
    this.#companies.put(place, this.#companyNames.number(change.company, change.company));
    const { fields } = change;
    this.#fields.put(place, fields === undefined ? 0 : this.#fieldLists.number(fields.join(','), fields) + 1);
    const canonical = readId(change.id);
    for (let index = 0; index < 4; index++)
      (this.#id[index] as Chunked).put(place, canonical ? (WORDS[index] as number) : 0);
    if (canonical) this.#otherIds.delete(place);
    else this.#otherIds.set(place, change.id);
  }

  read(place: number, seq: number): DataChange {
    const code = this.#codes.get(place);
    const fields = this.#fields.get(place);
    return {
      seq,
      at: new Date(this.#atMs.get(place)).toISOString(),
      company: this.#companyNames.value(this.#companies.get(place)),
      resource: DATA_RESOURCES[code & 3] as DataResource,
      id: this.#otherIds.get(place) ?? this.#canonicalId(place),
      kind: KINDS[(code >> 2) & 3] as DataChangeKind,
      ...(fields === 0 ? {} : { fields: [...this.#fieldLists.value(fields - 1)] }),
      origin: ORIGINS[(code >> 4) & 1] as DataChangeOrigin,
    };
  }

  clear(): void {
    this.#atMs = new Chunked((length) => new Float64Array(length));
    this.#codes = new Chunked((length) => new Uint8Array(length));
    this.#companies = new Chunked((length) => new Uint32Array(length));
    this.#fields = new Chunked((length) => new Uint32Array(length));
    this.#id = [0, 1, 2, 3].map(() => new Chunked((length) => new Uint32Array(length)));
    this.#otherIds = new Map();
  }

  #canonicalId(place: number): string {
    const hex = this.#id.map((column) => column.get(place).toString(16).padStart(8, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
