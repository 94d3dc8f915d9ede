/** Ids remembered for items whose `created_at` cannot be read (only possible with `validate: false`). */
const RECENT_IDS = 200;
/** Ids remembered at the current `created_at` boundary (items created in the very same millisecond). */
const BOUNDARY_IDS = 1_000;

interface Identified {
  id?: unknown;
  created_at?: unknown;
}

/**
 * Drops items an offset-paginated iteration has already passed. Lists are ordered by `created_at`; when
 * records are created at the head of a descending list between two page requests, every later page
 * shifts and repeats the tail of the page before. Rather than remembering every id (unbounded), it keeps
 * a cursor: the `created_at` of the last item yielded and the ids yielded at exactly that instant. An
 * item that sorts before the cursor was either yielded already or created after the iteration began,
 * so it is skipped; memory stays bounded however long the iteration runs.
 */
export class PageBoundaryDeduper {
  readonly #direction: 1 | -1;
  #boundary = Number.NaN;
  readonly #boundaryIds = new Set<unknown>();
  readonly #recentIds = new Set<unknown>();
  /** How many items were dropped so far. */
  skipped = 0;

  /** @param ordering - the list's ordering; `-created_at` (the API's default) is descending. */
  constructor(ordering: string) {
    this.#direction = ordering.startsWith('-') ? -1 : 1;
  }

  /** Whether to yield `item`; remembers it when so. */
  accept(item: unknown): boolean {
    const { id, created_at } = (typeof item === 'object' && item !== null ? item : {}) as Identified;
    const time = typeof created_at === 'string' ? Date.parse(created_at) : Number.NaN;
    if (Number.isNaN(time)) return this.#acceptById(id);
    if (!Number.isNaN(this.#boundary)) {
      const position = (time - this.#boundary) * this.#direction;
      if (position < 0 || (position === 0 && this.#boundaryIds.has(id))) return this.#skip();
    }
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

function remember(ids: Set<unknown>, id: unknown, limit: number): void {
  if (id === undefined) return;
  ids.add(id);
  if (ids.size > limit) ids.delete(ids.values().next().value);
}
