import { checkJournalLimit, checkReadOptions, type JournalReadOptions } from './limits.js';

/**
 * What a journal holds and has let go, e.g. for a long run to watch: what `server.journals.requests.stats()`
 * gives, and the admin summary (`journals`) for each journal.
 *
 * @example
 * ```ts
 * const stats: JournalStats = server.journals.changes.stats();
 * if (stats.dropped > 0) console.warn(`${stats.dropped} changes were dropped; raise journalLimit`);
 * ```
 */
export interface JournalStats {
  /** The most entries it keeps; null when it keeps them all. */
  readonly limit: number | null;
  /** Entries held now. */
  readonly held: number;
  /** Entries dropped (the oldest first) since it was last emptied, to stay within the limit. */
  readonly dropped: number;
  /** The `seq` of the newest entry (0 when none was added since it was last emptied). */
  readonly lastSeq: number;
}

/**
 * One read of a journal: the entries after `since`, oldest first, at most `limit` of them. The admin API
 * answers the same object (`GET /__admin/journal?since=<seq>`).
 *
 * @example
 * ```ts
 * let since = 0;
 * const page: JournalPage<DataChange> = server.journals.changes.read({ since, limit: 1000 });
 * if (page.missed > 0) console.warn(`${page.missed} changes were dropped before they were read`);
 * since = page.data.at(-1)?.seq ?? since; // read again from there while page.more
 * ```
 */
export interface JournalPage<Entry> {
  /** The entries, oldest first. */
  readonly data: readonly Entry[];
  /** Entries dropped since the journal was last emptied (as {@link JournalStats.dropped}). */
  readonly dropped: number;
  /** Entries after `since` dropped before this read: what a reader that came back with `since` lost. */
  readonly missed: number;
  /** Whether more entries follow the last of `data` (read again with its `seq` as `since`). */
  readonly more: boolean;
}

/**
 * A journal as a test reads it: pages of entries after a `seq`, what it holds and dropped, and emptying it.
 * A server has one for its requests and one for its changes (`server.journals`).
 *
 * @example
 * ```ts
 * const requests: JournalReader<JournalEntry> = server.journals.requests;
 * const { data, missed } = requests.read({ since: lastSeq });
 * ```
 */
export interface JournalReader<Entry> {
  /**
   * The entries after `since`, oldest first, at most `limit` of them, with what was dropped.
   *
   * @param options - `since` (a `seq`, default 0: from the oldest held) and `limit` (default: all).
   * @throws RangeError for a `since` or `limit` that is not a whole number in bounds, saying which.
   * @example
   * ```ts
   * const { data, more } = server.journals.requests.read({ since: 120, limit: 50 });
   * ```
   */
  read(options?: JournalReadOptions): JournalPage<Entry>;
  /** What it holds and has dropped. */
  stats(): JournalStats;
  /** Forgets every entry: `seq` starts at 1 again, and nothing counts as dropped. */
  clear(): void;
}

/**
 * Where a bounded journal keeps its entries: numbered places, written in turn (the oldest overwritten once
 * the journal is full) and read when a reader asks. A store may keep an entry in any form, e.g. in columns of
 * numbers, so that a busy journal makes no garbage.
 */
export interface JournalStore<Raw, Entry> {
  /** Keeps an entry at a place (from 0, below the journal's limit). */
  write(place: number, raw: Raw): void;
  /** The entry at a place, as a reader gets it. */
  read(place: number, seq: number): Entry;
  /** Forgets every entry. */
  clear(): void;
}

/**
 * A store that keeps each entry as recorded, decoded when read.
 *
 * @param decode - turns a recorded entry into what a reader gets.
 */
export function objectStore<Raw, Entry>(decode: (raw: Raw, seq: number) => Entry): JournalStore<Raw, Entry> {
  let entries: Raw[] = [];
  return {
    write: (place, raw) => {
      entries[place] = raw;
    },
    read: (place, seq) => decode(entries[place] as Raw, seq),
    clear: () => {
      entries = [];
    },
  };
}

/**
 * A journal that keeps at most `limit` entries, the newest; each entry is numbered (`seq`, from 1 after it
 * is emptied) and the journal counts those it dropped. Entries are kept by a store, cheap to record and
 * decoded when read. One object per journal: a server owns one for its requests and one for its changes.
 */
export class BoundedJournal<Raw, Entry> implements JournalReader<Entry> {
  readonly #limit: number;
  readonly #store: JournalStore<Raw, Entry>;
  /** Entries held. */
  #held = 0;
  /** The place of the oldest entry (the places form a ring once the journal is full). */
  #start = 0;
  #lastSeq = 0;
  #dropped = 0;

  /**
   * @param limit - the most entries kept: a whole number from 0 (none), or Infinity (all).
   * @param store - where the entries are kept.
   * @throws RangeError for any other limit.
   */
  constructor(limit: number, store: JournalStore<Raw, Entry>) {
    this.#limit = checkJournalLimit(limit, 'journalLimit');
    this.#store = store;
  }

  /** The most entries it keeps (Infinity: all). */
  get limit(): number {
    return this.#limit;
  }

  stats(): JournalStats {
    return {
      limit: Number.isFinite(this.#limit) ? this.#limit : null,
      held: this.#held,
      dropped: this.#dropped,
      lastSeq: this.#lastSeq,
    };
  }

  /**
   * Records an entry, dropping the oldest when the journal is full.
   *
   * @returns its `seq`.
   */
  add(raw: Raw): number {
    const seq = ++this.#lastSeq;
    if (this.#held < this.#limit) this.#store.write(this.#held++, raw);
    else if (this.#limit > 0) {
      this.#store.write(this.#start, raw);
      this.#start = (this.#start + 1) % this.#limit;
      this.#dropped++;
    } else this.#dropped++;
    return seq;
  }

  read(options: JournalReadOptions = {}): JournalPage<Entry> {
    const { since, limit } = checkReadOptions(options);
    const firstSeq = this.#lastSeq - this.#held + 1;
    const from = Math.max(since + 1, firstSeq);
    const count = Math.max(0, Math.min(this.#lastSeq - from + 1, limit));
    const data: Entry[] = [];
    for (let seq = from; seq < from + count; seq++) {
      const offset = this.#start + (seq - firstSeq);
      data.push(this.#store.read(offset < this.#limit ? offset : offset - this.#limit, seq));
    }
    return {
      data,
      dropped: this.#dropped,
      missed: Math.max(0, firstSeq - 1 - since),
      more: from + count <= this.#lastSeq,
    };
  }

  /** Every entry held, oldest first. */
  entries(): Entry[] {
    return this.read().data as Entry[];
  }

  clear(): void {
    this.#store.clear();
    this.#held = 0;
    this.#start = 0;
    this.#lastSeq = 0;
    this.#dropped = 0;
  }
}
