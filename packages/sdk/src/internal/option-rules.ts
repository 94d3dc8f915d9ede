import { ConfigurationError, ValidationError } from '../core/errors.js';
import type { ClientOptions, DerivedClientOptions, ListOptions } from '../core/options.js';
import { checkOptions, type InputRules } from './input-check.js';
import { OPTION_CHECKS } from './option-checks.generated.js';
import type { CompiledOptions } from './value-rules.js';

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

/** Why a webhook method refuses `hedge`: the hint its unknown-option message gives. */
export const NEVER_HEDGED: Readonly<Record<string, string>> = {
  hedge: 'a webhook is a POST, and only reads (GET) are hedged',
};

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

/**
 * The list options that depend on each other or on the parameters: `readAhead` holds at least the
 * `concurrency` pages in flight, and `lastPage` comes no earlier than the page the list starts at.
 *
 * @throws ConfigurationError naming both values and how to fix them.
 */
export function checkListBudgets(options: ListOptions, given: Record<string, unknown>, method: string): void {
  const { concurrency = 1, readAhead, lastPage } = options;
  if (readAhead !== undefined && readAhead < concurrency) {
    throw listOptionError(
      'readAhead',
      `\`readAhead\` (${readAhead}) of ${method} is smaller than \`concurrency\` (${concurrency}): the pages in flight count toward it. Give a readAhead of at least ${concurrency}, or leave it out.`,
    );
  }
  const start = typeof given.page === 'number' ? given.page : 1;
  if (lastPage !== undefined && lastPage < start) {
    throw listOptionError(
      'lastPage',
      `\`lastPage\` (${lastPage}) of ${method} comes before the page the list starts at (${start}): give a lastPage of at least ${start}.`,
    );
  }
}

function listOptionError(option: string, message: string): ConfigurationError {
  return new ConfigurationError('invalid_option', message, [{ code: 'custom', message, path: [option] }]);
}

/**
 * Checks per-request options, when there are any (the usual call has none).
 *
 * @throws ConfigurationError listing every problem.
 */
export function checkGivenOptions(
  rules: CompiledOptions,
  options: object | undefined,
  method: string,
  elsewhere?: () => InputRules['elsewhere'],
): void {
  if (options === undefined || isEmpty(options)) return;
  checkOptions(rules, options, { noun: 'option', of: method, elsewhere: elsewhere?.() });
}

function isEmpty(object: object): boolean {
  for (const _key in object) return false;
  return true;
}

/**
 * The `query` or `body` escape hatch carries names the SDK does not know; a name it knows belongs in the
 * checked argument, where a mistake in its value is caught.
 *
 * @returns the extras, when none is a known name.
 * @throws ValidationError naming the known ones.
 */
export function refuseKnown(
  extra: Record<string, unknown> | undefined,
  known: readonly string[],
  option: 'query' | 'body',
  method: string,
): Record<string, unknown> {
  if (extra === undefined) return {};
  const clash = Object.keys(extra).filter((name) => known.includes(name));
  if (clash.length === 0) return extra;
  const others = option === 'query' ? 'parameters' : 'body fields';
  const message = `The \`${option}\` option of ${method} is for names the SDK does not know yet, and it knows ${clash.map((name) => `\`${name}\``).join(', ')}: pass each with the other ${others}, where it is checked.`;
  throw new ValidationError(message, [{ code: 'custom', message, path: [option] }]);
}
