import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { LOG_LEVELS } from '../logger-interface.js';
import {
  type ClientOptions,
  type DerivedClientOptions,
  type ListOptions,
  MAX_CONCURRENCY,
  MAX_READ_AHEAD,
  type RequestOptions,
  type WebhookOptions,
} from '../options.js';
import type { RateQuota } from '../rate-gate-interface.js';
import type { SyncOptions, SyncRequestOptions } from '../sync-changes.js';

// The SDK's own options, as schemas: the home of their rules and messages. NEVER imported at run time
// (`new CompanyData()` runs these checks on every start, and loading zod for them would double the SDK's
// import time): `scripts/write-option-checks.ts` compiles them, as the contract's schemas are compiled, into
// `schemas.generated.ts`, whose checks record each problem with the `errorMessage` of the node that
// refused it (ajv-errors). A message may name the value's type with `{received}`, and an unknown field with
// `{field:a,b}` (its name and the closest of the known names a and b, see `optionProblems`). A test holds every
// compiled check equal to these schemas.
// Keywords beyond JSON Schema, for what JSON cannot hold: `isFunction`, `instanceOf` (a global class),
// `methods` (an object with these functions), `plainObject` (no class instance); see the generator.

/** The longest delay a timer can wait: Node fires longer ones at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The message a refusal of `schema` shows, wherever it sits. */
const said = <Schema extends z.ZodType>(schema: Schema, message: string) =>
  schema.meta({ errorMessage: message });

/** An object's fields: only `names`, any other refused at its path, named with the closest of them. */
const onlyFields = (what: string, names: readonly [string, ...string[]]) => {
  const last = names.at(-1) as string;
  const expected = names.length === 1 ? last : `${names.slice(0, -1).join(', ')} or ${last}`;
  const message = `Unknown ${what} field {field:${names.join(',')}}: expected ${expected}`;
  return { additionalProperties: { not: {}, errorMessage: message } };
};

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  said(
    z.int().min(min).max(max),
    max === Number.MAX_SAFE_INTEGER
      ? `Expected an integer of at least ${min}`
      : `Expected an integer from ${min} to ${max}`,
  );

const milliseconds = (min: number) =>
  said(
    z.number().min(min).max(MAX_TIMER_MS),
    `Expected a number of milliseconds from ${min} to ${MAX_TIMER_MS}`,
  );

const typed = (expected: 'string' | 'boolean') =>
  said(
    expected === 'string' ? z.string() : z.boolean(),
    `Invalid input: expected ${expected}, received {received}`,
  );

const isPlainObject = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** An object of plain values (no class instance), each passing `item`. */
const record = (item: z.ZodType, message = 'Invalid input: expected record, received {received}') =>
  z.record(z.string(), item).refine(isPlainObject).meta({ plainObject: true, errorMessage: message });

const aFunction = said(
  z.custom((value) => typeof value === 'function').meta({ isFunction: true }),
  'Expected a function',
);

/** An object with these methods (a logger, a gate, a dispatcher). */
const withMethods = (methods: readonly string[], message: string) =>
  said(
    z
      .custom(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
      )
      .meta({ methods: [...methods] }),
    message,
  );

/**
 * The shape of a set of options: a schema for every option of `Options`, and nothing else. Other keys pass
 * here: they are refused before, by name, with the closest known name (`refuseUnknownKeys`).
 */
const optionsOf =
  <Options>() =>
  <Shape extends { [Name in keyof Required<Options>]: z.ZodType }>(
    shape: Shape & Record<Exclude<keyof Shape, keyof Required<Options>>, never>,
  ) =>
    said(
      z.looseObject(
        Object.fromEntries(
          Object.entries(shape).map(([name, schema]) => [name, (schema as z.ZodType).optional()]),
        ) as {
          [Name in keyof Shape]: z.ZodOptional<Shape[Name]>;
        },
      ),
      'Invalid input: expected object, received {received}',
    );

const headers = record(said(z.string(), 'Expected header values to be strings'));

/** The options every method takes, webhooks included. */
const call = {
  signal: said(
    z.custom((value) => value instanceof AbortSignal).meta({ instanceOf: 'AbortSignal' }),
    'Expected an AbortSignal',
  ),
  timeout: milliseconds(1),
  maxRetries: integer(0),
  headers,
  query: record(said(z.union([z.string(), z.number(), z.boolean()]), 'Expected a string, number or boolean')),
};

/** `hedge`: `true`, `false`, or `{ afterMs }` with a number of milliseconds; nothing else. */
const hedge = said(
  z.union([
    z.boolean(),
    z
      .strictObject({ afterMs: milliseconds(1) })
      .meta({ plainObject: true, ...onlyFields('hedge', ['afterMs']) }),
  ]),
  'Invalid input: expected true, false or { afterMs }, received {received}',
);

/** The options of the methods that read (GET): those every method takes, and `hedge`. */
const request = { ...call, hedge };

const list = {
  ...request,
  concurrency: integer(1, MAX_CONCURRENCY),
  readAhead: integer(1, MAX_READ_AHEAD),
  ordered: typed('boolean'),
  lastPage: integer(1),
  onCountChange: aFunction,
};

/** A quota: `requests` an integer ≥ 1, `perSeconds` > 0, an optional `marginMs` ≥ 0; nothing else. */
const quota = said(
  z
    .strictObject({
      requests: integer(1),
      perSeconds: said(z.number().positive(), 'Expected a number of seconds above 0'),
      marginMs: milliseconds(0).optional(),
    } satisfies { [Name in keyof Required<RateQuota>]: z.ZodType })
    .refine(isPlainObject)
    .meta({
      plainObject: true,
      ...onlyFields('quota', ['requests', 'perSeconds', 'marginMs']),
    }),
  'Invalid input: expected { requests, perSeconds }, received {received}',
);

const derived = {
  timeout: milliseconds(1),
  maxRetries: integer(0),
  maxRetryWait: milliseconds(0),
  defaultHeaders: headers,
  logger: withMethods(
    ['debug', 'info', 'warn', 'error'],
    'Expected a logger: an object with debug, info, warn and error methods',
  ),
  logLevel: said(
    z.enum(LOG_LEVELS),
    `Invalid option: expected one of ${LOG_LEVELS.map((level) => JSON.stringify(level)).join('|')}`,
  ),
  validate: typed('boolean'),
  hedge,
  onRateLimit: aFunction,
  onRetry: aFunction,
  random: aFunction,
} satisfies { [Name in keyof Required<DerivedClientOptions>]: z.ZodType };

/** The options a derived client shares with its parent: those {@link DerivedClientOptions} leaves out. */
const fixed = {
  apiKey: typed('string'),
  baseURL: typed('string'),
  apiRoot: typed('string'),
  dispatcher: withMethods(['dispatch'] satisfies (keyof Dispatcher)[], 'Expected an undici Dispatcher'),
  fetch: aFunction,
  sleep: aFunction,
  now: aFunction,
  quota,
  gate: withMethods(['wait', 'pause'], 'Expected a rate gate: an object with wait and pause methods'),
} satisfies { [Name in Exclude<keyof ClientOptions, keyof DerivedClientOptions>]: z.ZodType };

const webhook = { ...call, body: record(z.unknown(), 'Expected an object of body fields') };

/**
 * Every set of options the SDK checks, by the name its compiled check has. The keys of each are the
 * options' names, in the order a refusal lists them.
 */
export const OPTION_SCHEMAS = {
  /** The options of `new CompanyData()` and `withOptions()`. */
  client: optionsOf<ClientOptions>()({ ...derived, ...fixed }),
  /** Per-request options of retrieve and transcript methods. */
  request: optionsOf<RequestOptions>()(request),
  /** Per-request options of list methods. */
  list: optionsOf<ListOptions>()(list),
  /** The second argument of `sync()`: the list options but those the sync sets itself. */
  syncRequest: optionsOf<SyncRequestOptions>()({
    ...request,
    concurrency: list.concurrency,
    readAhead: list.readAhead,
  }),
  /** The first argument of `sync()`. */
  sync: optionsOf<SyncOptions<unknown>>()({
    checkpoint: typed('string'),
    lookBack: said(z.int().min(0), 'Expected a whole number of milliseconds of at least 0'),
    params: record(z.unknown(), 'Expected an object of list parameters'),
  }),
  /** Per-request options of webhook methods. */
  webhook: optionsOf<WebhookOptions>()(webhook),
  /** The options of `toArray()`. */
  toArray: optionsOf<{ limit?: number }>()({ limit: integer(0) }),
  /** What `new RateGate({ quota })` is given, as `{ quota }`. */
  quota: optionsOf<{ quota?: RateQuota }>()({ quota }),
};

/** The same hint for each of `names`. */
const hinted = (names: readonly string[], hint: string) =>
  Object.fromEntries(names.map((name) => [name, hint]));

/** The per-request options (those of list and webhook methods the client does not take), given to the client. */
const perRequestOnly = {
  ...hinted(
    Object.keys({ ...list, ...webhook }).filter((name) => !Object.hasOwn({ ...derived, ...fixed }, name)),
    'a per-request option: pass it to the method you call',
  ),
  headers: 'a per-request option; for every request, use `defaultHeaders`',
};

/**
 * Where a name a set of options does not take belongs, by set: the hint its unknown-name message gives
 * (written beside the compiled checks, as `OPTION_HINTS`).
 */
export const OPTION_HINTS = {
  /** `new CompanyData()`. */
  client: perRequestOnly,
  /** `withOptions()`: the options it cannot change too, those the derived client shares with its parent. */
  withOptions: {
    ...perRequestOnly,
    ...hinted(
      Object.keys(fixed),
      'shared with the parent client, with its connection pool and rate gate: create a new CompanyData to change it',
    ),
  },
  /** Webhook methods. */
  webhook: { hedge: 'a webhook is a POST, and only reads (GET) are hedged' },
};
