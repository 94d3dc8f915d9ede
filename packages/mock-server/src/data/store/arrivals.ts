import { Chunked } from './chunked.js';
import { HashIndex } from './hash-index.js';
import type { StoredRecord } from './table.js';

/**
 * Records that arrive as time passes, each a function of its place `n` in a schedule, of when it arrived
 * and of a number chosen when it arrived (`detail`, e.g. which user it names): a table keeps only these and
 * generates the record again when a page or a detail needs it, as a generated table derives a record from
 * its position. An arrival's `created_at` is its time to the second, rounded down.
 */
export interface ArrivalSource<Item, Companion> {
  /**
   * The id of arrival `n`, a lower-case uuid (cheaper than the record; the table indexes and orders
   * arrivals by its first eight hex digits).
   *
   * @param n - its place in the schedule.
   */
  id(n: number): string;
  /**
   * Arrival `n` as it arrived, or with the change its schedule brings later (`later`: a call's excusal).
   *
   * @param n - its place in the schedule.
   * @param atMs - when it arrived, epoch ms.
   * @param detail - the number chosen when it arrived.
   * @param later - with its scheduled later change.
   */
  record(n: number, atMs: number, detail: number, later: boolean): Item;
  /**
   * What the record brings with it (a call's or recording's transcript).
   *
   * @param n - its place in the schedule.
   * @param atMs - when it arrived.
   * @param detail - the number chosen when it arrived.
   */
  companion(n: number, atMs: number, detail: number): Companion;
}

/**
 * One arrival as a table keeps it: its source's record `n`, arrived at `atMs` with `detail`, with its
 * scheduled later change (`later`) or the fields a control changed since it arrived.
 */
export interface ArrivalEntry<Item, Companion> {
  readonly source: ArrivalSource<Item, Companion>;
  readonly n: number;
  /** When it arrived, epoch ms (to the millisecond). */
  readonly atMs: number;
  readonly detail: number;
  /** Whether its scheduled later change (a call's excusal) was applied. */
  readonly later: boolean;
  /** The fields a control changed, relative to the record as it arrived (then `later` is false). */
  readonly fields: Readonly<Record<string, unknown>> | undefined;
}

/** A run of arrivals from one source, numbered from `firstN` on, their times counted from `baseMs`. */
interface Segment<Item, Companion> {
  readonly source: ArrivalSource<Item, Companion>;
  readonly firstSlot: number;
  readonly firstN: number;
  readonly baseMs: number;
}

/** The longest time a segment counts in its 32 bits of milliseconds: about 49 days. */
const MAX_OFFSET_MS = 0xffff_ffff;

/** Fields a control changed on an arrival, and the change's stamp. */
interface Changed {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly stamp: number;
}

const DELETED = 1;
/** Its scheduled later change was applied. */
const LATER = 2;

/**
 * The records a table's activity brought, each kept as what makes it differ from its source's function:
 * when it arrived, the number chosen then, whether it was deleted or changed as scheduled, and the fields a
 * control changed (the only part kept as an object, and only for such records). About 20 bytes an arrival,
 * outside the JavaScript heap (its time 4, detail 4, flags 1, the head of its id 4, and about 7 for its place
 * in the id index), whatever its transcript. A slot numbers
 * an arrival, from 0, in the order they came.
 */
export class Arrivals<Item extends StoredRecord, Companion> {
  readonly #segments: Segment<Item, Companion>[] = [];
  /** When each arrived, in ms after its segment's `baseMs` (whole milliseconds, as the schedule's are). */
  readonly #offsetMs = new Chunked((length) => new Uint32Array(length));
  readonly #detail = new Chunked((length) => new Uint32Array(length));
  readonly #flags = new Chunked((length) => new Uint8Array(length));
  /** The first eight hex digits of each id, as a number: the id index's hash, and the order's first look. */
  readonly #head = new Chunked((length) => new Uint32Array(length));
  readonly #index = new HashIndex((slot) => this.#head.get(slot));
  readonly #changed = new Map<number, Changed>();
  #live = 0;

  /** Arrivals not deleted. */
  get live(): number {
    return this.#live;
  }

  /** Arrivals ever added (slots used). */
  get slots(): number {
    return this.#offsetMs.length;
  }

  /** Bytes held for the arrivals (their changed fields not counted). */
  get bytes(): number {
    return (
      this.#offsetMs.bytes + this.#detail.bytes + this.#flags.bytes + this.#head.bytes + this.#index.bytes
    );
  }

  /**
   * Adds arrival `n` of a source.
   *
   * @param id - its id (the source's `id(n)`, in lower case).
   * @returns its slot.
   */
  add(source: ArrivalSource<Item, Companion>, n: number, atMs: number, detail: number, id: string): number {
    const slot = this.#offsetMs.length;
    let last = this.#segments[this.#segments.length - 1];
    if (
      last === undefined ||
      last.source !== source ||
      last.firstN + (slot - last.firstSlot) !== n ||
      atMs < last.baseMs ||
      atMs - last.baseMs > MAX_OFFSET_MS
    ) {
      last = { source, firstSlot: slot, firstN: n, baseMs: atMs };
      this.#segments.push(last);
    }
    this.#offsetMs.push(atMs - last.baseMs);
    this.#detail.push(detail);
    this.#flags.push(0);
    const head = headOf(id);
    this.#head.push(head);
    this.#index.add(slot, head);
    this.#live++;
    return slot;
  }

  /**
   * The slot of the arrival with this id, unless it was deleted.
   *
   * @param key - a lower-case id.
   */
  find(key: string): number | undefined {
    const head = headOf(key);
    if (Number.isNaN(head)) return undefined;
    const slot = this.#index.find(head, (candidate) => this.id(candidate) === key);
    return slot === undefined || this.deleted(slot) ? undefined : slot;
  }

  /** Whether the arrival was deleted. */
  deleted(slot: number): boolean {
    return (this.#flags.get(slot) & DELETED) !== 0;
  }

  /** Its id. */
  id(slot: number): string {
    const { source, n } = this.#place(slot);
    return source.id(n);
  }

  /**
   * The first eight hex digits of its id as a number: two arrivals whose heads differ order by them as
   * their ids do (both lower case), without generating the ids.
   */
  head(slot: number): number {
    return this.#head.get(slot);
  }

  /** Its `created_at` in epoch ms (whole seconds), what lists order it by. */
  time(slot: number): number {
    return Math.floor(this.#atMs(slot, this.#segmentOf(slot)) / 1000) * 1000;
  }

  /** The record as it stands: its source's, with its scheduled change if applied and a control's fields. */
  record(slot: number): Item {
    const { source, n, atMs } = this.#place(slot);
    const generated = source.record(n, atMs, this.#detail.get(slot), (this.#flags.get(slot) & LATER) !== 0);
    const changed = this.#changed.get(slot);
    return changed === undefined ? generated : { ...generated, ...changed.fields };
  }

  /** What the record brings with it (its transcript). */
  companion(slot: number): Companion {
    const { source, n, atMs } = this.#place(slot);
    return source.companion(n, atMs, this.#detail.get(slot));
  }

  /**
   * A number that changes whenever the arrival changes: negative, so it never meets a stamp of a stored
   * record; a control's change gives its own stamp.
   */
  revision(slot: number): number {
    const changed = this.#changed.get(slot);
    if (changed !== undefined) return changed.stamp;
    return -(slot * 2 + ((this.#flags.get(slot) & LATER) === 0 ? 1 : 2));
  }

  /**
   * Records the arrival's new state: its scheduled change when `item` is that, otherwise the fields that
   * make it differ from the record as it arrived.
   *
   * @param stamp - the change's number (positive), its revision from now on when fields are kept.
   */
  update(slot: number, item: Item, stamp: number): void {
    const { source, n, atMs } = this.#place(slot);
    const detail = this.#detail.get(slot);
    const flags = this.#flags.get(slot) & ~LATER;
    const text = JSON.stringify(item);
    const arrived = source.record(n, atMs, detail, false);
    this.#changed.delete(slot);
    if (text === JSON.stringify(arrived)) this.#flags.set(slot, flags);
    else if (text === JSON.stringify(source.record(n, atMs, detail, true)))
      this.#flags.set(slot, flags | LATER);
    else {
      this.#flags.set(slot, flags);
      this.#changed.set(slot, { fields: changedFields(arrived, item), stamp });
    }
  }

  /** Marks the arrival deleted (its changed fields go). */
  remove(slot: number): void {
    if (this.deleted(slot)) return;
    this.#flags.set(slot, this.#flags.get(slot) | DELETED);
    this.#changed.delete(slot);
    this.#live--;
  }

  /** What makes each live arrival differ from its source's function (what a saved state keeps), oldest first. */
  *entries(): Generator<ArrivalEntry<Item, Companion>> {
    for (const slot of this.liveSlots()) {
      const { source, n, atMs } = this.#place(slot);
      yield {
        source,
        n,
        atMs,
        detail: this.#detail.get(slot),
        later: (this.#flags.get(slot) & LATER) !== 0,
        fields: this.#changed.get(slot)?.fields,
      };
    }
  }

  /** The live slots, oldest first. */
  *liveSlots(): Generator<number> {
    for (let slot = 0; slot < this.slots; slot++) if (!this.deleted(slot)) yield slot;
  }

  /** The arrival's source, place in it and time. */
  #place(slot: number): { source: ArrivalSource<Item, Companion>; n: number; atMs: number } {
    const segment = this.#segmentOf(slot);
    return {
      source: segment.source,
      n: segment.firstN + (slot - segment.firstSlot),
      atMs: this.#atMs(slot, segment),
    };
  }

  #atMs(slot: number, segment: Segment<Item, Companion>): number {
    return segment.baseMs + this.#offsetMs.get(slot);
  }

  /** The segment of a slot: the last whose first slot is at most it (most arrivals are in the last one). */
  #segmentOf(slot: number): Segment<Item, Companion> {
    const segments = this.#segments;
    let low = 0;
    let high = segments.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((segments[mid] as Segment<Item, Companion>).firstSlot <= slot) low = mid;
      else high = mid - 1;
    }
    return segments[low] as Segment<Item, Companion>;
  }
}

/** The first eight hex digits of a uuid as a number (NaN when they are not hex digits). */
function headOf(id: string): number {
  const head = id.slice(0, 8);
  return /^[0-9a-f]{8}$/.test(head) ? Number.parseInt(head, 16) : Number.NaN;
}

/**
 * The fields of `after` whose JSON differs from `before`'s: what a record keeps of a change, so that
 * `{ ...before, ...fields }` is `after` again, key order included.
 *
 * @param before - the record as generated.
 * @param after - the record as it is now (the same keys).
 */
export function changedFields(before: object, after: object): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const old = before as Record<string, unknown>;
  for (const [name, value] of Object.entries(after))
    if (JSON.stringify(value) !== JSON.stringify(old[name])) fields[name] = value;
  return fields;
}
