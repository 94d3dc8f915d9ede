/** Collects body chunks up to a limit; beyond it, remembers only that the body was too large. */
export class BodyCollector {
  readonly #limit: number;
  readonly #chunks: Uint8Array[] = [];
  #size = 0;
  #tooLarge = false;

  /** @param limit - the most bytes kept. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether the limit was exceeded. */
  get tooLarge(): boolean {
    return this.#tooLarge;
  }

  /**
   * Adds a chunk.
   *
   * @returns false once the body is too large (the caller may stop reading).
   */
  push(chunk: Uint8Array | string): boolean {
    if (this.#tooLarge) return false;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.#size += bytes.byteLength;
    if (this.#size > this.#limit) {
      this.#tooLarge = true;
      this.#chunks.length = 0;
      return false;
    }
    this.#chunks.push(bytes);
    return true;
  }

  /** The body read, or undefined when it was empty or too large. */
  body(): Uint8Array | undefined {
    if (this.#tooLarge || this.#size === 0) return undefined;
    return this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks);
  }
}
