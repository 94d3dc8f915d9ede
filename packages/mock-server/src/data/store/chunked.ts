/** A typed array kind a {@link Chunked} list holds. */
type TypedArray = Float64Array | Uint32Array | Uint8Array;

/** Entries per chunk: 65,536. */
const CHUNK_BITS = 16;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;

/**
 * A list of numbers that only grows, in fixed-size typed chunks: appending never copies what is there, so a
 * list of millions costs its entries and at most one chunk more, without the spike of a doubled array.
 */
export class Chunked {
  readonly #make: (length: number) => TypedArray;
  readonly #chunks: TypedArray[] = [];
  #length = 0;

  /** @param make - makes one chunk, e.g. `(length) => new Float64Array(length)`. */
  constructor(make: (length: number) => TypedArray) {
    this.#make = make;
  }

  /** Entries held. */
  get length(): number {
    return this.#length;
  }

  /** Bytes the chunks take. */
  get bytes(): number {
    return this.#chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  }

  /** The entry at `index` (0 to length − 1). */
  get(index: number): number {
    return (this.#chunks[index >>> CHUNK_BITS] as TypedArray)[index & CHUNK_MASK] as number;
  }

  /** Replaces the entry at `index`. */
  set(index: number, value: number): void {
    (this.#chunks[index >>> CHUNK_BITS] as TypedArray)[index & CHUNK_MASK] = value;
  }

  /** Replaces the entry at `index`, or appends it when `index` is the length. */
  put(index: number, value: number): void {
    if (index === this.#length) this.push(value);
    else this.set(index, value);
  }

  /** Appends an entry; returns its index. */
  push(value: number): number {
    const index = this.#length++;
    if ((index & CHUNK_MASK) === 0) this.#chunks.push(this.#make(CHUNK_SIZE));
    this.set(index, value);
    return index;
  }
}
