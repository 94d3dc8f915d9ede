/**
 * A tiny, fast, seeded pseudo-random toolkit. Everything the generator derives (records, ids, keys,
 * tokens) comes from here, so the same seed always gives the same data.
 */

/** Scrambles a 32-bit integer (the murmur3 finaliser): a cheap, well-mixed hash step. */
export function mix32(value: number): number {
  let x = value | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hashes a list of integers into one 32-bit seed; order matters. */
export function hashInts(...values: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) h = mix32(h ^ mix32((value | 0) + Math.imul(h, 31)));
  return h;
}

/** Hashes a string into a 32-bit integer (FNV-1a, then mixed). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
}

const HEX = '0123456789abcdef';

/** Formats the low `digits` hex digits of a 32-bit integer. */
export function hex(value: number, digits: number): string {
  let out = '';
  for (let shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += HEX[(value >>> shift) & 15];
  return out;
}

/** What mulberry32 adds to its state at each draw. */
const STEP = 0x6d2b79f5;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The seeded generator (mulberry32) the mock draws all its data with: the same seed always gives the same
 * numbers, so a test (or a benchmark) that needs reproducible random inputs of its own can replay a failure
 * by its seed. Small state, good enough statistics for test data; not for secrets.
 *
 * @example
 * ```ts
 * const random = new Prng(42);
 * const again = new Prng(42);
 * expect([random.next(), random.int(6), random.pick(['a', 'b'])]).toEqual([again.next(), again.int(6), again.pick(['a', 'b'])]);
 * ```
 */
export class Prng {
  #state: number;

  /** @param seed - any number; its low 32 bits choose the sequence. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /**
   * The generator `new Prng(seed)` becomes after `draws` numbers, reached in one step: its state moves by
   * the same constant at each draw, so any place in a stream can be read again without replaying it.
   *
   * @param seed - the stream's seed.
   * @param draws - how many numbers were drawn before (a whole number below 2^53).
   * @example
   * ```ts
   * const stream = new Prng(7);
   * stream.next();
   * expect(Prng.after(7, 1).next()).toBe(stream.next());
   * ```
   */
  static after(seed: number, draws: number): Prng {
    // ToInt32 keeps the low 32 bits of a whole number exactly, and Math.imul multiplies modulo 2^32.
    return new Prng((seed >>> 0) + Math.imul(draws | 0, STEP));
  }

  /**
   * The generator's whole state, a 32-bit number: `new Prng(random.state)` draws what `random` draws next
   * (what a mock's saved state keeps of its run-time stream).
   *
   * @example
   * ```ts
   * const random = new Prng(7);
   * random.next();
   * expect(new Prng(random.state).next()).toBe(random.next());
   * ```
   */
  get state(): number {
    return this.#state;
  }

  /** The next unsigned 32-bit integer. */
  nextUint32(): number {
    this.#state = (this.#state + STEP) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, bound). */
  int(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** A version-4-shaped uuid made of this generator's bits. */
  uuid(): string {
    const a = this.nextUint32();
    const b = this.nextUint32();
    const c = this.nextUint32();
    const d = this.nextUint32();
    return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b, 3)}-${hex(8 | (c >>> 30), 1)}${hex(c, 3)}-${hex(c >>> 12, 4)}${hex(d, 8)}`;
  }

  /** A string of `length` characters from [0-9A-Za-z]. */
  base62(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += BASE62[this.int(62)];
    return out;
  }
}
