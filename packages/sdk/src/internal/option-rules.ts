import type { ClientOptions, DerivedClientOptions } from '../core/options.js';
import { OPTION_CHECKS } from './option-checks.generated.js';

// What the options' schemas (option-schemas.ts, compiled into OPTION_CHECKS) cannot say: rules across
// options and the hints a refusal gives. Each option's own rule and message live in its schema.

/** Why `new CompanyData()` refuses `quota` beside `gate`: the gate given keeps the quota, or none. */
export const QUOTA_WITH_GATE =
  'Invalid options for new CompanyData(): `quota` and `gate` were both given; pass the quota to the gate you share (e.g. new RedisRateGate({ quota })) or drop `gate` for a quota kept in this process.';

const SHARED_WITH_PARENT =
  'shared with the parent client, with its connection pool and rate gate: create a new CompanyData to change it';

/** The client options a derived client shares with its parent: those {@link DerivedClientOptions} leaves out. */
type FixedClientOption = Exclude<keyof ClientOptions, keyof DerivedClientOptions>;

/** Why `withOptions()` refuses each option it cannot change. */
export const FIXED_FOR_DERIVED: Readonly<Record<FixedClientOption, string>> = {
  apiKey: SHARED_WITH_PARENT,
  baseURL: SHARED_WITH_PARENT,
  apiRoot: SHARED_WITH_PARENT,
  dispatcher: SHARED_WITH_PARENT,
  fetch: SHARED_WITH_PARENT,
  sleep: SHARED_WITH_PARENT,
  now: SHARED_WITH_PARENT,
  quota: SHARED_WITH_PARENT,
  gate: SHARED_WITH_PARENT,
};

/** The options `withOptions()` may change. */
export const DERIVED_OPTIONS: readonly string[] = OPTION_CHECKS.client.names.filter(
  (name) => !Object.hasOwn(FIXED_FOR_DERIVED, name),
);

/** The per-request options of list methods, by name. */
export const LIST_OPTIONS: readonly string[] = OPTION_CHECKS.list.names;

/** The per-request options of webhook methods, by name. */
export const WEBHOOK_OPTIONS: readonly string[] = OPTION_CHECKS.webhook.names;

const PER_REQUEST = 'a per-request option: pass it to the method you call';

/** Per-request options given to the client, each with where it goes instead. */
export const PER_REQUEST_ONLY: Readonly<Record<string, string>> = {
  headers: 'a per-request option; for every request, use `defaultHeaders`',
  signal: PER_REQUEST,
  query: PER_REQUEST,
  body: PER_REQUEST,
  concurrency: PER_REQUEST,
  readAhead: PER_REQUEST,
  ordered: PER_REQUEST,
  lastPage: PER_REQUEST,
  onCountChange: PER_REQUEST,
};

/**
 * Hints for names given in the wrong argument: each name of `names`, pointing to `argument`.
 *
 * @param names - the names the other argument takes.
 * @param what - what they are there, e.g. `an option`.
 * @param argument - which argument, e.g. `the second argument`.
 * @returns the hints, by name.
 */
export function belongsIn(names: readonly string[], what: string, argument: string): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, `${what}: pass it in ${argument}`]));
}
