import type { JournalEntry } from '../../serve/engine/request-journal.js';
import type { RequestDifference } from './match.js';
import type { CheckedPattern, CheckedValue, TimesRange } from './pattern.js';

/**
 * A request of the journal that did not match a pattern, with every way it differs.
 *
 * @example
 * ```ts
 * try {
 *   mock.verify({ method: 'POST', path: '/v1/outbound-campaigns/webhook/{token}/' });
 * } catch (error) {
 *   if (error instanceof VerificationError)
 *     for (const miss of error.result.nearMisses) console.log(miss.request.path, miss.differences);
 * }
 * ```
 */
export interface NearMiss {
  /** The request, as `mock.journal()` gives it. */
  readonly request: JournalEntry;
  /** How it differs from the pattern, in the order of the pattern's fields. */
  readonly differences: readonly RequestDifference[];
}

/** How many requests a report lists: the closest near misses, or the first requests that matched. */
export const REPORTED_REQUESTS = 3;

/** The longest a value is shown in a report before it is cut (with `…`). */
const SHOWN_CHARS = 120;

/**
 * The near misses closest to a pattern, closest first: fewest fields differing (the method, the path, the
 * query, the headers, the key, the body: each counts once); among those, a request to the pattern's path
 * first (the path names the operation); then the fewest differences, a body counting each value it lacks,
 * and one more when it is not even the kind of value expected (so a body with one field wrong is closer
 * than a body of another kind, or none); then the newest.
 *
 * @param misses - the requests that did not match, oldest first.
 * @returns at most {@link REPORTED_REQUESTS} of them.
 */
export function closestMisses(misses: readonly NearMiss[]): NearMiss[] {
  return misses
    .map((miss, index) => ({
      miss,
      index,
      fields: new Set(miss.differences.map((difference) => difference.field)).size,
      path: miss.differences.some((difference) => difference.field === 'path') ? 1 : 0,
      weight: miss.differences.reduce((sum, difference) => sum + weightOf(difference), 0),
    }))
    .sort((a, b) => a.fields - b.fields || a.path - b.path || a.weight - b.weight || b.index - a.index)
    .slice(0, REPORTED_REQUESTS)
    .map(({ miss }) => miss);
}

/** How much a difference weighs: one; for a body, each value of the expected part, and one for the body itself. */
function weightOf(difference: RequestDifference): number {
  if (difference.field !== 'body') return 1;
  return leaves(difference.expected) + (difference.name === undefined ? 1 : 0);
}

/** The values at the ends of a JSON value: 1 for a string, number, boolean, null, or an empty object or array. */
function leaves(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  const children = Object.values(value);
  return children.length === 0 ? 1 : children.reduce((sum: number, child) => sum + leaves(child), 0);
}

/**
 * How many requests a `times` asks for, in words: `exactly 1 request`, `no request`, `at least 2 requests`,
 * `at most 3 requests`, `from 1 to 3 requests`.
 */
export function timesText({ atLeast, atMost }: TimesRange): string {
  if (atMost === 0) return 'no request';
  if (atMost === undefined) return `at least ${requests(atLeast)}`;
  if (atLeast === atMost) return `exactly ${requests(atLeast)}`;
  if (atLeast === 0) return `at most ${requests(atMost)}`;
  return `from ${atLeast} to ${requests(atMost)}`;
}

/** `1 request`, `2 requests`. */
export function requests(count: number): string {
  return `${count} ${count === 1 ? 'request' : 'requests'}`;
}

/**
 * A pattern in words: `POST /v1/users/{id}/ with query {"page":"2"}, key "valid" ("Full access"), body {…}`;
 * `any method`, `any path` for what it leaves out.
 */
export function patternText(pattern: CheckedPattern): string {
  const expected = pattern.path?.expected;
  const path =
    expected === undefined ? 'any path' : typeof expected === 'string' ? expected : regexText(expected);
  const parts: string[] = [];
  if (pattern.query.length > 0) parts.push(`query ${cut(JSON.stringify(expectations(pattern.query)))}`);
  if (pattern.headers.length > 0) parts.push(`headers ${cut(JSON.stringify(expectations(pattern.headers)))}`);
  const { key, body } = pattern;
  if (key !== undefined)
    parts.push(
      key.name === null
        ? 'no key'
        : key.given === key.name
          ? `key ${JSON.stringify(key.name)}`
          : `key ${JSON.stringify(key.given)} (${JSON.stringify(key.name)})`,
    );
  if (body !== undefined) parts.push(`body ${cut(JSON.stringify(body.value))}`);
  const head = `${pattern.method ?? 'any method'} ${path}`;
  return parts.length === 0 ? head : `${head} with ${parts.join(', ')}`;
}

/** A request of the journal in one line: `GET /v1/calls/?page=2, answered 200, at 2026-06-01T12:00:00.000Z`. */
export function requestLine(entry: JournalEntry): string {
  const search = new URLSearchParams(entry.query).toString();
  const answered = entry.status === null ? 'not answered' : `answered ${entry.status}`;
  return `${entry.method} ${entry.path}${search === '' ? '' : `?${search}`}, ${answered}, at ${entry.at}`;
}

/**
 * One difference in one line: `method: expected "POST", received "GET"`, `query page: expected "2",
 * received none`, `header content-type: …`, `key: …`, `body.phone: …`.
 */
export function differenceLine(difference: RequestDifference): string {
  const { field, name } = difference;
  const label =
    field === 'query' || field === 'header'
      ? `${field} ${name}`
      : field === 'body' && name !== undefined
        ? `body${name.startsWith('[') ? '' : '.'}${name}`
        : field;
  // A body is JSON, where `{ matches }` is a value like any other; a key of null is none.
  const shown = (value: unknown) =>
    field === 'body' ? json(value) : field === 'key' && value === null ? 'none' : ruleText(value);
  const received = 'received' in difference ? shown(difference.received) : 'none';
  return `${label}: expected ${shown(difference.expected)}, received ${received}`;
}

/**
 * A numbered list of requests, each with its differences when it has some, and how many more there were.
 *
 * @param items - the requests to show (at most {@link REPORTED_REQUESTS} are).
 * @param total - how many there were in all.
 */
export function requestList(items: readonly NearMiss[], total = items.length): string[] {
  const lines = items
    .slice(0, REPORTED_REQUESTS)
    .flatMap((item, index) => [
      `${index + 1}. ${requestLine(item.request)}`,
      ...item.differences.map((difference) => `   - ${differenceLine(difference)}`),
    ]);
  const shown = Math.min(items.length, REPORTED_REQUESTS);
  if (total > shown) lines.push(`… and ${total - shown} more.`);
  return lines;
}

function expectations(rules: readonly (readonly [string, CheckedValue])[]): Record<string, unknown> {
  return Object.fromEntries(rules.map(([name, rule]) => [name, rule.expected]));
}

/**
 * What a string rule expects (or a string a request had), as a report shows it: a `{ matches }` rule as
 * `a string matching /…/`, a string as JSON (in quotes), cut.
 */
function ruleText(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'matches' in value && typeof value.matches === 'string')
    return `a string matching ${regexText(value as CheckedValue['expected'] & object)}`;
  return json(value);
}

/** A `{ matches, flags? }` rule as a regular expression literal: `/^\/v1\//i`. */
function regexText(rule: { readonly matches: string; readonly flags?: string }): string {
  return String(new RegExp(rule.matches, rule.flags ?? ''));
}

/** A value as JSON, cut. */
function json(value: unknown): string {
  return cut(JSON.stringify(value) ?? String(value));
}

function cut(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
}
