// One data structure in one class of about 500 lines, on purpose: the overlay's maps, its rows, the lists built
// over them and the versions of those lists change together on every insert, update, removal and arrival (a
// list holds a row by its `ref`; a change moves the version each cached page is keyed by). Split, each part
// would reach into the others' fields. What stands alone is apart already: the arrivals (arrivals.ts), the
// order-statistic lists (list-index.ts, block-list.ts, fenwick.ts) and the base tables (table.ts).
import { type ArrivalEntry, type ArrivalSource, Arrivals, changedFields } from './arrivals.js';
import { idKey } from './id-key.js';
import { ListIndex, type ListOrder } from './list-index.js';
import {
  compareRecords,
  type PositionIndex,
  type RecordTable,
  type RecordView,
  type StoredRecord,
} from './table.js';

/** A list filter: a field and the value (as a string) its records must hold. */
export type ListFilter = readonly [facet: string, value: string];

/** One page of a list: the JSON texts of its items joined by commas, and the list's count. */
export interface ListPage {
  /** Records in the (filtered) list. */
  readonly count: number;
  /** The page's items as JSON, comma-separated (the inside of the `data` array). */
  readonly items: string;
}

/**
 * How a created record is generated again: a table keeps this (the fields given and what the rest is
 * drawn from) rather than the record.
 */
export interface RecordMaker<Item, Companion> {
  /** The record as it was created. */
  record(): Item;
  /** What it brings with it (a call's or recording's transcript), if anything. */
  companion(): Companion | undefined;
}

/**
 * What a table's overlay holds, without its lists: what a saved state keeps of a table, and what
 * {@link LiveTable.insert}, {@link LiveTable.arrive}, {@link LiveTable.update} and {@link LiveTable.remove}
 * make again. Created records and arrivals deleted since are gone for good, and not listed.
 */
export interface TableOverlay<Item, Companion> {
  /** Base records changed (not deleted), oldest change first: each one's id and the fields that differ. */
  readonly changed: readonly { readonly id: string; readonly fields: Readonly<Record<string, unknown>> }[];
  /** The ids of base records deleted. */
  readonly deleted: readonly string[];
  /** Records created, in the order they were: how each is generated again, and its fields changed since. */
  readonly created: readonly {
    readonly maker: RecordMaker<Item, Companion>;
    readonly fields: Readonly<Record<string, unknown>> | undefined;
  }[];
  /** Records the activity brought, still there. */
  readonly arrived: readonly ArrivalEntry<Item, Companion>[];
}

/** A record the overlay knows: created by a change, or a base record changed or deleted. */
interface Row<Item, Companion> {
  /** `created_at` in epoch ms. */
  readonly time: number;
  /** A created record's id as stored (the order compares it as is); a base record's is its table's. */
  readonly id: string | undefined;
  /** The change counter at its last change: its revision. */
  stamp: number;
  /** Its number in the table's rows, what lists hold of it. */
  ref: number;
  /** Base records sorting before it: its base position for a base record. */
  readonly gap: number;
  /** Its base position, or −1 for a created record. */
  readonly base: number;
  /** How a created record is generated again (undefined for a base record). */
  readonly maker: RecordMaker<Item, Companion> | undefined;
  /** The fields changed since it was created or generated (undefined for none). */
  changes: Readonly<Record<string, unknown>> | undefined;
  deleted: boolean;
}

/**
 * A list entry: a base position (from 0), an arrival (−1 − its slot) or a row. What a list adds to its
 * base entries is a row or an arrival; a list holds a row as its `ref` (from 0), an arrival as itself.
 */
type Entry<Item, Companion> = number | Row<Item, Companion>;
type Added<Item, Companion> = Row<Item, Companion> | number;

const facetOf = (item: unknown, facet: string) => String((item as Record<string, unknown>)[facet]);
const arrivalEntry = (slot: number) => -1 - slot;
const slotOf = (entry: number) => -1 - entry;

/**
 * A table whose records change: an immutable base table (generated or a fixture) under an overlay of
 * created, updated and deleted records. The base is never copied, so a million generated calls stay
 * lazy; lists answer through order-statistic indexes (every record, and per filter value) built when
 * first needed after a change. With no change, every read goes straight to the base, as it always did.
 *
 * No record is kept whole: a changed base record keeps the fields that changed, a created record how it is
 * generated again ({@link RecordMaker}) and its changed fields, and a record the activity brought a few
 * numbers ({@link Arrivals}). A record is generated again when a page or a detail needs it.
 */
export class LiveTable<Item extends StoredRecord, Companion = unknown> {
  /** The table the overlay changes. */
  readonly base: RecordTable<Item>;
  #changes = 0;
  #size: number;
  /** Changed or deleted base records, by base position. */
  readonly #overrides = new Map<number, Row<Item, Companion>>();
  /** Created records, by id key. */
  readonly #created = new Map<string, Row<Item, Companion>>();
  /** What the activity brought. */
  readonly #arrivals = new Arrivals<Item, Companion>();
  /** Every row, by its ref. */
  readonly #rows: Row<Item, Companion>[] = [];
  #all: ListIndex | undefined;
  readonly #lists = new Map<string, Map<string, ListIndex>>();
  #allVersionText = '0';
  /** Change counter at the last change of each filter value's list, per facet asked for. */
  readonly #versions = new Map<string, Map<string, number>>();
  /** The newest base record's `created_at` (ms) and id, read once: most records are created after it. */
  #lastBase: { readonly time: number; readonly id: string } | undefined;
  /** The order of what lists add: `created_at`, then id. */
  readonly #order: ListOrder = {
    compare: (refA, refB) => {
      const a = this.#fromRef(refA);
      const b = this.#fromRef(refB);
      // Times first, then two arrivals by the heads of their ids: an id is generated again only for a tie.
      return (
        this.#timeOf(a) - this.#timeOf(b) ||
        (typeof a === 'number' && typeof b === 'number'
          ? this.#arrivals.head(slotOf(a)) - this.#arrivals.head(slotOf(b))
          : 0) ||
        compareRecords(0, this.#idOf(a), 0, this.#idOf(b))
      );
    },
  };

  /** @param base - the records before any change. */
  constructor(base: RecordTable<Item>) {
    this.base = base;
    this.#size = base.size;
  }

  /** Records in the table now. */
  get size(): number {
    return this.#size;
  }

  /** Whether any record was created, updated or deleted. */
  get changed(): boolean {
    return this.#changes > 0;
  }

  /** Records the activity brought that are still there. */
  get arrived(): number {
    return this.#arrivals.live;
  }

  /** Bytes the table holds for the records the activity brought. */
  get arrivalBytes(): number {
    return this.#arrivals.bytes;
  }

  /** What the overlay holds now (see {@link TableOverlay}). */
  overlay(): TableOverlay<Item, Companion> {
    const changed: { id: string; fields: Readonly<Record<string, unknown>> }[] = [];
    const deleted: string[] = [];
    for (const [position, row] of this.#overrides) {
      const { id } = this.base.at(position);
      if (row.deleted) deleted.push(id);
      else if (row.changes !== undefined) changed.push({ id, fields: row.changes });
    }
    const created = [...this.#created.values()].map((row) => ({
      maker: row.maker as RecordMaker<Item, Companion>,
      fields: row.changes,
    }));
    return { changed, deleted, created, arrived: [...this.#arrivals.entries()] };
  }

  /**
   * The record with this id, if the table holds it now.
   *
   * @param id - a lower-case id (see `idKey`).
   */
  find(id: string): Item | undefined {
    if (this.#changes === 0) return this.base.find(id);
    const created = this.#created.get(id);
    if (created !== undefined) return this.#rowItem(created);
    const slot = this.#arrivals.find(id);
    if (slot !== undefined) return this.#arrivals.record(slot);
    const position = this.base.positionOf(id);
    if (position === undefined) return undefined;
    const row = this.#overrides.get(position);
    if (row === undefined) return this.base.at(position);
    return row.deleted ? undefined : this.#rowItem(row);
  }

  /**
   * What a record created at run time brings with it (a call's or recording's transcript), generated
   * again; undefined for a record of the base table, whose owner derives it.
   *
   * @param id - a lower-case id.
   */
  companion(id: string): Companion | undefined {
    if (this.#changes === 0) return undefined;
    const created = this.#created.get(id);
    if (created !== undefined) return created.maker?.companion();
    const slot = this.#arrivals.find(id);
    return slot === undefined ? undefined : this.#arrivals.companion(slot);
  }

  /**
   * A number that changes whenever the record with this id changes (0 for one never changed): a cached
   * answer about the record holds while it stays the same.
   */
  revision(id: string): number {
    if (this.#changes === 0) return 0;
    const created = this.#created.get(id);
    if (created !== undefined) return created.stamp;
    const slot = this.#arrivals.find(id);
    if (slot !== undefined) return this.#arrivals.revision(slot);
    const position = this.base.positionOf(id);
    return position === undefined ? 0 : (this.#overrides.get(position)?.stamp ?? 0);
  }

  /**
   * A text that changes whenever the list these filters select changes (a record entering, leaving or
   * changing in it): a cached page of it holds while it stays the same. Changes to records outside the
   * list leave it as it was.
   */
  version(filters: readonly ListFilter[]): string {
    if (filters.length === 0) return this.#allVersionText;
    let text = '';
    for (const [facet, value] of filters) {
      let versions = this.#versions.get(facet);
      if (versions === undefined) {
        // From now on every change bumps this facet's values (no page of it was cached before).
        versions = new Map();
        this.#versions.set(facet, versions);
      }
      text += `${versions.get(value) ?? 0} `;
    }
    return text;
  }

  /**
   * The records of ranks `first` (included) to `last` (excluded) of a list, as JSON through `view`.
   *
   * @param filters - the filters (a record's field equals the value); none for every record.
   * @param first - the first rank.
   * @param last - the rank after the last wanted (clamped to the count).
   * @param descending - newest first.
   * @param view - the projection of each record.
   */
  page(
    filters: readonly ListFilter[],
    first: number,
    last: number,
    descending: boolean,
    view: RecordView<Item>,
  ): ListPage {
    if (this.#changes === 0) return this.#basePage(filters, first, last, descending, view);
    if (filters.length > 1) return this.#intersectionPage(filters, first, last, descending, view);
    let list: ListIndex;
    if (filters.length === 0) list = this.#allList();
    else {
      const [facet, value] = filters[0] as ListFilter;
      list = this.#list(facet, value);
    }
    let items = '';
    list.walk(first, last, descending, (value, added) => {
      if (items !== '') items += ',';
      items += this.#json(added ? this.#fromRef(value) : value, view);
    });
    return { count: list.count, items };
  }

  /**
   * The record of rank `rank` in ascending order (0 = oldest).
   *
   * @param rank - 0 to `size` − 1.
   */
  at(rank: number): Item {
    if (this.#changes === 0) return this.base.at(rank);
    return this.#allList().entry(rank, (value, added) => this.#item(added ? this.#fromRef(value) : value));
  }

  /**
   * Adds a record (its `created_at` places it in every list).
   *
   * @param item - the record as created.
   * @param maker - how it is generated again (default: the record kept as it is).
   * @throws Error when a record with its id exists.
   */
  insert(item: Item, maker?: RecordMaker<Item, Companion>): void {
    const key = idKey(item.id);
    if (this.find(key) !== undefined) throw new Error(`A record with id ${item.id} already exists`);
    const time = Date.parse(item.created_at);
    const row: Row<Item, Companion> = {
      time,
      id: item.id,
      stamp: 0,
      ref: this.#rows.length,
      gap: this.#gapOf(time, () => item.id),
      base: -1,
      maker: maker ?? { record: () => item, companion: () => undefined },
      changes: undefined,
      deleted: false,
    };
    this.#rows.push(row);
    this.#created.set(key, row);
    this.#size++;
    this.#moved(row, undefined, item);
  }

  /**
   * Adds record `n` of an arrival source, which arrived at `atMs` (its `created_at`, to the second).
   *
   * @param detail - the number the source chose when it arrived.
   * @param item - the record as it arrived (what `source.record(n, atMs, detail, false)` gives).
   * @throws Error when a record with its id exists.
   */
  arrive(source: ArrivalSource<Item, Companion>, n: number, atMs: number, detail: number, item: Item): void {
    const key = idKey(item.id);
    if (this.find(key) !== undefined) throw new Error(`A record with id ${item.id} already exists`);
    const slot = this.#arrivals.add(source, n, atMs, detail, key);
    this.#size++;
    this.#moved(arrivalEntry(slot), undefined, item);
  }

  /**
   * Replaces the record with the same id (id and `created_at` must not change).
   *
   * @returns the record it replaced.
   * @throws Error when no record has its id.
   */
  update(item: Item): Item {
    const key = idKey(item.id);
    const slot = this.#created.has(key) ? undefined : this.#arrivals.find(key);
    if (slot !== undefined) {
      const before = this.#arrivals.record(slot);
      this.#arrivals.update(slot, item, this.#changes + 1);
      this.#moved(arrivalEntry(slot), before, item);
      return before;
    }
    const row = this.#rowOf(key);
    if (row === undefined) throw new Error(`No record has id ${item.id}`);
    const before = this.#rowItem(row);
    const fields = changedFields(this.#generated(row), item);
    row.changes = Object.keys(fields).length === 0 ? undefined : fields;
    this.#moved(row, before, item);
    return before;
  }

  /**
   * Deletes the record with this id.
   *
   * @param id - a lower-case id.
   * @returns the deleted record, or undefined when there was none.
   */
  remove(id: string): Item | undefined {
    const slot = this.#created.has(id) ? undefined : this.#arrivals.find(id);
    if (slot !== undefined) {
      const item = this.#arrivals.record(slot);
      this.#arrivals.remove(slot);
      this.#size--;
      this.#moved(arrivalEntry(slot), item, undefined);
      return item;
    }
    const row = this.#rowOf(id);
    if (row === undefined) return undefined;
    const item = this.#rowItem(row);
    row.deleted = true;
    // A deleted record keeps nothing of its changes: it is never answered again.
    row.changes = undefined;
    if (row.base < 0) this.#created.delete(id);
    this.#size--;
    this.#moved(row, item, undefined);
    return item;
  }

  /** The record a row stands for: generated again, with its changed fields. */
  #rowItem(row: Row<Item, Companion>): Item {
    const generated = this.#generated(row);
    return row.changes === undefined ? generated : { ...generated, ...row.changes };
  }

  /** A row's record as created or generated, before any change. */
  #generated(row: Row<Item, Companion>): Item {
    return row.maker === undefined ? this.base.at(row.base) : row.maker.record();
  }

  /** The live row of a record (made for a base record on its first change), or undefined. */
  #rowOf(key: string): Row<Item, Companion> | undefined {
    const created = this.#created.get(key);
    if (created !== undefined) return created;
    const position = this.base.positionOf(key);
    if (position === undefined) return undefined;
    const known = this.#overrides.get(position);
    if (known !== undefined) return known.deleted ? undefined : known;
    const item = this.base.at(position);
    const row: Row<Item, Companion> = {
      time: Date.parse(item.created_at),
      id: undefined,
      stamp: 0,
      ref: this.#rows.length,
      gap: position,
      base: position,
      maker: undefined,
      changes: undefined,
      deleted: false,
    };
    this.#rows.push(row);
    this.#overrides.set(position, row);
    return row;
  }

  /** What a list holds of a row or an arrival. */
  #toRef(added: Added<Item, Companion>): number {
    return typeof added === 'number' ? added : added.ref;
  }

  /** The row or arrival a list's number stands for. */
  #fromRef(ref: number): Added<Item, Companion> {
    return ref < 0 ? ref : (this.#rows[ref] as Row<Item, Companion>);
  }

  #timeOf(added: Added<Item, Companion>): number {
    return typeof added === 'number' ? this.#arrivals.time(slotOf(added)) : added.time;
  }

  #idOf(added: Added<Item, Companion>): string {
    if (typeof added === 'number') return this.#arrivals.id(slotOf(added));
    return added.id ?? this.base.at(added.base).id;
  }

  /** How many base records sort before what was added. */
  #gapOfAdded(added: Added<Item, Companion>): number {
    return typeof added === 'number' ? this.#gapOf(this.#timeOf(added), () => this.#idOf(added)) : added.gap;
  }

  /** How many base records sort before (time, id); the id is asked for only when a time ties. */
  #gapOf(time: number, id: () => string): number {
    const size = this.base.size;
    if (size === 0) return 0;
    if (this.#lastBase === undefined) {
      const last = this.base.at(size - 1);
      this.#lastBase = { time: Date.parse(last.created_at), id: last.id };
    }
    // Most records are created now, after every base record: one comparison instead of a search.
    const last = this.#lastBase;
    if (last.time < time || (last.time === time && compareRecords(0, last.id, 0, id()) < 0)) return size;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = this.base.at(mid);
      const otherTime = Date.parse(other.created_at);
      if (otherTime < time || (otherTime === time && compareRecords(0, other.id, 0, id()) < 0)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Updates the built lists and the versions after a record went from `before` to `after`. */
  #moved(added: Added<Item, Companion>, before: Item | undefined, after: Item | undefined): void {
    const stamp = ++this.#changes;
    // An arrival's revision is its own (see Arrivals.revision).
    if (typeof added !== 'number') added.stamp = stamp;
    this.#allVersionText = String(stamp);
    if (this.#all !== undefined && (before === undefined) !== (after === undefined))
      this.#place(this.#all, added, after !== undefined);
    for (const [facet, lists] of this.#lists) {
      const was = before === undefined ? undefined : facetOf(before, facet);
      const is = after === undefined ? undefined : facetOf(after, facet);
      if (was === is) continue;
      if (was !== undefined) {
        const list = lists.get(was);
        if (list !== undefined) this.#place(list, added, false);
      }
      if (is !== undefined) {
        const list = lists.get(is);
        if (list !== undefined) this.#place(list, added, true);
      }
    }
    for (const [facet, versions] of this.#versions) {
      if (before !== undefined) versions.set(facetOf(before, facet), stamp);
      if (after !== undefined) versions.set(facetOf(after, facet), stamp);
    }
  }

  /** Puts a row or an arrival into a list or takes it out. */
  #place(list: ListIndex, added: Added<Item, Companion>, enter: boolean): void {
    if (typeof added !== 'number' && added.base >= 0 && list.holdsBase(added.base))
      list.setBaseGone(added.base, !enter);
    else if (enter) list.add(this.#toRef(added), this.#gapOfAdded(added));
    else list.remove(this.#toRef(added), this.#gapOfAdded(added));
  }

  #allList(): ListIndex {
    if (this.#all === undefined) {
      const list = new ListIndex(undefined, this.base.size, this.#order);
      for (const row of this.#overrides.values()) if (row.deleted) this.#place(list, row, false);
      for (const row of this.#created.values()) this.#place(list, row, true);
      for (const slot of this.#arrivals.liveSlots()) this.#place(list, arrivalEntry(slot), true);
      this.#all = list;
    }
    return this.#all;
  }

  #list(facet: string, value: string): ListIndex {
    let lists = this.#lists.get(facet);
    if (lists === undefined) {
      lists = new Map();
      this.#lists.set(facet, lists);
    }
    let list = lists.get(value);
    if (list === undefined) {
      const index = this.base.positions(facet, value);
      list = new ListIndex(index, index.length, this.#order);
      for (const row of this.#overrides.values()) {
        const was = this.base.value(row.base, facet) === value;
        const is = !row.deleted && facetOf(this.#rowItem(row), facet) === value;
        if (was !== is) this.#place(list, row, is);
      }
      for (const row of this.#created.values())
        if (facetOf(this.#rowItem(row), facet) === value) this.#place(list, row, true);
      for (const slot of this.#arrivals.liveSlots())
        if (facetOf(this.#arrivals.record(slot), facet) === value)
          this.#place(list, arrivalEntry(slot), true);
      lists.set(value, list);
    }
    return list;
  }

  /** A page of records matching several filters: the first filter's list, checked against the others (no endpoint has two today). */
  #intersectionPage(
    filters: readonly ListFilter[],
    first: number,
    last: number,
    descending: boolean,
    view: RecordView<Item>,
  ): ListPage {
    const [facet, value] = filters[0] as ListFilter;
    const entries: Entry<Item, Companion>[] = [];
    this.#list(facet, value).walk(0, Number.MAX_SAFE_INTEGER, descending, (found, added) => {
      const entry = added ? this.#fromRef(found) : found;
      const item = this.#item(entry);
      if (filters.every(([name, wanted]) => facetOf(item, name) === wanted)) entries.push(entry);
    });
    const items = entries
      .slice(first, last)
      .map((entry) => this.#json(entry, view))
      .join(',');
    return { count: entries.length, items };
  }

  /** The record an entry stands for, as it is now. */
  #item(entry: Entry<Item, Companion>): Item {
    if (typeof entry !== 'number') return this.#rowItem(entry);
    if (entry < 0) return this.#arrivals.record(slotOf(entry));
    const row = this.#overrides.get(entry);
    return row === undefined ? this.base.at(entry) : this.#rowItem(row);
  }

  #json(entry: Entry<Item, Companion>, view: RecordView<Item>): string {
    // An unchanged base record has its own memo; the others are generated again (the page cache keeps pages).
    if (typeof entry === 'number' && entry >= 0 && !this.#overrides.has(entry))
      return this.base.json(entry, view);
    return JSON.stringify(view.project(this.#item(entry)));
  }

  /** A page read straight from the base table (no change yet): its pre-sorted indexes, read in either direction. */
  #basePage(
    filters: readonly ListFilter[],
    first: number,
    last: number,
    descending: boolean,
    view: RecordView<Item>,
  ): ListPage {
    const records = this.base;
    let index: PositionIndex | undefined;
    for (const [facet, value] of filters) {
      const matching = records.positions(facet, value);
      index = index === undefined ? matching : intersect(index, matching);
    }
    const count = index ? index.length : records.size;
    const end = Math.min(count, last);
    let items = '';
    for (let rank = first; rank < end; rank++) {
      // Ascending order reads the index forwards, descending backwards: no sort per request.
      const slot = descending ? count - 1 - rank : rank;
      const position = index ? (index[slot] as number) : slot;
      if (rank > first) items += ',';
      items += records.json(position, view);
    }
    return { count, items };
  }
}

/** Positions in both ascending indexes. */
function intersect(a: PositionIndex, b: PositionIndex): PositionIndex {
  const both: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) both.push(x);
    if (x <= y) i++;
    if (y <= x) j++;
  }
  return both;
}
