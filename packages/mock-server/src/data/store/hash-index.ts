/** The share of the table in use above which it grows, by half. */
const MAX_LOAD = 0.75;

/**
 * Finds numbered entries by a 32-bit hash of their key, without a Map: an open-addressing table of entry
 * numbers (linear probing) in one typed array, about 5 to 8 bytes an entry. The owner keeps each entry's
 * hash (growing the table reads them, never a key) and confirms a candidate by its key, since two keys may
 * share a hash. Entries are never removed.
 */
export class HashIndex {
  readonly #hashOf: (entry: number) => number;
  /** Entry + 1 per slot; 0 for an empty slot. */
  #table = new Int32Array(1024);
  #count = 0;

  /** @param hashOf - the hash an entry was added with. */
  constructor(hashOf: (entry: number) => number) {
    this.#hashOf = hashOf;
  }

  /** Bytes the table takes. */
  get bytes(): number {
    return this.#table.byteLength;
  }

  /**
   * Adds an entry under its hash.
   *
   * @param entry - a whole number from 0 to 2^31 − 2.
   * @param hash - its key's hash (32 bits).
   */
  add(entry: number, hash: number): void {
    if (this.#count + 1 > this.#table.length * MAX_LOAD) this.#grow();
    this.#place(this.#table, entry, hash);
    this.#count++;
  }

  /**
   * The first entry with this hash that `matches` accepts, or undefined.
   *
   * @param hash - the key's hash.
   * @param matches - confirms an entry by its key.
   */
  find(hash: number, matches: (entry: number) => boolean): number | undefined {
    const table = this.#table;
    for (let slot = (hash >>> 0) % table.length; ; slot = slot + 1 === table.length ? 0 : slot + 1) {
      const stored = table[slot] as number;
      if (stored === 0) return undefined;
      const entry = stored - 1;
      if (this.#hashOf(entry) === hash >>> 0 && matches(entry)) return entry;
    }
  }

  #place(table: Int32Array, entry: number, hash: number): void {
    let slot = (hash >>> 0) % table.length;
    while (table[slot] !== 0) slot = slot + 1 === table.length ? 0 : slot + 1;
    table[slot] = entry + 1;
  }

  #grow(): void {
    const old = this.#table;
    const table = new Int32Array(Math.ceil(old.length * 1.5));
    for (const stored of old) if (stored !== 0) this.#place(table, stored - 1, this.#hashOf(stored - 1));
    this.#table = table;
  }
}
