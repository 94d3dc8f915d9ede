import type { Dispatcher } from 'undici';
import { LOG_LEVELS } from '../core/logger.js';
import {
  type ClientOptions,
  type DerivedClientOptions,
  type ListOptions,
  MAX_CONCURRENCY,
  MAX_READ_AHEAD,
  type RequestOptions,
  type WebhookOptions,
} from '../core/options.js';
import type { SyncOptions, SyncRequestOptions } from '../core/sync-changes.js';
import { type OptionRules, type ValueRule, valueTypeName } from './value-rules.js';

// The SDK's own options, checked without zod: `new CompanyData()` runs these on every start, and loading
// zod for them would double the SDK's import time. The API's inputs are the contract's, checked elsewhere.

/** The longest delay a timer can wait: Node fires longer ones at once. */
const MAX_TIMER_MS = 2_147_483_647;

function integer(min: number, max = Number.MAX_SAFE_INTEGER): ValueRule {
  const message =
    max === Number.MAX_SAFE_INTEGER
      ? `Expected an integer of at least ${min}`
      : `Expected an integer from ${min} to ${max}`;
  return (value) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max ? [] : [{ message }];
}

function milliseconds(min: number): ValueRule {
  const message = `Expected a number of milliseconds from ${min} to ${MAX_TIMER_MS}`;
  return (value) => (typeof value === 'number' && value >= min && value <= MAX_TIMER_MS ? [] : [{ message }]);
}

function custom(check: (value: unknown) => boolean, message: string): ValueRule {
  return (value) => (check(value) ? [] : [{ message }]);
}

function typed(expected: 'string' | 'boolean'): ValueRule {
  return (value) =>
    typeof value === expected
      ? []
      : [{ message: `Invalid input: expected ${expected}, received ${valueTypeName(value)}` }];
}

/** An object of plain values: each one checked by `valueOk`, a wrong one reported under its key. */
function record(valueOk: (value: unknown) => boolean, valueMessage: string, notRecord?: string): ValueRule {
  return (value) => {
    if (!isPlainObject(value)) {
      return [{ message: notRecord ?? `Invalid input: expected record, received ${valueTypeName(value)}` }];
    }
    return Object.entries(value)
      .filter(([, item]) => !valueOk(item))
      .map(([key]) => ({ message: valueMessage, path: [key] }));
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const isFunction = (value: unknown) => typeof value === 'function';
const aFunction = custom(isFunction, 'Expected a function');
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const headers = record((value) => typeof value === 'string', 'Expected header values to be strings');

const requestRules = {
  signal: custom((value) => value instanceof AbortSignal, 'Expected an AbortSignal'),
  timeout: milliseconds(1),
  maxRetries: integer(0),
  headers,
  query: record(
    (value) => typeof value === 'string' || typeof value === 'boolean' || isNumber(value),
    'Expected a string, number or boolean',
  ),
} satisfies OptionRules<RequestOptions>;

/** Per-request options of retrieve and transcript methods. */
export const REQUEST_OPTION_RULES: OptionRules<RequestOptions> = requestRules;

/** Per-request options of list methods. */
export const LIST_OPTION_RULES: OptionRules<ListOptions> = {
  ...requestRules,
  concurrency: integer(1, MAX_CONCURRENCY),
  readAhead: integer(1, MAX_READ_AHEAD),
  ordered: typed('boolean'),
  lastPage: integer(1),
  onCountChange: aFunction,
};

/** The second argument of `sync()`: the list options but those the sync sets itself. */
export const SYNC_REQUEST_OPTION_RULES: OptionRules<SyncRequestOptions> = {
  ...requestRules,
  concurrency: LIST_OPTION_RULES.concurrency,
  readAhead: LIST_OPTION_RULES.readAhead,
};

/** The first argument of `sync()`. */
export const SYNC_OPTION_RULES: OptionRules<SyncOptions<unknown>> = {
  checkpoint: typed('string'),
  lookBack: custom(
    (value) => Number.isSafeInteger(value) && (value as number) >= 0,
    'Expected a whole number of milliseconds of at least 0',
  ),
  params: custom(isPlainObject, 'Expected an object of list parameters'),
};

/** Per-request options of webhook methods. */
export const WEBHOOK_OPTION_RULES: OptionRules<WebhookOptions> = {
  ...requestRules,
  body: record(() => true, '', 'Expected an object of body fields'),
};

/** The options of `toArray()`. */
export const TO_ARRAY_OPTION_RULES: OptionRules<{ limit?: number }> = { limit: integer(0) };

const isLogger = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  ['debug', 'info', 'warn', 'error'].every((method) =>
    isFunction((value as Record<string, unknown>)[method]),
  );
const isDispatcher = (value: unknown) =>
  typeof value === 'object' && value !== null && isFunction((value as Dispatcher).dispatch);
const levels = LOG_LEVELS.map((level) => JSON.stringify(level)).join('|');

const derivedRules = {
  timeout: milliseconds(1),
  maxRetries: integer(0),
  maxRetryWait: milliseconds(0),
  defaultHeaders: headers,
  logger: custom(isLogger, 'Expected a logger: an object with debug, info, warn and error methods'),
  logLevel: custom(
    (value) => (LOG_LEVELS as readonly unknown[]).includes(value),
    `Invalid option: expected one of ${levels}`,
  ),
  validate: typed('boolean'),
  onRateLimit: aFunction,
  onRetry: aFunction,
  random: aFunction,
} satisfies OptionRules<DerivedClientOptions>;

const isGate = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  isFunction((value as Record<string, unknown>).wait) &&
  isFunction((value as Record<string, unknown>).pause);

/** A quota: `requests` an integer ≥ 1, `perSeconds` > 0, an optional `marginMs` ≥ 0; nothing else. */
export const QUOTA_RULE: ValueRule = (value) => {
  if (!isPlainObject(value)) {
    return [
      { message: `Invalid input: expected { requests, perSeconds }, received ${valueTypeName(value)}` },
    ];
  }
  const fields: Record<string, ValueRule> = {
    requests: integer(1),
    perSeconds: custom(
      (seconds) => isNumber(seconds) && (seconds as number) > 0,
      'Expected a number of seconds above 0',
    ),
    marginMs: milliseconds(0),
  };
  const problems = Object.keys(value)
    .filter((key) => !(key in fields))
    .map((key) => ({
      message: 'Unknown quota field: expected requests, perSeconds or marginMs',
      path: [key],
    }));
  for (const [key, rule] of Object.entries(fields)) {
    const field = value[key];
    if (field === undefined && key === 'marginMs') continue;
    for (const problem of rule(field)) problems.push({ message: problem.message, path: [key] });
  }
  return problems;
};

/** The options of `new CompanyData()`. */
export const CLIENT_OPTION_RULES: OptionRules<ClientOptions> = {
  ...derivedRules,
  apiKey: typed('string'),
  baseURL: typed('string'),
  apiRoot: typed('string'),
  dispatcher: custom(isDispatcher, 'Expected an undici Dispatcher'),
  fetch: aFunction,
  sleep: aFunction,
  now: aFunction,
  quota: QUOTA_RULE,
  gate: custom(isGate, 'Expected a rate gate: an object with wait and pause methods'),
};

/** Why `new CompanyData()` refuses `quota` beside `gate`: the gate given keeps the quota, or none. */
export const QUOTA_WITH_GATE =
  'Invalid options for new CompanyData(): `quota` and `gate` were both given; pass the quota to the gate you share (e.g. new RedisRateGate({ quota })) or drop `gate` for a quota kept in this process.';

/** The options `withOptions()` may change. */
export const DERIVED_OPTIONS: readonly string[] = Object.keys(derivedRules);

/** The per-request options of list methods, by name. */
export const LIST_OPTIONS: readonly string[] = Object.keys(LIST_OPTION_RULES);

/** The per-request options of webhook methods, by name. */
export const WEBHOOK_OPTIONS: readonly string[] = Object.keys(WEBHOOK_OPTION_RULES);

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
