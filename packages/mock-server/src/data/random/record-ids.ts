import { hex, mix32 } from './prng.js';

/**
 * Reversible record ids. A generated record's uuid encrypts its (kind, company, index) with a
 * keyed 64-bit Feistel network, so looking a record up by id needs no map: decrypt, check, derive.
 * This is what lets a company hold 1,000,000 calls without a million-entry id index.
 */
export class RecordIdCodec {
  readonly #keys: readonly [number, number, number, number];
  readonly #tag: number;
  readonly #checkKey: number;

  /**
   * @param secret - per-company secret (from the seed); another company's ids never decode here.
   * @param kind - a small number naming the record kind (user, team, ...), 0–15.
   */
  constructor(secret: number, kind: number) {
    this.#keys = [
      mix32(secret ^ 0x1234567),
      mix32(secret ^ 0x2345678),
      mix32(secret ^ 0x3456789),
      mix32(secret ^ 0x456789a),
    ];
    this.#tag = ((kind & 15) << 12) | (mix32(secret ^ kind) & 0xfff);
    this.#checkKey = mix32(secret ^ 0x5a5a5a5a ^ kind);
  }

  /** The uuid of the record at `index` (0 ≤ index < 2^32). */
  encode(index: number): string {
    let left = index >>> 0;
    let right = ((this.#tag << 16) | (mix32(left ^ this.#checkKey) & 0xffff)) >>> 0;
    for (const key of this.#keys) {
      const next = (left ^ mix32(right ^ key)) >>> 0;
      left = right;
      right = next;
    }
    return format(left, right);
  }

  /**
   * The index a uuid stands for, or `undefined` when it is not one of this codec's ids.
   *
   * @param id - a lower-case uuid.
   */
  decode(id: string): number | undefined {
    if (id.length !== 36) return undefined;
    const left0 = Number.parseInt(id.slice(0, 8), 16);
    const right0 = Number.parseInt(id.slice(9, 13) + id.slice(24, 28), 16);
    if (!Number.isFinite(left0) || !Number.isFinite(right0)) return undefined;
    let left = left0 >>> 0;
    let right = right0 >>> 0;
    for (let round = this.#keys.length - 1; round >= 0; round--) {
      const previous = (right ^ mix32(left ^ (this.#keys[round] as number))) >>> 0;
      right = left;
      left = previous;
    }
    if (right >>> 16 !== this.#tag) return undefined;
    if ((right & 0xffff) !== (mix32(left ^ this.#checkKey) & 0xffff)) return undefined;
    // The remaining digits are derived from the encrypted block: compare the whole string.
    return format(left0, right0) === id ? left : undefined;
  }
}

function format(left: number, right: number): string {
  const f1 = mix32(left ^ 0x68e31da4);
  const f2 = mix32(right ^ 0xb5297a4d);
  const f3 = mix32(left ^ right ^ 0x1b56c4e9);
  return `${hex(left, 8)}-${hex(right >>> 16, 4)}-4${hex(f1, 3)}-${hex(8 | (f2 >>> 30), 1)}${hex(f2, 3)}-${hex(right, 4)}${hex(f3, 8)}`;
}
