import { BlockList } from './block-list.js';
import { Fenwick } from './fenwick.js';
import type { PositionIndex } from './table.js';

/** The order of what a list adds: `compare(a, b)` is negative when `a` comes first. */
export interface ListOrder {
  compare(a: number, b: number): number;
}

/** Receives each entry of a walk: a base position, or (`added`) what the owner added. */
export type ListVisitor = (value: number, added: boolean) => void;

/**
 * One list (every record, or the records with one facet value) as base entries plus the records added to
 * it, counted per bucket in a Fenwick tree: bucket `i` holds the records added before base entry `i`
 * (sorted by `order`), then base entry `i` unless it left. The n-th record costs O(log n) whatever n.
 * A base entry is its position (a number from 0); what is added is a whole number of the owner's (a row, an
 * arrival), which only the owner reads.
 */
export class ListIndex {
  count: number;
  /** Base positions in the list, ascending; undefined for every base position. */
  readonly #index: PositionIndex | undefined;
  readonly #order: ListOrder;
  readonly #tree: Fenwick;
  readonly #gone: Uint8Array;
  /** What was added, per bucket, sorted. */
  readonly #added = new Map<number, BlockList>();

  /**
   * @param index - the base positions the list holds, ascending (undefined: every base position).
   * @param length - how many base positions it holds.
   * @param order - the list's order of added records.
   */
  constructor(index: PositionIndex | undefined, length: number, order: ListOrder) {
    this.#index = index;
    this.#order = order;
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

  /** Adds a record with `gap` base records before it. */
  add(added: number, gap: number): void {
    const bucket = this.bucketOf(gap);
    let rows = this.#added.get(bucket);
    if (rows === undefined) {
      rows = new BlockList();
      this.#added.set(bucket, rows);
    }
    rows.insert(this.#placeOf(rows, added), added);
    this.#tree.add(bucket, 1);
    this.count++;
  }

  /** Takes out a record added with `gap` base records before it. */
  remove(added: number, gap: number): void {
    const bucket = this.bucketOf(gap);
    const rows = this.#added.get(bucket);
    if (rows === undefined) return;
    const at = this.#placeOf(rows, added);
    if (at >= rows.length || rows.get(at) !== added) return;
    rows.removeAt(at);
    if (rows.length === 0) this.#added.delete(bucket);
    this.#tree.add(bucket, -1);
    this.count--;
  }

  /**
   * The entry of rank `rank` (0 = oldest), handed to `visit` as a walk hands it.
   *
   * @returns what `visit` returns.
   */
  entry<Result>(rank: number, visit: (value: number, added: boolean) => Result): Result {
    const { bucket, offset } = this.#tree.find(rank);
    const rows = this.#added.get(bucket);
    if (rows !== undefined && offset < rows.length) return visit(rows.get(offset), true);
    return visit(this.#base(bucket), false);
  }

  /**
   * Visits the entries of ranks `first` to `last` − 1 (clamped to the count) in the list's order, oldest
   * first or newest first: one tree search for the first, then a walk, so a page costs one O(log n) search.
   */
  walk(first: number, last: number, descending: boolean, visit: ListVisitor): void {
    let remaining = Math.min(last, this.count) - first;
    if (remaining <= 0) return;
    const gone = this.#gone;
    const length = gone.length;
    let { bucket, offset } = this.#tree.find(descending ? this.count - 1 - first : first);
    let rows = this.#added.get(bucket);
    for (;;) {
      const added = rows === undefined ? 0 : rows.length;
      if (offset < added) visit((rows as BlockList).get(offset), true);
      else visit(this.#base(bucket), false);
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

  /**
   * Where `added` sorts among `rows`: the first index not before it. Records mostly arrive last or near
   * the end, so the search gallops back from the end: O(log d) for a place d from the end.
   */
  #placeOf(rows: BlockList, added: number): number {
    const order = this.#order;
    let high = rows.length;
    let step = 1;
    let low = high - step;
    while (low > 0 && order.compare(rows.get(low), added) >= 0) {
      high = low;
      step *= 2;
      low = high - step;
    }
    low = Math.max(low, 0);
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (order.compare(rows.get(mid), added) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
