import { API_KEY_PREFIX, closestName, compilePath } from '@company-data/contract/runtime';

/**
 * What a string of a request must be: equal to a string, or matching a regular expression (a `RegExp` in
 * code; `{ matches, flags }` in JSON, over the admin API, and in code too).
 *
 * @example
 * ```ts
 * const json: ValueMatcher = { matches: '^application/json' };
 * const same: ValueMatcher = /^application\/json/;
 * ```
 */
export type ValueMatcher = string | RegExp | { readonly matches: string; readonly flags?: string };

/**
 * How many requests must match: exactly this many, or a range (`{ atLeast: 1 }` when a pattern gives none).
 *
 * @example
 * ```ts
 * const once: TimesPattern = 1;
 * const some: TimesPattern = { atLeast: 1, atMost: 3 };
 * ```
 */
export type TimesPattern = number | { readonly atLeast?: number; readonly atMost?: number };

/**
 * Which requests of the journal to count, each field optional (an empty pattern matches every request):
 *
 * - `method`: any letter case;
 * - `path`: the exact path (`/v1/calls/`), a template whose `{name}` segments match any one segment
 *   (`/v1/calls/{id}/transcript/`), or a regular expression;
 * - `query`: these parameters, among any others, each equal (a number or boolean as its text) or matching;
 * - `headers`: these headers, among any others, names in any letter case; not `authorization` (the journal
 *   redacts its value): give `key`;
 * - `key`: the API key the request was authenticated with: a well-known key's name (`valid`, `limited`, …,
 *   as in `mock.keys`), a key's value, or the name the journal records (`keyName`); `null` for requests
 *   without a recognised key (webhooks, refused keys, unknown paths);
 * - `body`: a deep-partial match of the JSON body: an object's fields given must be there and match (others
 *   are ignored), arrays match element by element with the same length, other values are equal; a string
 *   for a body that is not JSON;
 * - `times`: how many requests must match (default `{ atLeast: 1 }`).
 *
 * @example
 * ```ts
 * mock.verify({ method: 'GET', path: '/v1/calls/', query: { page: 2 }, key: 'valid' });
 * mock.verify({ method: 'POST', path: '/v1/outbound-campaigns/webhook/{token}/', body: { first_name: 'Ada' }, times: 1 });
 * ```
 */
export interface RequestPattern {
  readonly method?: string | undefined;
  readonly path?: ValueMatcher | undefined;
  readonly query?: Readonly<Record<string, ValueMatcher | number | boolean>> | undefined;
  readonly headers?: Readonly<Record<string, ValueMatcher>> | undefined;
  readonly key?: string | null | undefined;
  readonly body?: unknown;
  readonly times?: TimesPattern | undefined;
}

/**
 * A request pattern the mock cannot use, saying which field and how to fix it. Thrown by `mock.verify` and
 * the matchers; the admin API's `POST verify` answers its message with a 400.
 *
 * @example
 * ```ts
 * try {
 *   mock.verify({ paht: '/v1/users/' } as RequestPattern);
 * } catch (error) {
 *   if (error instanceof VerifyPatternError) console.log(error.field); // → paht
 * }
 * ```
 */
export class VerifyPatternError extends Error {
  /** The field of the pattern at fault, as a path (`query.page`), or `''` for the pattern itself. */
  readonly field: string;

  /**
   * @param field - the field at fault.
   * @param message - what is wrong and how to fix it.
   */
  constructor(field: string, message: string) {
    super(message);
    this.name = 'VerifyPatternError';
    this.field = field;
  }
}

/** The fields of a pattern, in the order reports give them. */
export const PATTERN_FIELDS = ['method', 'path', 'query', 'headers', 'key', 'body', 'times'] as const;

/** A checked string rule: what it expects, as JSON, and the test. */
export interface CheckedValue {
  /** The string expected, or `{ matches, flags? }`: how reports (and JSON answers) show it. */
  readonly expected: string | { readonly matches: string; readonly flags?: string };
  test(value: string): boolean;
}

/**
 * The counts a `times` lets pass, as `mock.verify` reports them: `times: 2` is `{ atLeast: 2, atMost: 2 }`,
 * no `times` is `{ atLeast: 1 }`.
 *
 * @example
 * ```ts
 * const { atLeast, atMost } = mock.verify({ path: '/v1/users/' }).times;
 * ```
 */
export interface TimesRange {
  readonly atLeast: number;
  /** Absent: no upper bound. */
  readonly atMost?: number;
}

/** A pattern once checked, ready to test journal entries. */
export interface CheckedPattern {
  /** Upper case. */
  readonly method?: string | undefined;
  readonly path?: CheckedValue | undefined;
  readonly query: readonly (readonly [string, CheckedValue])[];
  /** Names in lower case. */
  readonly headers: readonly (readonly [string, CheckedValue])[];
  /** The key as given, and the name the journal records for it (`null`: no recognised key). */
  readonly key?: { readonly given: string | null; readonly name: string | null } | undefined;
  /** Present when the pattern gives a body. */
  readonly body?: { readonly value: unknown } | undefined;
  readonly times: TimesRange;
}

/**
 * The keys a pattern's `key` may name: the server's, read when a pattern is checked.
 */
export interface KeyDirectory {
  /** The name the journal records for a key given by its well-known name, its value or its own name. */
  nameOf(key: string): string | undefined;
  /** The names a pattern may give (well-known names and every key's own), for a did-you-mean. */
  readonly names: readonly string[];
}

const MATCHER_TEXT = 'a RegExp or { matches: "<regular expression>" }';

/**
 * Checks a request pattern, from code or from JSON.
 *
 * @param input - the pattern.
 * @param keys - the server's keys, for `key`.
 * @returns the pattern, ready to test requests.
 * @throws VerifyPatternError naming the field at fault and how to fix it.
 */
export function checkPattern(input: unknown, keys: KeyDirectory): CheckedPattern {
  if (!isRecord(input))
    throw new VerifyPatternError(
      '',
      `A request pattern is an object, e.g. { method: 'POST', path: '/v1/users/' }; received ${typeName(input)}.`,
    );
  for (const name of Object.keys(input)) {
    if ((PATTERN_FIELDS as readonly string[]).includes(name)) continue;
    const closest = closestName(name, PATTERN_FIELDS);
    throw new VerifyPatternError(
      name,
      `Unknown pattern field "${name}"${closest ? ` (did you mean "${closest}"?)` : ''}: a pattern has ${PATTERN_FIELDS.join(', ')}.`,
    );
  }
  const { method, path, query, headers, key, body, times } = input as Record<string, unknown>;
  return {
    method: method === undefined ? undefined : checkMethod(method),
    path: path === undefined ? undefined : checkPath(path),
    query: query === undefined ? [] : checkQuery(query),
    headers: headers === undefined ? [] : checkHeaders(headers),
    key: key === undefined ? undefined : checkKey(key, keys),
    body: body === undefined ? undefined : { value: checkJson('body', body) },
    times: checkTimes(times),
  };
}

function checkMethod(method: unknown): string {
  if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))
    throw new VerifyPatternError(
      'method',
      `method must be an HTTP method such as "GET" or "POST" (any letter case); received ${shown(method)}.`,
    );
  return method.toUpperCase();
}

function checkPath(path: unknown): CheckedValue {
  if (typeof path === 'string') {
    if (!path.startsWith('/'))
      throw new VerifyPatternError(
        'path',
        `path must begin with "/", as the journal's paths do (e.g. "/v1/calls/", or the template "/v1/calls/{id}/"); received ${shown(path)}.`,
      );
    const match = compilePath(path);
    return { expected: path, test: (value) => match(value) !== undefined };
  }
  return checkMatcher('path', path, `path must be a path (e.g. "/v1/calls/{id}/"), ${MATCHER_TEXT}`);
}

function checkQuery(query: unknown): (readonly [string, CheckedValue])[] {
  if (!isRecord(query))
    throw new VerifyPatternError(
      'query',
      `query must be an object of parameters, e.g. { page: '2' }; received ${shown(query)}.`,
    );
  return Object.entries(query).map(([name, value]) => {
    const field = `query.${name}`;
    if (typeof value === 'number' || typeof value === 'boolean') {
      const text = String(value);
      return [name, { expected: text, test: (received) => received === text }] as const;
    }
    return [
      name,
      checkValue(field, value, `${field} must be a string, a number, a boolean, ${MATCHER_TEXT}`),
    ];
  });
}

function checkHeaders(headers: unknown): (readonly [string, CheckedValue])[] {
  if (!isRecord(headers))
    throw new VerifyPatternError(
      'headers',
      `headers must be an object of header values, e.g. { 'content-type': 'application/json' }; received ${shown(headers)}.`,
    );
  return Object.entries(headers).map(([name, value]) => {
    const lower = name.toLowerCase();
    const field = `headers.${name}`;
    if (lower === 'authorization')
      throw new VerifyPatternError(
        field,
        `${field}: the journal redacts the Authorization header's value, so a pattern cannot match it; match the key instead, e.g. key: 'valid' (a well-known key's name, a key's value, or its keyName).`,
      );
    return [lower, checkValue(field, value, `${field} must be a string, ${MATCHER_TEXT}`)] as const;
  });
}

function checkKey(key: unknown, keys: KeyDirectory): { given: string | null; name: string | null } {
  if (key === null) return { given: null, name: null };
  if (typeof key !== 'string' || key === '')
    throw new VerifyPatternError(
      'key',
      `key must be a key's name (e.g. 'valid'), its value, or null for requests without a recognised key; received ${shown(key)}.`,
    );
  const name = keys.nameOf(key);
  if (name !== undefined) return { given: key, name };
  if (key.startsWith(API_KEY_PREFIX))
    throw new VerifyPatternError('key', 'key: the mock has no key with this value.');
  const closest = closestName(key, keys.names);
  throw new VerifyPatternError(
    'key',
    `key: the mock has no key named "${key}"${closest ? ` (did you mean "${closest}"?)` : ''}; give a well-known key's name (as in mock.keys), a key's value, or a key's name as the journal records it (keyName).`,
  );
}

function checkTimes(times: unknown): TimesRange {
  if (times === undefined) return { atLeast: 1 };
  if (typeof times === 'number') return { atLeast: count('times', times), atMost: count('times', times) };
  const rule = `times must be a whole number ≥ 0 or { atLeast, atMost } (either may be left out), e.g. 1 or { atLeast: 1 }`;
  if (!isRecord(times)) throw new VerifyPatternError('times', `${rule}; received ${shown(times)}.`);
  for (const name of Object.keys(times))
    if (name !== 'atLeast' && name !== 'atMost') {
      const closest = closestName(name, ['atLeast', 'atMost']);
      throw new VerifyPatternError(
        `times.${name}`,
        `Unknown field "times.${name}"${closest ? ` (did you mean "${closest}"?)` : ''}: ${rule}.`,
      );
    }
  const atLeast = times.atLeast === undefined ? undefined : count('times.atLeast', times.atLeast);
  const atMost = times.atMost === undefined ? undefined : count('times.atMost', times.atMost);
  if (atLeast === undefined && atMost === undefined)
    throw new VerifyPatternError('times', `${rule}; received {}.`);
  if (atLeast !== undefined && atMost !== undefined && atLeast > atMost)
    throw new VerifyPatternError(
      'times',
      `times.atLeast (${atLeast}) is above times.atMost (${atMost}): no count can pass.`,
    );
  return atMost === undefined ? { atLeast: atLeast ?? 0 } : { atLeast: atLeast ?? 0, atMost };
}

function count(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new VerifyPatternError(field, `${field} must be a whole number ≥ 0; received ${shown(value)}.`);
  return value;
}

/** A string to equal, or a matcher. */
function checkValue(field: string, value: unknown, rule: string): CheckedValue {
  if (typeof value === 'string') return { expected: value, test: (received) => received === value };
  return checkMatcher(field, value, rule);
}

/** A `RegExp`, or `{ matches, flags? }`. */
function checkMatcher(field: string, value: unknown, rule: string): CheckedValue {
  let regex: RegExp;
  // Shown as given: a RegExp by its source, `{ matches }` by its own text.
  let source: string;
  if (value instanceof RegExp) {
    regex = new RegExp(value.source, value.flags.replace(/[gy]/g, ''));
    source = value.source;
  } else if (isRecord(value) && typeof value.matches === 'string') {
    source = value.matches;
    const extra = Object.keys(value).find((name) => name !== 'matches' && name !== 'flags');
    if (extra !== undefined || (value.flags !== undefined && typeof value.flags !== 'string'))
      throw new VerifyPatternError(
        field,
        `${field}: a matcher is { matches: "<regular expression>", flags?: "<flags>" }, nothing else; received ${shown(value)}.`,
      );
    try {
      regex = new RegExp(value.matches, ((value.flags as string | undefined) ?? '').replace(/[gy]/g, ''));
    } catch (error) {
      throw new VerifyPatternError(
        field,
        `${field}.matches is not a regular expression JavaScript can read: ${(error as Error).message}.`,
      );
    }
  } else throw new VerifyPatternError(field, `${rule}; received ${shown(value)}.`);
  const expected = regex.flags === '' ? { matches: source } : { matches: source, flags: regex.flags };
  return { expected, test: (received) => regex.test(received) };
}

/** A body pattern: JSON values only (no RegExp, Date, undefined or function inside). */
function checkJson(field: string, value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      checkJson(`${field}[${index}]`, item);
    });
    return value;
  }
  if (isRecord(value)) {
    for (const [name, item] of Object.entries(value)) checkJson(`${field}.${name}`, item);
    return value;
  }
  throw new VerifyPatternError(
    field,
    `${field} must be JSON (a string, a finite number, a boolean, null, an array or an object); received ${shown(value)}.`,
  );
}

/** A plain object (from JSON, or a literal): not an array, a RegExp or another class's instance. */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof RegExp) return 'a RegExp';
  return typeof value === 'object' ? `a ${value.constructor?.name ?? 'object'}` : `a ${typeof value}`;
}

/** A value as a message shows it: JSON when it is, its type otherwise. */
function shown(value: unknown): string {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return typeName(value);
  if (
    value instanceof RegExp ||
    (typeof value === 'object' && value !== null && !isRecord(value) && !Array.isArray(value))
  )
    return typeName(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return shorten(JSON.stringify(value));
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
