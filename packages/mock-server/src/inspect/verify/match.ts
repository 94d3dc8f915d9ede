import type { JournalEntry } from '../../serve/engine/request-journal.js';
import type { CheckedPattern } from './pattern.js';

/**
 * A part of a request a pattern can give: the method, the path, a query parameter, a header, the key or
 * (a place in) the body.
 *
 * @example
 * ```ts
 * const fields: DifferenceField[] = ['method', 'path', 'query', 'header', 'key', 'body'];
 * ```
 */
export type DifferenceField = 'method' | 'path' | 'query' | 'header' | 'key' | 'body';

/**
 * One way a request differs from a pattern: the field, what the pattern expected and what the request had.
 *
 * @example
 * ```ts
 * const difference: RequestDifference = { field: 'query', name: 'page', expected: '2', received: '1' };
 * ```
 */
export interface RequestDifference {
  readonly field: DifferenceField;
  /**
   * The query parameter, the header (lower case) or the place in the body (`custom_fields.plan`,
   * `tags[0]`); absent for the method, the path, the key and the body as a whole.
   */
  readonly name?: string;
  /**
   * What the pattern expected: a string, `{ matches, flags? }` for a regular expression, the key's name
   * (`null`: no recognised key), or the body's JSON.
   */
  readonly expected: unknown;
  /** What the request had; absent when it had none (no such parameter, header, key, field or body). */
  readonly received?: unknown;
}

/** What a request lacks: it has no such parameter, header, field or body. */
const NONE = Symbol('none');

/**
 * How a journal entry differs from a pattern, in the order of the pattern's fields; empty when it matches.
 * `times` is not a request's: it is counted over the journal.
 *
 * @param entry - a request of the journal.
 * @param pattern - the checked pattern.
 */
export function differences(entry: JournalEntry, pattern: CheckedPattern): RequestDifference[] {
  const found: RequestDifference[] = [];
  const add = (field: DifferenceField, name: string | undefined, expected: unknown, received: unknown) => {
    const difference: { -readonly [K in keyof RequestDifference]: RequestDifference[K] } = {
      field,
      expected,
    };
    if (name !== undefined) difference.name = name;
    if (received !== NONE) difference.received = received;
    found.push(difference);
  };
  if (pattern.method !== undefined && entry.method !== pattern.method)
    add('method', undefined, pattern.method, entry.method);
  if (pattern.path !== undefined && !pattern.path.test(entry.path))
    add('path', undefined, pattern.path.expected, entry.path);
  for (const [name, value] of pattern.query) {
    const received = Object.hasOwn(entry.query, name) ? entry.query[name] : undefined;
    if (received === undefined || !value.test(received)) add('query', name, value.expected, received ?? NONE);
  }
  for (const [name, value] of pattern.headers) {
    const received = Object.hasOwn(entry.headers, name) ? entry.headers[name] : undefined;
    if (received === undefined || !value.test(received))
      add('header', name, value.expected, received ?? NONE);
  }
  if (pattern.key !== undefined && entry.keyName !== pattern.key.name)
    add('key', undefined, pattern.key.name, entry.keyName ?? NONE);
  if (pattern.body !== undefined)
    bodyDifferences(
      pattern.body.value,
      entry.body === undefined ? NONE : entry.body,
      undefined,
      (name, e, r) => add('body', name, e, r),
    );
  return found;
}

/**
 * The deep-partial match of a body, as vitest's `toMatchObject`: an object's fields given must be there and
 * match (others are ignored); an array matches element by element, with the same length; other values are
 * equal. Reports each place that differs.
 */
function bodyDifferences(
  expected: unknown,
  received: unknown,
  name: string | undefined,
  add: (name: string | undefined, expected: unknown, received: unknown) => void,
): void {
  if (isObject(expected)) {
    if (!isObject(received)) {
      add(name, expected, received);
      return;
    }
    for (const [field, value] of Object.entries(expected)) {
      const place = name === undefined ? propertyName(field) : `${name}${propertySuffix(field)}`;
      bodyDifferences(value, Object.hasOwn(received, field) ? received[field] : NONE, place, add);
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(received) || received.length !== expected.length) {
      add(name, expected, received);
      return;
    }
    expected.forEach((value, index) => {
      bodyDifferences(value, received[index], `${name ?? ''}[${index}]`, add);
    });
    return;
  }
  if (!Object.is(expected, received) && !(expected === 0 && received === 0)) add(name, expected, received);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A body field's name as the first step of a place: `phone`, or `["first name"]`. */
function propertyName(field: string): string {
  return IDENTIFIER.test(field) ? field : `[${JSON.stringify(field)}]`;
}

/** A body field's name as a later step of a place: `.phone`, or `["first name"]`. */
function propertySuffix(field: string): string {
  return IDENTIFIER.test(field) ? `.${field}` : `[${JSON.stringify(field)}]`;
}
