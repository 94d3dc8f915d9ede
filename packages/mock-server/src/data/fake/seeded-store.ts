import { API_KEY_PREFIX } from '@company-data/contract';
import { hashInts, hashString, Prng } from '../random/prng.js';
import { type SecretDraws, secretDraws } from '../random/secret-draws.js';
import { createAudience } from '../store/audiences.js';
import { MockStore } from '../store/mock-store.js';
import { THROTTLED_KEY_QUOTA } from '../store/quota.js';
import { type CompanySizes, generateCompany } from './generate-company.js';

/** The default record counts of the primary company. */
export const DEFAULT_SIZES: CompanySizes = { users: 12, teams: 4, recordings: 60, calls: 240 };
/** The record counts of the second company. */
export const OTHER_COMPANY_SIZES: CompanySizes = { users: 5, teams: 2, recordings: 10, calls: 20 };

/**
 * The ready-to-use API key values of a mock server.
 *
 * @example
 * ```ts
 * const headers = { authorization: `Bearer ${server.keys.limited}` }; // 403 on recordings and calls
 * ```
 */
export interface MockKeys {
  /** Primary company, all permissions. */
  readonly valid: string;
  /** Primary company, expired: 401 `API key has expired.`. */
  readonly expired: string;
  /** Primary company, revoked: 401 `Invalid API key.`. */
  readonly revoked: string;
  /** Primary company, only `users` and `teams`: 403 on recordings and calls. */
  readonly limited: string;
  /** Primary company, no permissions: 403 on every data endpoint. */
  readonly noPermissions: string;
  /** The second company, all permissions (the primary company's ids are 404 to it). */
  readonly otherCompany: string;
  /** Primary company, all permissions, its own quota of 5 requests per 5 seconds: a 429 on the sixth quick request. */
  readonly throttled: string;
}

/**
 * The webhook tokens of the primary company.
 *
 * @example
 * ```ts
 * const url = `${server.apiRoot}/messaging-agent/webhook/${server.tokens.lead}/`;
 * ```
 */
export interface MockTokens {
  /** Token of the primary company's audience. */
  readonly audience: string;
  /** Token of a live lead source. */
  readonly lead: string;
  /** Token of a deleted lead source (404). */
  readonly deletedLead: string;
}

/** A store with the well-known keys and tokens tests use. */
export interface SeededStore {
  store: MockStore;
  /** The well-known key values. */
  keys: MockKeys;
  /** The well-known webhook tokens. */
  tokens: MockTokens;
}

const DAY_MS = 86_400_000;

/**
 * Generates two companies from a seed: the primary one with `sizes`, a small second one, the
 * well-known keys, one audience and two lead sources (one deleted) per company. Records are
 * derived lazily, so this takes milliseconds whatever the sizes.
 *
 * @param seed - the seed.
 * @param sizes - record counts of the primary company.
 * @param nowMs - the clock's initial time: generated records are older, the expired key expired a day earlier.
 * @param salt - 0 for a server's default world; a session's number gives it keys and tokens of its own.
 */
export function generateStore(seed: number, sizes: CompanySizes, nowMs: number, salt = 0): SeededStore {
  const random = new Prng(hashInts(seed, 0x5eed));
  const secrets = secretDraws(() => random, seed, salt);
  const endMs = nowMs - 3_600_000;
  const primary = generateCompany({
    id: random.uuid(),
    name: 'Acme Home Services',
    domain: 'acme-home.example',
    secret: hashInts(seed, 1),
    sizes,
    endMs,
  });
  const other = generateCompany({
    id: random.uuid(),
    name: 'Globex Contact Center',
    domain: 'globex.example',
    secret: hashInts(seed, 2),
    sizes: OTHER_COMPANY_SIZES,
    endMs,
  });
  const store = new MockStore([primary, other], seed, salt);
  const keys = addWellKnownKeys(store, secrets, other.id, nowMs);

  const tokens: MockTokens = {
    audience: secrets.uuid(),
    lead: secrets.uuid(),
    deletedLead: secrets.uuid(),
  };
  const audience = (token: string, companyId: string, name: string, ageDays: number) =>
    store.audiences.add(
      createAudience({ id: random.uuid(), companyId, name, token, createdAt: nowMs - ageDays * DAY_MS }),
    );
  audience(tokens.audience, primary.id, 'Spring promotion', 20);
  audience(secrets.uuid(), other.id, 'Win-back', 45);
  const sources = [
    { token: tokens.lead, companyId: primary.id, name: 'Website form', deletedAt: null },
    {
      token: tokens.deletedLead,
      companyId: primary.id,
      name: 'Old landing page',
      deletedAt: nowMs - 7 * DAY_MS,
    },
    { token: secrets.uuid(), companyId: other.id, name: 'Partner referrals', deletedAt: null },
  ];
  for (const source of sources) store.leadSources.add({ id: random.uuid(), ...source });
  return { store, keys, tokens };
}

/**
 * Creates the well-known keys: six of the primary company, one of `otherCompanyId`.
 *
 * @param secrets - where their values are drawn.
 * @returns their values.
 */
export function addWellKnownKeys(
  store: MockStore,
  secrets: SecretDraws,
  otherCompanyId: string,
  nowMs: number,
): MockKeys {
  const key = (name: string, extra: Parameters<MockStore['createKey']>[0] = {}) =>
    store.createKey({ name, value: `${API_KEY_PREFIX}${secrets.base62(40)}`, ...extra }, nowMs - 30 * DAY_MS)
      .value;
  const keys: Omit<MockKeys, 'throttled'> = {
    valid: key('Full access'),
    expired: key('Expired', { expiresAt: nowMs - DAY_MS }),
    revoked: key('Revoked'),
    limited: key('Users and teams only', { permissions: ['users', 'teams'] }),
    noPermissions: key('No permissions', { permissions: [] }),
    otherCompany: key('Other company full access', { company: otherCompanyId }),
  };
  store.keys.require(keys.revoked).revoked = true;
  // Drawn from its own stream: the keys and tokens generated before it came keep their values.
  const own = new Prng(hashString(keys.valid));
  const throttled = store.createKey(
    { name: 'Throttled', value: `${API_KEY_PREFIX}${own.base62(40)}`, quota: THROTTLED_KEY_QUOTA },
    nowMs - 30 * DAY_MS,
  ).value;
  return { ...keys, throttled };
}
