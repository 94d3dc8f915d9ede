/** Ids remembered for items whose `created_at` cannot be read (only possible with `validate: false`). */
const RECENT_IDS = 200;
/** Ids remembered at the current `created_at` boundary (items created in the very same millisecond). */
const BOUNDARY_IDS = 1_000;

interface Identified {
  id?: unknown;
  created_at?: unknown;
}

/** Where an ordered iteration stands: the `created_at` of its last item (epoch ms) and the ids at it. */
export interface DedupeCursor {
  readonly at: number;
  readonly ids: readonly unknown[];
}

/** Drops the items of a page that an iteration has already yielded on another page. */
export interface PageDeduper {
  /**
   * The items of page `page` not yielded before, remembered as yielded.
   *
   * @param page - the page's number.
   * @param items - its items.
   */
  keep<Item>(page: number, items: Item[]): Item[];
}

/**
 * Drops items an offset-paginated iteration has already passed. Lists are ordered by `created_at`; when
 * records are created at the head of a descending list between two page requests, every later page
 * shifts and repeats the tail of the page before. Rather than remembering every id (unbounded), it keeps
 * a cursor: the `created_at` of the last item yielded and the ids yielded at exactly that instant. An
 * item that sorts before the cursor was either yielded already or created after the iteration began,
 * so it is skipped; memory stays bounded however long the iteration runs.
 */
export class PageBoundaryDeduper implements PageDeduper {
  readonly #direction: 1 | -1;
  #boundary = Number.NaN;
  readonly #boundaryIds = new Set<unknown>();
  readonly #recentIds = new Set<unknown>();
  /** How many items were dropped so far. */
  skipped = 0;

  /**
   * @param ordering - the list's ordering; `-created_at` (the API's default) is descending.
   * @param cursor - where an earlier iteration stopped (a sync resumed from its checkpoint).
   */
  constructor(ordering: string, cursor?: DedupeCursor) {
    this.#direction = ordering.startsWith('-') ? -1 : 1;
    if (cursor !== undefined) {
      this.#boundary = cursor.at;
      for (const id of cursor.ids) remember(this.#boundaryIds, id, BOUNDARY_IDS);
    }
  }

  /** The cursor: the `created_at` of the last item accepted (epoch ms) and the ids accepted at it. */
  get cursor(): DedupeCursor | undefined {
    return Number.isNaN(this.#boundary) ? undefined : { at: this.#boundary, ids: [...this.#boundaryIds] };
  }

  keep<Item>(_page: number, items: Item[]): Item[] {
    return items.filter((item) => this.accept(item));
  }

  /**
   * Whether `item` sorts at or before the cursor (accepted already, or created after the iteration
   * began), without remembering anything; `false` while no item was accepted, and for an item at the
   * cursor's instant not accepted yet (it may sort on either side of those that were).
   */
  passed(item: unknown): boolean {
    const { id, created_at } = (typeof item === 'object' && item !== null ? item : {}) as Identified;
    const time = typeof created_at === 'string' ? Date.parse(created_at) : Number.NaN;
    if (Number.isNaN(time)) return id !== undefined && this.#recentIds.has(id);
    if (Number.isNaN(this.#boundary)) return false;
    const position = (time - this.#boundary) * this.#direction;
    return position < 0 || (position === 0 && this.#boundaryIds.has(id));
  }

  /** Whether to yield `item`; remembers it when so. */
  accept(item: unknown): boolean {
    const { id, created_at } = (typeof item === 'object' && item !== null ? item : {}) as Identified;
    const time = typeof created_at === 'string' ? Date.parse(created_at) : Number.NaN;
    if (Number.isNaN(time)) return this.#acceptById(id);
    if (this.passed(item)) return this.#skip();
    if (time !== this.#boundary) {
      this.#boundary = time;
      this.#boundaryIds.clear();
    }
    remember(this.#boundaryIds, id, BOUNDARY_IDS);
    remember(this.#recentIds, id, RECENT_IDS);
    return true;
  }

  #acceptById(id: unknown): boolean {
    if (id !== undefined && this.#recentIds.has(id)) return this.#skip();
    remember(this.#recentIds, id, RECENT_IDS);
    return true;
  }

  #skip(): false {
    this.skipped++;
    return false;
  }
}

/**
 * For pages taken as they arrive, in any order: when records are created mid-iteration, a page fetched later
 * repeats the edge of its neighbour, so each page's ids are kept until both its neighbours were taken,
 * and an item already yielded on a neighbouring page is dropped. Memory holds the ids of the pages
 * taken whose neighbours are not yet (a few pages when pages arrive roughly in order), plus one number a
 * page. A shift by more than a whole page between two fetches can still repeat items, as can deletions
 * miss them; `onCountChange` reports both.
 */
export class NeighbourPageDeduper implements PageDeduper {
  readonly #ids = new Map<number, Set<unknown>>();
  readonly #taken = new Set<number>();
  #lowest = Number.POSITIVE_INFINITY;

  keep<Item>(page: number, items: Item[]): Item[] {
    const before = this.#ids.get(page - 1);
    const after = this.#ids.get(page + 1);
    const kept =
      before === undefined && after === undefined
        ? items
        : items.filter((item) => {
            const id = idOf(item);
            return id === undefined || !(before?.has(id) || after?.has(id));
          });
    this.#taken.add(page);
    this.#lowest = Math.min(this.#lowest, page);
    this.#ids.set(page, new Set(kept.map(idOf).filter((id) => id !== undefined)));
    for (const neighbour of [page - 1, page, page + 1]) this.#forgetIfSurrounded(neighbour);
    return kept;
  }

  #forgetIfSurrounded(page: number): void {
    const previousTaken = page - 1 < this.#lowest || this.#taken.has(page - 1);
    if (previousTaken && this.#taken.has(page + 1)) this.#ids.delete(page);
  }
}

function idOf(item: unknown): unknown {
  return typeof item === 'object' && item !== null ? (item as Identified).id : undefined;
}

function remember(ids: Set<unknown>, id: unknown, limit: number): void {
  if (id === undefined) return;
  ids.add(id);
  if (ids.size > limit) ids.delete(ids.values().next().value);
}
