import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { LOG_LEVELS, type Logger } from './logger.js';
import type {
  ClientOptions,
  DerivedClientOptions,
  FixedClientOption,
  ListOptions,
  RequestOptions,
  WebhookOptions,
} from './options.js';
import { MAX_CONCURRENCY } from './page-stream.js';

/** The longest delay a timer can wait: Node fires longer ones at once. */
const MAX_TIMER_MS = 2_147_483_647;

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  const error =
    max === Number.MAX_SAFE_INTEGER
      ? `Expected an integer of at least ${min}`
      : `Expected an integer from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error }).optional();
}

function milliseconds(min: number) {
  const error = `Expected a number of milliseconds from ${min} to ${MAX_TIMER_MS}`;
  return z.number({ error }).min(min, { error }).max(MAX_TIMER_MS, { error }).optional();
}

function custom<T>(check: (value: unknown) => boolean, error: string) {
  return z.custom<T>(check, { error }).optional();
}

const isFunction = (value: unknown) => typeof value === 'function';
const aFunction = custom<(...args: never[]) => unknown>(isFunction, 'Expected a function');
const headers = z.record(z.string(), z.string({ error: 'Expected header values to be strings' })).optional();

const requestRules = {
  signal: custom<AbortSignal>((value) => value instanceof AbortSignal, 'Expected an AbortSignal'),
  timeout: milliseconds(1),
  maxRetries: integer(0),
  headers,
  query: z
    .record(
      z.string(),
      z.union([z.string(), z.number(), z.boolean()], { error: 'Expected a string, number or boolean' }),
    )
    .optional(),
} satisfies Record<keyof RequestOptions, z.ZodType>;

/** Per-request options of retrieve and transcript methods. */
export const RequestOptionsSchema = z.object(requestRules);

/** Per-request options of list methods. */
export const ListOptionsSchema = z.object({
  ...requestRules,
  concurrency: integer(1, MAX_CONCURRENCY),
  onCountChange: aFunction,
} satisfies Record<keyof ListOptions, z.ZodType>);

/** Per-request options of webhook methods. */
export const WebhookOptionsSchema = z.object({
  ...requestRules,
  body: z.record(z.string(), z.unknown(), { error: 'Expected an object of body fields' }).optional(),
} satisfies Record<keyof WebhookOptions, z.ZodType>);

/** The options of `toArray()`. */
export const ToArrayOptionsSchema = z.object({ limit: integer(0) });

const isLogger = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  ['debug', 'info', 'warn', 'error'].every((method) =>
    isFunction((value as Record<string, unknown>)[method]),
  );
const isDispatcher = (value: unknown) =>
  typeof value === 'object' && value !== null && isFunction((value as Dispatcher).dispatch);

const derivedRules = {
  timeout: milliseconds(1),
  maxRetries: integer(0),
  maxRetryWait: milliseconds(0),
  defaultHeaders: headers,
  logger: custom<Logger>(isLogger, 'Expected a logger: an object with debug, info, warn and error methods'),
  logLevel: z.enum(LOG_LEVELS).optional(),
  validate: z.boolean().optional(),
  onRateLimit: aFunction,
  onRetry: aFunction,
  random: aFunction,
} satisfies Record<keyof DerivedClientOptions, z.ZodType>;

/** The options of `new CompanyData()`. */
export const ClientOptionsSchema = z.object({
  ...derivedRules,
  apiKey: z.string().optional(),
  baseURL: z.string().optional(),
  apiRoot: z.string().optional(),
  dispatcher: custom<Dispatcher>(isDispatcher, 'Expected an undici Dispatcher'),
  fetch: aFunction,
  sleep: aFunction,
  now: aFunction,
} satisfies Record<keyof ClientOptions, z.ZodType>);

/** The options `withOptions()` may change. */
export const DERIVED_OPTIONS: readonly string[] = Object.keys(derivedRules);

const SHARED_WITH_PARENT =
  'shared with the parent client, with its connection pool and rate gate: create a new CompanyData to change it';

/** Why `withOptions()` refuses each option it cannot change. */
export const FIXED_FOR_DERIVED: Readonly<Record<FixedClientOption, string>> = {
  apiKey: SHARED_WITH_PARENT,
  baseURL: SHARED_WITH_PARENT,
  apiRoot: SHARED_WITH_PARENT,
  dispatcher: SHARED_WITH_PARENT,
  fetch: SHARED_WITH_PARENT,
  sleep: SHARED_WITH_PARENT,
  now: SHARED_WITH_PARENT,
};

const PER_REQUEST = 'a per-request option: pass it to the method you call';

/** Per-request options given to the client, each with where it goes instead. */
export const PER_REQUEST_ONLY: Readonly<Record<string, string>> = {
  headers: 'a per-request option; for every request, use `defaultHeaders`',
  signal: PER_REQUEST,
  query: PER_REQUEST,
  body: PER_REQUEST,
  concurrency: PER_REQUEST,
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
