import { Fenwick } from './fenwick.js';
import { idKey } from './id-key.js';
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

/** A record the overlay knows: created by a change, or a base record changed or deleted. */
interface Row<Item> {
  item: Item;
  /** `created_at` in epoch ms. */
  readonly time: number;
  /** The id as stored (the order compares it as is). */
  readonly id: string;
  /** Base records sorting before it: its base position for a base record. */
  readonly gap: number;
  /** Its base position, or −1 for a created record. */
  readonly base: number;
  deleted: boolean;
  /** JSON text per view name, dropped on update. */
  json: Map<string, string> | undefined;
}

/** A list entry: a base position or a row. */
type Entry<Item> = number | Row<Item>;

/**
 * One list (every record, or the records with one facet value) as base entries plus the records added to
 * it, counted per bucket in a Fenwick tree: bucket `i` holds the records added before base entry `i`
 * (sorted), then base entry `i` unless it left. The n-th record costs O(log n) whatever n.
 */
class ListIndex<Item> {
  count: number;
  /** Base positions in the list, ascending; undefined for every base position. */
  readonly #index: PositionIndex | undefined;
  readonly #tree: Fenwick;
  readonly #gone: Uint8Array;
  readonly #added = new Map<number, Row<Item>[]>();

  constructor(index: PositionIndex | undefined, length: number) {
    this.#index = index;
    this.count = length;
    const counts = new Int32Array(length + 1).fill(1);
    counts[length] = 0;
    this.#tree = new Fenwick(counts);
    this.#gone = new Uint8Array(length);
  }

  /** The bucket of a record with `gap` base records before it (or of base position `gap`). */
  bucketOf(gap: number): number {
    const index = this.#index;
    if (index === undefined) return gap;
    let low = 0;
    let high = index.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((index[mid] as number) < gap) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Whether base position `position` is one of the base entries. */
  holdsBase(position: number): boolean {
    const index = this.#index;
    if (index === undefined) return true;
    const bucket = this.bucketOf(position);
    return bucket < index.length && index[bucket] === position;
  }

  /** Takes base position `position` out (true) or back in (false). */
  setBaseGone(position: number, gone: boolean): void {
    const bucket = this.bucketOf(position);
    if ((this.#gone[bucket] === 1) === gone) return;
    this.#gone[bucket] = gone ? 1 : 0;
    this.#tree.add(bucket, gone ? -1 : 1);
    this.count += gone ? -1 : 1;
  }

  add(row: Row<Item>): void {
    const bucket = this.bucketOf(row.gap);
    let rows = this.#added.get(bucket);
    if (rows === undefined) {
      rows = [];
      this.#added.set(bucket, rows);
    }
    rows.splice(placeOf(rows, row), 0, row);
    this.#tree.add(bucket, 1);
    this.count++;
  }

  remove(row: Row<Item>): void {
    const bucket = this.bucketOf(row.gap);
    const rows = this.#added.get(bucket);
    if (rows === undefined) return;
    const at = placeOf(rows, row);
    if (rows[at] !== row) return;
    rows.splice(at, 1);
    if (rows.length === 0) this.#added.delete(bucket);
    this.#tree.add(bucket, -1);
    this.count--;
  }

  /** The entry of rank `rank` (0 = oldest). */
  entry(rank: number): Entry<Item> {
    const { bucket, offset } = this.#tree.find(rank);
    const rows = this.#added.get(bucket);
    if (rows !== undefined && offset < rows.length) return rows[offset] as Row<Item>;
    return this.#base(bucket);
  }

  /**
   * Visits the entries of ranks `first` to `last` − 1 (clamped to the count) in the list's order, oldest
   * first or newest first: one tree search for the first, then a walk, so a page costs one O(log n) search.
   */
  walk(first: number, last: number, descending: boolean, visit: (entry: Entry<Item>) => void): void {
    let remaining = Math.min(last, this.count) - first;
    if (remaining <= 0) return;
    const gone = this.#gone;
    const length = gone.length;
    let { bucket, offset } = this.#tree.find(descending ? this.count - 1 - first : first);
    let rows = this.#added.get(bucket);
    for (;;) {
      const added = rows === undefined ? 0 : rows.length;
      if (offset < added) visit((rows as Row<Item>[])[offset] as Row<Item>);
      else visit(this.#base(bucket));
      if (--remaining === 0) return;
      if (descending) {
        offset--;
        while (offset < 0) {
          bucket--;
          rows = this.#added.get(bucket);
          offset = (rows === undefined ? 0 : rows.length) + (gone[bucket] === 0 ? 1 : 0) - 1;
        }
      } else {
        offset++;
        if (offset >= added + (bucket < length && gone[bucket] === 0 ? 1 : 0)) {
          // On to the next bucket holding anything (there is one: `remaining` entries are left).
          do {
            bucket++;
            rows = this.#added.get(bucket);
          } while (rows === undefined && !(bucket < length && gone[bucket] === 0));
          offset = 0;
        }
      }
    }
  }

  #base(bucket: number): number {
    return this.#index === undefined ? bucket : (this.#index[bucket] as number);
  }
}

/** Where `row` sorts among `rows` (sorted by `created_at`, then id): the first index not before it. */
function placeOf<Item>(rows: readonly Row<Item>[], row: Row<Item>): number {
  // Rows created now append: check the end first.
  const lastRow = rows[rows.length - 1];
  if (lastRow === undefined || compareRecords(lastRow.time, lastRow.id, row.time, row.id) < 0)
    return rows.length;
  let low = 0;
  let high = rows.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const other = rows[mid] as Row<Item>;
    if (compareRecords(other.time, other.id, row.time, row.id) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

const facetOf = (item: unknown, facet: string) => String((item as Record<string, unknown>)[facet]);

/**
 * A table whose records change: an immutable base table (generated or a fixture) under an overlay of
 * created, updated and deleted records. The base is never copied, so a million generated calls stay
 * lazy; lists answer through order-statistic indexes (every record, and per filter value) built when
 * first needed after a change. With no change, every read goes straight to the base, as it always did.
 */
export class LiveTable<Item extends StoredRecord> {
  /** The table the overlay changes. */
  readonly base: RecordTable<Item>;
  #changes = 0;
  #size: number;
  /** Changed or deleted base records, by base position. */
  readonly #overrides = new Map<number, Row<Item>>();
  /** Created records, by id key. */
  readonly #created = new Map<string, Row<Item>>();
  /** Change counter at each record's last change, by id key. */
  readonly #revisions = new Map<string, number>();
  #all: ListIndex<Item> | undefined;
  readonly #lists = new Map<string, Map<string, ListIndex<Item>>>();
  #allVersionText = '0';
  /** Change counter at the last change of each filter value's list, per facet asked for. */
  readonly #versions = new Map<string, Map<string, number>>();

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

  /**
   * The record with this id, if the table holds it now.
   *
   * @param id - a lower-case id (see `idKey`).
   */
  find(id: string): Item | undefined {
    if (this.#changes === 0) return this.base.find(id);
    const created = this.#created.get(id);
    if (created !== undefined) return created.item;
    const position = this.base.positionOf(id);
    if (position === undefined) return undefined;
    const row = this.#overrides.get(position);
    if (row === undefined) return this.base.at(position);
    return row.deleted ? undefined : row.item;
  }

  /**
   * A number that changes whenever the record with this id changes (0 for one never changed): a cached
   * answer about the record holds while it stays the same.
   */
  revision(id: string): number {
    return this.#changes === 0 ? 0 : (this.#revisions.get(id) ?? 0);
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
    let list: ListIndex<Item>;
    if (filters.length === 0) list = this.#allList();
    else {
      const [facet, value] = filters[0] as ListFilter;
      list = this.#list(facet, value);
    }
    let items = '';
    list.walk(first, last, descending, (entry) => {
      if (items !== '') items += ',';
      items += this.#json(entry, view);
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
    const entry = this.#allList().entry(rank);
    return typeof entry === 'number' ? this.#current(entry) : entry.item;
  }

  /**
   * Adds a record (its `created_at` places it in every list).
   *
   * @throws Error when a record with its id exists.
   */
  insert(item: Item): void {
    const key = idKey(item.id);
    if (this.find(key) !== undefined) throw new Error(`A record with id ${item.id} already exists`);
    const time = Date.parse(item.created_at);
    const row: Row<Item> = {
      item,
      time,
      id: item.id,
      gap: this.#gapOf(time, item.id),
      base: -1,
      deleted: false,
      json: undefined,
    };
    this.#created.set(key, row);
    this.#size++;
    this.#moved(row, undefined, item, key);
  }

  /**
   * Replaces the record with the same id (id and `created_at` must not change).
   *
   * @returns the record it replaced.
   * @throws Error when no record has its id.
   */
  update(item: Item): Item {
    const key = idKey(item.id);
    const row = this.#rowOf(key);
    if (row === undefined) throw new Error(`No record has id ${item.id}`);
    const before = row.item;
    row.item = item;
    row.json = undefined;
    this.#moved(row, before, item, key);
    return before;
  }

  /**
   * Deletes the record with this id.
   *
   * @param id - a lower-case id.
   * @returns the deleted record, or undefined when there was none.
   */
  remove(id: string): Item | undefined {
    const row = this.#rowOf(id);
    if (row === undefined) return undefined;
    row.deleted = true;
    if (row.base < 0) this.#created.delete(id);
    this.#size--;
    this.#moved(row, row.item, undefined, id);
    return row.item;
  }

  /** The live row of a record (made for a base record on its first change), or undefined. */
  #rowOf(key: string): Row<Item> | undefined {
    const created = this.#created.get(key);
    if (created !== undefined) return created;
    const position = this.base.positionOf(key);
    if (position === undefined) return undefined;
    const known = this.#overrides.get(position);
    if (known !== undefined) return known.deleted ? undefined : known;
    const item = this.base.at(position);
    const row: Row<Item> = {
      item,
      time: Date.parse(item.created_at),
      id: item.id,
      gap: position,
      base: position,
      deleted: false,
      json: undefined,
    };
    this.#overrides.set(position, row);
    return row;
  }

  /** How many base records sort before (time, id). */
  #gapOf(time: number, id: string): number {
    const sortsAfter = (position: number) => {
      const other = this.base.at(position);
      return compareRecords(Date.parse(other.created_at), other.id, time, id) < 0;
    };
    // Most records are created now, after every base record: one comparison instead of a search.
    const size = this.base.size;
    if (size === 0 || sortsAfter(size - 1)) return size;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sortsAfter(mid)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Updates the built lists and the versions after a record went from `before` to `after`. */
  #moved(row: Row<Item>, before: Item | undefined, after: Item | undefined, key: string): void {
    const stamp = ++this.#changes;
    this.#revisions.set(key, stamp);
    this.#allVersionText = String(stamp);
    if (this.#all !== undefined && (before === undefined) !== (after === undefined))
      this.#place(this.#all, row, after !== undefined);
    for (const [facet, lists] of this.#lists) {
      const was = before === undefined ? undefined : facetOf(before, facet);
      const is = after === undefined ? undefined : facetOf(after, facet);
      if (was === is) continue;
      if (was !== undefined) {
        const list = lists.get(was);
        if (list !== undefined) this.#place(list, row, false);
      }
      if (is !== undefined) {
        const list = lists.get(is);
        if (list !== undefined) this.#place(list, row, true);
      }
    }
    for (const [facet, versions] of this.#versions) {
      if (before !== undefined) versions.set(facetOf(before, facet), stamp);
      if (after !== undefined) versions.set(facetOf(after, facet), stamp);
    }
  }

  /** Puts a row into a list or takes it out. */
  #place(list: ListIndex<Item>, row: Row<Item>, enter: boolean): void {
    if (row.base >= 0 && list.holdsBase(row.base)) list.setBaseGone(row.base, !enter);
    else if (enter) list.add(row);
    else list.remove(row);
  }

  #allList(): ListIndex<Item> {
    if (this.#all === undefined) {
      const list = new ListIndex<Item>(undefined, this.base.size);
      for (const row of this.#overrides.values()) if (row.deleted) this.#place(list, row, false);
      for (const row of this.#created.values()) this.#place(list, row, true);
      this.#all = list;
    }
    return this.#all;
  }

  #list(facet: string, value: string): ListIndex<Item> {
    let lists = this.#lists.get(facet);
    if (lists === undefined) {
      lists = new Map();
      this.#lists.set(facet, lists);
    }
    let list = lists.get(value);
    if (list === undefined) {
      const index = this.base.positions(facet, value);
      list = new ListIndex<Item>(index, index.length);
      for (const row of this.#overrides.values()) {
        const was = this.base.value(row.base, facet) === value;
        const is = !row.deleted && facetOf(row.item, facet) === value;
        if (was !== is) this.#place(list, row, is);
      }
      for (const row of this.#created.values())
        if (facetOf(row.item, facet) === value) this.#place(list, row, true);
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
    const entries: Entry<Item>[] = [];
    this.#list(facet, value).walk(0, Number.MAX_SAFE_INTEGER, descending, (entry) => {
      const item = typeof entry === 'number' ? this.#current(entry) : entry.item;
      if (filters.every(([name, wanted]) => facetOf(item, name) === wanted)) entries.push(entry);
    });
    const items = entries
      .slice(first, last)
      .map((entry) => this.#json(entry, view))
      .join(',');
    return { count: entries.length, items };
  }

  /** The record at a base position now (the base's, or its update). */
  #current(position: number): Item {
    return this.#overrides.get(position)?.item ?? this.base.at(position);
  }

  #json(entry: Entry<Item>, view: RecordView<Item>): string {
    let row: Row<Item> | undefined;
    if (typeof entry === 'number') {
      row = this.#overrides.get(entry);
      if (row === undefined) return this.base.json(entry, view);
    } else row = entry;
    row.json ??= new Map();
    let text = row.json.get(view.name);
    if (text === undefined) {
      text = JSON.stringify(view.project(row.item));
      row.json.set(view.name, text);
    }
    return text;
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
