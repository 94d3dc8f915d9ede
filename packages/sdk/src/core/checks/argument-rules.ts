import { DEFAULT_LIST_CONCURRENCY, type ListOptions } from '../options.js';
import { inputError } from './refusals.js';
import { OPTION_CHECKS, OPTION_HINTS } from './schemas.generated.js';

// What the options' schemas (schemas.ts, compiled into OPTION_CHECKS and OPTION_HINTS) cannot say:
// rules across options and arguments, and where a name given in the wrong argument belongs.

/** Why `new CompanyData()` refuses `quota` beside `gate`: the gate given keeps the quota, or none. */
export const QUOTA_WITH_GATE =
  'Invalid options for new CompanyData(): `quota` and `gate` were both given; pass the quota to the gate you share (e.g. new RedisRateGate({ quota })) or drop `gate` for a quota kept in this process.';

/** The options `withOptions()` may change: the client's but those it refuses, with a hint. */
export const DERIVED_OPTIONS = OPTION_CHECKS.client.names.filter(
  (name) => !Object.hasOwn(OPTION_HINTS.withOptions, name),
);

/** Hints for `names`, given in the wrong argument: e.g. `an option: pass it in the second argument`. */
export const belongsIn = (names: readonly string[], what: string, argument: string) =>
  Object.fromEntries(names.map((name) => [name, `${what}: pass it in ${argument}`]));

/**
 * Refuses a `readAhead` under `concurrency` (the pages in flight count toward it) or a `lastPage` before
 * the page the list starts at, with a ConfigurationError naming both values and how to fix them.
 */
export function checkListBudgets(options: ListOptions, given: Record<string, unknown>, method: string): void {
  const { concurrency = DEFAULT_LIST_CONCURRENCY, readAhead, lastPage } = options;
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
