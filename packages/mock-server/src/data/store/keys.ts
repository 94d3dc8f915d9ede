import { createHash } from 'node:crypto';
import type { DataResource } from '@company-data/contract';
import type { Quota } from './quota.js';

/** An API key as the store keeps it: never the value, only its SHA-256. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  /** Hex SHA-256 of the value. */
  readonly hash: string;
  /** First characters of the value, for display. */
  readonly prefix: string;
  /** Creation time, epoch ms. */
  readonly createdAt: number;
  /** Expiry, epoch ms, or null for a key that never expires. */
  expiresAt: number | null;
  /** Whether the key was revoked. */
  revoked: boolean;
  /** The data resources the key may read. */
  readonly permissions: ReadonlySet<DataResource>;
  /** The key's own quota (false: never throttled); undefined: the server's default quota. */
  quota: Quota | false | undefined;
}

/** Why a presented key was refused. */
export type KeyRefusal = 'invalid' | 'expired';

/**
 * Hashes an API key value.
 *
 * @param value - the key as presented.
 * @returns hex SHA-256.
 */
export function hashKey(value: string): string {
  // Every request presents a key, and a test run presents few: hashing each anew cost more than the lookup.
  let hash = recentHashes.get(value);
  if (hash === undefined) {
    hash = createHash('sha256').update(value).digest('hex');
    if (recentHashes.size >= RECENT_HASHES) recentHashes.clear();
    recentHashes.set(value, hash);
  }
  return hash;
}

/**
 * The first characters of a key's value, which the store keeps beside its hash for display.
 *
 * @param value - the key's value.
 */
export function keyPrefix(value: string): string {
  return value.slice(0, 12);
}

/** How many presented values keep their hash (all are forgotten at once when full). */
const RECENT_HASHES = 256;
const recentHashes = new Map<string, string>();

/** The API keys of every company, found by the hash of their value. */
export class KeyRing {
  readonly #byHash = new Map<string, ApiKeyRecord>();

  /** Every key, in creation order. */
  all(): readonly ApiKeyRecord[] {
    return [...this.#byHash.values()];
  }

  /**
   * Stores a key under the hash of its value.
   *
   * @throws Error when a key with the same value exists.
   */
  add(value: string, key: Omit<ApiKeyRecord, 'hash' | 'prefix'>): ApiKeyRecord {
    const hash = hashKey(value);
    if (this.#byHash.has(hash)) throw new Error('An API key with this value already exists');
    const record: ApiKeyRecord = { ...key, hash, prefix: keyPrefix(value) };
    this.#byHash.set(hash, record);
    return record;
  }

  /** Whether a key has this hash (of {@link hashKey}): which session a presented key belongs to. */
  hasHash(hash: string): boolean {
    return this.#byHash.has(hash);
  }

  /**
   * Replaces every key with these, found by the hashes they hold (a saved state's keys: their values are
   * never known, and the same values keep working).
   *
   * @throws Error when two keys have the same hash (nothing is replaced then).
   */
  replaceAll(keys: readonly ApiKeyRecord[]): void {
    const byHash = new Map<string, ApiKeyRecord>();
    for (const key of keys) {
      if (byHash.has(key.hash)) throw new Error('Two API keys have the same hash');
      byHash.set(key.hash, key);
    }
    this.#byHash.clear();
    for (const [hash, key] of byHash) this.#byHash.set(hash, key);
  }

  /** The key with this value, or undefined. */
  find(value: string): ApiKeyRecord | undefined {
    return this.#byHash.get(hashKey(value));
  }

  /**
   * The key with this value, or why it is refused at `nowMs`.
   *
   * @param value - the presented key.
   * @param nowMs - the mock time.
   */
  authenticate(value: string, nowMs: number): ApiKeyRecord | KeyRefusal {
    const key = this.#byHash.get(hashKey(value));
    if (!key || key.revoked) return 'invalid';
    if (key.expiresAt !== null && key.expiresAt <= nowMs) return 'expired';
    return key;
  }

  /**
   * The key with this value.
   *
   * @throws Error when no key has this value.
   */
  require(value: string): ApiKeyRecord {
    const key = this.find(value);
    if (!key) throw new Error('Unknown API key');
    return key;
  }
}
