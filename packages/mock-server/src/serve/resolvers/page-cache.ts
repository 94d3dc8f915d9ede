import type { CompanyRecords } from '../../data/store/company-records.js';
import type { Resolved } from '../http/types.js';
import { keepWireForm } from '../http/wire.js';

/**
 * How much one company's page cache may hold: the least recently used page goes first when either
 * limit is reached. A page larger than `bytes` is answered but never kept.
 */
export interface PageCacheLimits {
  /** Pages kept (0 turns the cache off). */
  readonly entries: number;
  /** Bytes kept, counting each page's text and its encoded bytes. */
  readonly bytes: number;
}

/**
 * The default limits, per company: a thousand pages, 16 MiB. Page 1 of the calls at the default size is
 * about 14 kB (28 kB counted: text and bytes), so the byte limit binds first, at about 580 such pages.
 */
export const DEFAULT_PAGE_CACHE_LIMITS: PageCacheLimits = Object.freeze({
  entries: 1_000,
  bytes: 16 * 2 ** 20,
});

let limits: PageCacheLimits = DEFAULT_PAGE_CACHE_LIMITS;

/**
 * Sets the limits of every page cache from now on (a cache over its new limits shrinks at its next
 * store). Tests use it to compare cached answers with uncached ones, and to see the bounds hold.
 *
 * @param next - the limits, or undefined for the defaults.
 */
export function setPageCacheLimits(next: PageCacheLimits | undefined): void {
  limits = next ?? DEFAULT_PAGE_CACHE_LIMITS;
}

interface Entry {
  readonly resolved: Resolved;
  readonly size: number;
  /** Read since it was stored or last passed over by eviction. */
  used: boolean;
}

/**
 * One company's serialised pages, evicted least recently used first (approximately: a read marks a page,
 * and eviction gives a marked page a second chance, so a hit costs one lookup and no reordering). A page's
 * bytes depend only on the records it shows, the operation, the path parameters and the normalised query,
 * which make the key together with the version of the list (or the revision of the record) it shows: a
 * record change moves only those, so the pages it touched are never found again and age out, while the
 * others stay. A reset, a fixture load or a reseed builds new companies, and with them new caches.
 */
export class PageCache {
  // A Map iterates in insertion order: its first key is the oldest stored (or given a second chance).
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  /** Pages held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes held, as counted against {@link PageCacheLimits.bytes}. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The page under `key`, marked as used, or undefined. */
  get(key: string): Resolved | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.resolved;
  }

  /** Keeps a page (unless it alone exceeds the byte limit), evicting over the limits. */
  set(key: string, resolved: Resolved): void {
    const { entries, bytes } = limits;
    // Text and encoded bytes: a one-byte string costs its length, its Buffer as much again.
    const size = 2 * Buffer.byteLength(resolved.response.body);
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= old.size;
    }
    if (entries > 0 && size <= bytes) {
      this.#entries.set(key, { resolved, size, used: false });
      this.#bytes += size;
      keepWireForm(resolved.response);
    }
    // Each turn evicts a page or clears a mark, so this ends within two passes.
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= entries && this.#bytes <= bytes) break;
      this.#entries.delete(oldest);
      if (entry.used && entry.resolved !== resolved) {
        entry.used = false;
        this.#entries.set(oldest, entry);
      } else this.#bytes -= entry.size;
    }
  }
}

const caches = new WeakMap<CompanyRecords, PageCache>();

/**
 * The page cache of a company, made on first use. Keyed weakly by the company object: when the store
 * is replaced, its companies and their pages go together.
 *
 * @param company - the company of the key that asks.
 */
export function pageCacheOf(company: CompanyRecords): PageCache {
  let cache = caches.get(company);
  if (cache === undefined) {
    cache = new PageCache();
    caches.set(company, cache);
  }
  return cache;
}
