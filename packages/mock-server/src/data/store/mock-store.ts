import { API_KEY_PREFIX, DATA_RESOURCES, type DataResource } from '@company-data/contract';
import { toEpochMs } from '../clock.js';
import { warnDeprecated } from '../deprecation.js';
import { Prng } from '../random/prng.js';
import { type SecretDraws, secretDraws } from '../random/secret-draws.js';
import type { Audience } from './audiences.js';
import type { CompanyRecords } from './company-records.js';
import { type ApiKeyRecord, hashKey, KeyRing } from './keys.js';
import { LeadBook, type LeadSource } from './leads.js';
import { checkQuota, type QuotaInput } from './quota.js';
import { TokenIndex } from './token-index.js';

/**
 * Prefix of every generated API key value: a second name for the contract's `API_KEY_PREFIX`, kept until
 * the next minor release.
 *
 * @deprecated Use `API_KEY_PREFIX` from `@company-data/contract` (the same value, `svc_live_`).
 *
 * @example
 * ```ts
 * server.createKey().startsWith(LIVE_KEY_PREFIX); // true, as with API_KEY_PREFIX
 * ```
 */
export const LIVE_KEY_PREFIX = API_KEY_PREFIX;

/**
 * Options of a new API key.
 *
 * @example
 * ```ts
 * const key = server.createKey({ name: 'CI', permissions: ['users'], expiresAt: '2026-07-01T00:00:00Z' });
 * const slow = server.createKey({ name: 'Throttled CI', quota: { requests: 2, perSeconds: 10 } });
 * ```
 */
export interface KeyOptions {
  /** Company id or name (default: the primary company). */
  company?: string;
  /** Descriptive name. */
  name?: string;
  /** Explicit value (default: a generated `svc_live_…` value). */
  value?: string;
  /** Expiry; null or absent for a key that never expires. */
  expiresAt?: Date | string | number | null;
  /** Readable resources (default: all). */
  permissions?: readonly DataResource[];
  /** The key's own quota, or false to never throttle it (default: the server's `quota`). */
  quota?: QuotaInput | false;
  /**
   * The old name of `quota`, accepted with a deprecation warning until the next minor release.
   *
   * @deprecated Use `quota`.
   */
  throttle?: QuotaInput | false;
}

/** What a fixture may fix beyond {@link KeyOptions}: the key's id and creation time. */
export interface StoredKeyOptions extends KeyOptions {
  /** Key id (default: a seeded uuid). */
  id?: string | undefined;
  /** Creation time in epoch ms (default: now). */
  createdAt?: number | undefined;
}

/**
 * Everything a mock server holds: companies and their records, API keys, audiences, lead sources,
 * leads and conversations. Records change through the record controls (`record-controls/editor.ts`); webhooks and
 * controls mutate the rest.
 */
export class MockStore {
  /** Companies, the primary one first. */
  readonly companies: readonly CompanyRecords[];
  readonly keys = new KeyRing();
  /** Audiences, found by webhook token. */
  readonly audiences = new TokenIndex<Audience>();
  /** Lead sources, found by webhook token. */
  readonly leadSources = new TokenIndex<LeadSource>();
  readonly leads = new LeadBook();
  /** Source of ids and key values created at run time; seeded, so runs repeat (a restored state sets its place). */
  random: Prng;
  /** Where the key values created at run time are drawn (a session's own: see `secretDraws`). */
  readonly #keyValues: SecretDraws;

  /**
   * @param companies - the companies, primary first (at least one).
   * @param seed - seeds the ids and key values created at run time.
   * @param salt - 0 for a server's default world; a session's number gives it key values of its own.
   */
  constructor(companies: readonly CompanyRecords[], seed: number, salt = 0) {
    if (companies.length === 0) throw new Error('A mock store needs at least one company');
    this.companies = companies;
    this.random = new Prng(seed ^ 0x5bd1e995);
    this.#keyValues = secretDraws(() => this.random, seed, salt, 'runTime');
  }

  /** The primary company (the one the default keys and tokens belong to). */
  get primary(): CompanyRecords {
    return this.companies[0] as CompanyRecords;
  }

  /**
   * The company with this id (an API key's company).
   *
   * @throws Error when there is none.
   */
  companyById(id: string): CompanyRecords {
    const found = this.companies.find((company) => company.id === id);
    if (!found) throw new Error(`Unknown company id "${id}"`);
    return found;
  }

  /**
   * The company with this id or name.
   *
   * @throws Error when there is none.
   */
  company(idOrName: string): CompanyRecords {
    const found = this.companies.find((company) => company.id === idOrName || company.name === idOrName);
    if (!found) throw new Error(`Unknown company "${idOrName}"`);
    return found;
  }

  /** A new random uuid from the seeded stream. */
  newId(): string {
    return this.random.uuid();
  }

  /**
   * A generated key value no key of this world has. A session restored from a state draws its key values
   * from the start of its stream again, where the saved world may have drawn them already: those are
   * passed over.
   */
  #newKeyValue(): string {
    for (;;) {
      const value = `${API_KEY_PREFIX}${this.#keyValues.base62(40)}`;
      if (!this.keys.hasHash(hashKey(value))) return value;
    }
  }

  /**
   * Creates an API key.
   *
   * @param options - company, name, value, expiry, permissions and quota.
   * @param nowMs - the creation time, unless `options.createdAt` says otherwise.
   * @returns the key value (shown once: the store keeps only its hash) and its record.
   * @throws Error for an unknown company, an empty or duplicate value, an invalid expiry or quota.
   */
  createKey(options: StoredKeyOptions, nowMs: number): { value: string; record: ApiKeyRecord } {
    const company = options.company === undefined ? this.primary : this.company(options.company);
    const value = options.value ?? this.#newKeyValue();
    if (value.length === 0 || /\s/.test(value))
      throw new Error('An API key value must be non-empty with no spaces');
    const expiresAt = options.expiresAt == null ? null : toEpochMs(options.expiresAt);
    if (options.throttle !== undefined) warnDeprecated("createKey's option throttle", 'quota');
    const given = options.quota ?? options.throttle;
    const quota = given === undefined ? undefined : checkQuota(given, 'createKey');
    const record = this.keys.add(value, {
      id: options.id ?? this.newId(),
      companyId: company.id,
      name: options.name ?? 'API key',
      createdAt: options.createdAt ?? nowMs,
      expiresAt,
      revoked: false,
      permissions: new Set(options.permissions ?? DATA_RESOURCES),
      quota,
    });
    return { value, record };
  }
}
