import { idKey } from './id-key.js';

/**
 * Records found by their secret webhook token. Tokens are uuids, matched in any letter case: the rule
 * lives here, not in every caller.
 */
export class TokenIndex<Item extends { readonly token: string }> {
  readonly #byToken = new Map<string, Item>();

  /**
   * Adds a record.
   *
   * @throws Error when another record has the same token.
   */
  add(item: Item): void {
    const key = idKey(item.token);
    if (this.#byToken.has(key)) throw new Error('Another audience or lead source has this webhook token');
    this.#byToken.set(key, item);
  }

  /** Forgets every record (a restored state adds its own). */
  clear(): void {
    this.#byToken.clear();
  }

  /** The record with this token, in any letter case, or undefined. */
  get(token: string): Item | undefined {
    return this.#byToken.get(idKey(token));
  }

  /** Every record, in the order they were added. */
  values(): Item[] {
    return [...this.#byToken.values()];
  }
}
