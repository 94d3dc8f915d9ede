import { Fenwick } from './fenwick.js';

/** Numbers per block at most: 4,096 (16 KB). A block starts small and doubles up to it. */
const BLOCK = 4096;
const FIRST = 8;

/**
 * A list of whole numbers (32-bit) kept in typed blocks of up to 4,096, found through a Fenwick tree of
 * their lengths: reading, inserting or removing at any place costs O(log n) plus a shift within one block,
 * and the list grows a block at a time, outside the JavaScript heap (a short list takes a few bytes). Made
 * for the records a busy activity adds to the end of a list, and deletes anywhere in it.
 */
export class BlockList {
  #blocks: Int32Array[] = [];
  #lengths: number[] = [];
  #tree = new Fenwick([]);
  #length = 0;
  /** The block last read and where it starts: a walk reads on within it without searching the tree. */
  #cursor = { bucket: -1, start: 0 };

  /** Numbers held. */
  get length(): number {
    return this.#length;
  }

  /** The number at `at` (0 to length − 1). */
  get(at: number): number {
    const cursor = this.#cursor;
    const offset = at - cursor.start;
    if (cursor.bucket >= 0 && offset >= 0 && offset < (this.#lengths[cursor.bucket] as number))
      return (this.#blocks[cursor.bucket] as Int32Array)[offset] as number;
    const found = this.#tree.find(at);
    cursor.bucket = found.bucket;
    cursor.start = at - found.offset;
    return (this.#blocks[found.bucket] as Int32Array)[found.offset] as number;
  }

  /** Inserts `value` so that it is at `at` (0 to length). */
  insert(at: number, value: number): void {
    this.#cursor.bucket = -1;
    const last = this.#blocks.length - 1;
    if (at === this.#length) {
      // Appending: into the last block while it has room, else into a new one (blocks stay full).
      if (last < 0 || this.#lengths[last] === BLOCK) this.#addBlock(last + 1, value);
      else this.#insertInto(last, this.#lengths[last] as number, value);
      return;
    }
    const { bucket, offset } = this.#tree.find(at);
    const length = this.#lengths[bucket] as number;
    if (length < BLOCK) {
      this.#insertInto(bucket, offset, value);
      return;
    }
    // A full block splits where the number goes: its tail moves to a new block, the number ends it.
    const block = this.#blocks[bucket] as Int32Array;
    const tail = new Int32Array(Math.max(FIRST, length - offset));
    tail.set(block.subarray(offset, length));
    block[offset] = value;
    this.#lengths[bucket] = offset + 1;
    this.#blocks.splice(bucket + 1, 0, tail);
    this.#lengths.splice(bucket + 1, 0, length - offset);
    this.#length++;
    this.#rebuild();
  }

  /** Removes the number at `at`. */
  removeAt(at: number): void {
    this.#cursor.bucket = -1;
    const { bucket, offset } = this.#tree.find(at);
    const block = this.#blocks[bucket] as Int32Array;
    const length = this.#lengths[bucket] as number;
    block.copyWithin(offset, offset + 1, length);
    this.#length--;
    if (length === 1) {
      this.#blocks.splice(bucket, 1);
      this.#lengths.splice(bucket, 1);
      this.#rebuild();
    } else {
      this.#lengths[bucket] = length - 1;
      this.#tree.add(bucket, -1);
    }
  }

  #insertInto(bucket: number, offset: number, value: number): void {
    let block = this.#blocks[bucket] as Int32Array;
    const length = this.#lengths[bucket] as number;
    if (length === block.length) {
      const grown = new Int32Array(Math.min(BLOCK, length * 2));
      grown.set(block);
      block = grown;
      this.#blocks[bucket] = block;
    }
    if (offset < length) block.copyWithin(offset + 1, offset, length);
    block[offset] = value;
    this.#lengths[bucket] = length + 1;
    this.#length++;
    this.#tree.add(bucket, 1);
  }

  #addBlock(bucket: number, value: number): void {
    const block = new Int32Array(FIRST);
    block[0] = value;
    this.#blocks.splice(bucket, 0, block);
    this.#lengths.splice(bucket, 0, 1);
    this.#length++;
    this.#rebuild();
  }

  #rebuild(): void {
    this.#tree = new Fenwick(this.#lengths);
  }
}
