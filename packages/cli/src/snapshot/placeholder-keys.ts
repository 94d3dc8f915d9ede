import { API_KEY_PREFIX } from '@company-data/contract';
import type { Fixture } from '@company-data/mock-server';

/** A key of a fixture company. */
type FixtureKey = NonNullable<Fixture['companies'][number]['keys']>[number];

/**
 * The API keys a snapshot writes instead of the real one: one per situation a test suite may want. They
 * are placeholders, named as such, and never the key the snapshot read the data with.
 *
 * @example
 * ```ts
 * import { PLACEHOLDER_KEYS } from '@company-data/cli';
 *
 * const client = new CompanyData({ apiKey: PLACEHOLDER_KEYS.valid, baseURL: mock.baseURL });
 * ```
 */
export const PLACEHOLDER_KEYS = {
  /** Reads everything. */
  valid: `${API_KEY_PREFIX}placeholder_valid`,
  /** Expired long ago: 401 `API key has expired.`. */
  expired: `${API_KEY_PREFIX}placeholder_expired`,
  /** Revoked: 401 `Invalid API key.`. */
  revoked: `${API_KEY_PREFIX}placeholder_revoked`,
  /** Valid but without any permission: 403 on every data endpoint. */
  noPermission: `${API_KEY_PREFIX}placeholder_no_permission`,
} as const;

const NOTE = 'Placeholder written by company-data snapshot, not a real key';

/** The four placeholder keys as fixture entries. */
export function placeholderKeys(): FixtureKey[] {
  return [
    { value: PLACEHOLDER_KEYS.valid, name: `${NOTE}: valid` },
    {
      value: PLACEHOLDER_KEYS.expired,
      name: `${NOTE}: expired`,
      created_at: '2000-01-01T00:00:00Z',
      expires_at: '2000-01-02T00:00:00Z',
    },
    { value: PLACEHOLDER_KEYS.revoked, name: `${NOTE}: revoked`, revoked: true },
    { value: PLACEHOLDER_KEYS.noPermission, name: `${NOTE}: no permission`, permissions: [] },
  ];
}
