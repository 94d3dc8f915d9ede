import type { ClientOptions, DerivedClientOptions, ListOptions } from '../core/options.js';
import { inputError } from './input-check.js';
import { OPTION_CHECKS } from './option-checks.generated.js';

// What the options' schemas (option-schemas.ts, compiled into OPTION_CHECKS) cannot say: rules across
// options and arguments, and where a name given in the wrong place belongs.

/** Why `new CompanyData()` refuses `quota` beside `gate`: the gate given keeps the quota, or none. */
export const QUOTA_WITH_GATE =
  'Invalid options for new CompanyData(): `quota` and `gate` were both given; pass the quota to the gate you share (e.g. new RedisRateGate({ quota })) or drop `gate` for a quota kept in this process.';

const { client, list, webhook } = OPTION_CHECKS;

/** The client options a derived client shares with its parent: those {@link DerivedClientOptions} leaves out. */
// biome-ignore format: the list reads best on one line
const FIXED = ['apiKey', 'baseURL', 'apiRoot', 'dispatcher', 'fetch', 'sleep', 'now', 'quota', 'gate'] as const;
type Fixed = Exclude<keyof ClientOptions, keyof DerivedClientOptions>;
true satisfies Fixed | (typeof FIXED)[number] extends Fixed & (typeof FIXED)[number] ? true : false;

/** Why `withOptions()` refuses the options it cannot change, and those it may change. */
export const FIXED_FOR_DERIVED = hintEach(
  FIXED,
  'shared with the parent client, with its connection pool and rate gate: create a new CompanyData to change it',
);
export const DERIVED_OPTIONS = client.names.filter((name) => !Object.hasOwn(FIXED_FOR_DERIVED, name));

/** The per-request options, given to the client: each with where it goes instead. */
export const PER_REQUEST_ONLY = {
  ...hintEach(
    [...list.names, ...webhook.names].filter((name) => !client.names.includes(name)),
    'a per-request option: pass it to the method you call',
  ),
  headers: 'a per-request option; for every request, use `defaultHeaders`',
};

/** Why a webhook method refuses `hedge`: the hint its unknown-option message gives. */
export const NEVER_HEDGED = { hedge: 'a webhook is a POST, and only reads (GET) are hedged' };

/** Hints for `names`, given in the wrong argument: e.g. `an option: pass it in the second argument`. */
export const belongsIn = (names: readonly string[], what: string, argument: string) =>
  hintEach(names, `${what}: pass it in ${argument}`);

function hintEach(names: readonly string[], hint: string): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, hint]));
}

/**
 * Refuses a `readAhead` under `concurrency` (the pages in flight count toward it) or a `lastPage` before
 * the page the list starts at, with a ConfigurationError naming both values and how to fix them.
 */
export function checkListBudgets(options: ListOptions, given: Record<string, unknown>, method: string): void {
  const { concurrency = 1, readAhead, lastPage } = options;
  const start = typeof given.page === 'number' ? given.page : 1;
  if (readAhead !== undefined && readAhead < concurrency) {
    const message = `\`readAhead\` (${readAhead}) of ${method} is smaller than \`concurrency\` (${concurrency}): the pages in flight count toward it. Give a readAhead of at least ${concurrency}, or leave it out.`;
    throw inputError('option', message, [{ code: 'custom', message, path: ['readAhead'] }]);
  }
  if (lastPage !== undefined && lastPage < start) {
    const message = `\`lastPage\` (${lastPage}) of ${method} comes before the page the list starts at (${start}): give a lastPage of at least ${start}.`;
    throw inputError('option', message, [{ code: 'custom', message, path: ['lastPage'] }]);
  }
}

/**
 * The `query` or `body` escape hatch, when it carries no name the SDK knows: a known one belongs in the
 * checked argument, where a mistake in its value is caught (else a ValidationError names it).
 */
export function refuseKnown(
  extra: Record<string, unknown> | undefined,
  known: readonly string[],
  option: 'query' | 'body',
  method: string,
): Record<string, unknown> {
  const clash = Object.keys(extra ?? {}).filter((name) => known.includes(name));
  if (clash.length === 0) return extra ?? {};
  const message = `The \`${option}\` option of ${method} is for names the SDK does not know yet, and it knows ${clash.map((name) => `\`${name}\``).join(', ')}: pass each with the other ${option === 'query' ? 'parameters' : 'body fields'}, where it is checked.`;
  throw inputError('parameter', message, [{ code: 'custom', message, path: [option] }]);
}
