import type { RecordIdCodec } from '../random/record-ids.js';
import { idKey } from './id-key.js';

/** Positions of the records matching a filter, in ascending `created_at` order. */
export type PositionIndex = ArrayLike<number>;

/**
 * A collection of records kept in ascending `created_at` order. Lists read positions straight out
 * of it (descending order is read backwards), so a deep page costs what the first page costs.
 */
export interface RecordTable<Item> {
  readonly size: number;
  /** The record at `position` (0 = oldest). */
  at(position: number): Item;
  /** The record with this id (lower-case uuid), if the table holds it. */
  find(id: string): Item | undefined;
  /** The position of the record with this id (lower-case uuid), if the table holds it. */
  positionOf(id: string): number | undefined;
  /** The field `facet` of the record at `position`, as a string (what {@link RecordTable.positions} compares). */
  value(position: number, facet: string): string;
  /**
   * Positions of the records whose field `facet` equals `value` (as a string), built once then cached.
   * Any field works: a list filter parameter names the field it filters on.
   */
  positions(facet: string, value: string): PositionIndex;
  /** The JSON text of the record at `position` through `view`, memoised for modest tables. */
  json(position: number, view: RecordView<Item>): string;
}

/** A projection of a stored record to what an endpoint answers (e.g. a recording without custom fields). */
export interface RecordView<Item> {
  /** Distinguishes the memo of each view. */
  readonly name: string;
  /** Turns the record into the answered object. */
  project(item: Item): unknown;
}

/** Tables up to this size keep derived records and their JSON in memory after the first read. */
const MEMO_LIMIT = 50_000;

/** Reads a facet of the record at a position (e.g. a call's `source`). */
export type FacetReader = (position: number) => string;

abstract class BaseTable<Item> implements RecordTable<Item> {
  abstract readonly size: number;
  readonly #indexes = new Map<string, Map<string, Int32Array>>();
  readonly #json = new Map<string, (string | undefined)[]>();
  readonly #readers = new Map<string, FacetReader>();

  abstract at(position: number): Item;
  abstract positionOf(id: string): number | undefined;

  find(id: string): Item | undefined {
    const position = this.positionOf(id);
    return position === undefined ? undefined : this.at(position);
  }

  value(position: number, facet: string): string {
    let read = this.#readers.get(facet);
    if (read === undefined) {
      read = this.facet(facet);
      this.#readers.set(facet, read);
    }
    return read(position);
  }

  /** Reads a field of the record at a position, as a string. Tables may know a cheaper way. */
  protected facet(name: string): FacetReader {
    return (position) => String((this.at(position) as Record<string, unknown>)[name]);
  }

  positions(facet: string, value: string): PositionIndex {
    let byValue = this.#indexes.get(facet);
    if (!byValue) {
      byValue = this.#buildIndex(facet);
      this.#indexes.set(facet, byValue);
    }
    return byValue.get(value) ?? EMPTY;
  }

  json(position: number, view: RecordView<Item>): string {
    if (this.size > MEMO_LIMIT) return JSON.stringify(view.project(this.at(position)));
    let memo = this.#json.get(view.name);
    if (!memo) {
      memo = new Array(this.size);
      this.#json.set(view.name, memo);
    }
    let text = memo[position];
    if (text === undefined) {
      text = JSON.stringify(view.project(this.at(position)));
      memo[position] = text;
    }
    return text;
  }

  #buildIndex(facet: string): Map<string, Int32Array> {
    const read = this.facet(facet);
    const values = new Array<string>(this.size);
    const counts = new Map<string, number>();
    for (let position = 0; position < this.size; position++) {
      const value = read(position);
      values[position] = value;
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const result = new Map<string, Int32Array>();
    const fill = new Map<string, number>();
    for (const [value, count] of counts) {
      result.set(value, new Int32Array(count));
      fill.set(value, 0);
    }
    for (let position = 0; position < this.size; position++) {
      const value = values[position] as string;
      const index = result.get(value) as Int32Array;
      const next = fill.get(value) as number;
      index[next] = position;
      fill.set(value, next + 1);
    }
    return result;
  }
}

const EMPTY = new Int32Array(0);

/** Options of {@link GeneratedTable}. */
export interface GeneratedTableOptions<Item> {
  size: number;
  /** Encodes positions into ids and back. */
  ids: RecordIdCodec;
  /** Derives the record at a position; must be a pure function of the position. */
  derive(position: number): Item;
  /** Cheap readers of filtered fields, consistent with `derive` (other fields are read from derived records). */
  facets?: Readonly<Record<string, FacetReader>>;
}

/**
 * A table whose records are derived on demand from the seed and their position; nothing is stored
 * up front, which is what makes a million calls cheap to "generate".
 */
export class GeneratedTable<Item> extends BaseTable<Item> {
  readonly size: number;
  readonly #options: GeneratedTableOptions<Item>;
  readonly #memo: (Item | undefined)[] | undefined;

  constructor(options: GeneratedTableOptions<Item>) {
    super();
    this.size = options.size;
    this.#options = options;
    this.#memo = options.size <= MEMO_LIMIT ? new Array(options.size) : undefined;
  }

  at(position: number): Item {
    const memo = this.#memo;
    if (!memo) return this.#options.derive(position);
    let item = memo[position];
    if (item === undefined) {
      item = this.#options.derive(position);
      memo[position] = item;
    }
    return item;
  }

  positionOf(id: string): number | undefined {
    const position = this.#options.ids.decode(id);
    return position !== undefined && position < this.size ? position : undefined;
  }

  protected override facet(name: string): FacetReader {
    return this.#options.facets?.[name] ?? super.facet(name);
  }
}

/** A stored record: anything with an id and a creation time. */
export interface StoredRecord {
  readonly id: string;
  /** ISO 8601 creation time. */
  readonly created_at: string;
}

/**
 * The order of every list: `created_at` (epoch ms) then id, as strings compare. Negative when `a` comes first.
 */
export function compareRecords(timeA: number, idA: string, timeB: number, idB: string): number {
  return timeA - timeB || (idA < idB ? -1 : idA > idB ? 1 : 0);
}

/**
 * A table of records given up front (a fixture), sorted once by `created_at` then id.
 */
export class MaterializedTable<Item extends StoredRecord> extends BaseTable<Item> {
  readonly size: number;
  readonly #items: Item[];
  readonly #byId: Map<string, number>;

  constructor(items: readonly Item[]) {
    super();
    this.#items = items
      .map((item) => ({ item, time: Date.parse(item.created_at) }))
      .sort((a, b) => compareRecords(a.time, a.item.id, b.time, b.item.id))
      .map(({ item }) => item);
    this.size = this.#items.length;
    this.#byId = new Map(this.#items.map((item, position) => [idKey(item.id), position]));
  }

  at(position: number): Item {
    return this.#items[position] as Item;
  }

  positionOf(id: string): number | undefined {
    return this.#byId.get(id);
  }
}
