import type { JournalEntry } from '../../serve/engine/request-journal.js';
import { differences } from './match.js';
import {
  closestMisses,
  type NearMiss,
  patternText,
  REPORTED_REQUESTS,
  requestList,
  requests,
  timesText,
} from './near-miss.js';
import type { CheckedPattern, TimesRange } from './pattern.js';
import { type UnmatchedRequest, unmatchedReport } from './unmatched.js';

/**
 * What `mock.verify(pattern)` found in the journal (and what `POST /__admin/verify` answers).
 *
 * @example
 * ```ts
 * const result = mock.verify({ method: 'GET', path: '/v1/calls/' });
 * console.log(`${result.count} requests listed calls`);
 * ```
 */
export interface VerifyResult {
  /** The count passed and no unmatched request is to be reported: `verify` throws unless it is true. */
  readonly ok: boolean;
  /** The number of requests that matched is within `times`. */
  readonly matched: boolean;
  /** How many requests of the journal matched. */
  readonly count: number;
  /** How many had to: `{ atLeast }`, with `atMost` when the pattern bounds it (`times: 1` is both 1). */
  readonly times: TimesRange;
  /** The pattern in words, as the message gives it: `POST /v1/users/{id}/ with body {"is_active":false}`. */
  readonly pattern: string;
  /** The requests that matched, oldest first. */
  readonly requests: readonly JournalEntry[];
  /**
   * When fewer matched than `times` asks, the closest requests that did not (at most three), closest
   * first, each with how it differs; otherwise empty.
   */
  readonly nearMisses: readonly NearMiss[];
  /**
   * Under `onUnmatchedRequest: 'error'` (or a function that threw), the requests the mock could not match
   * since the last report: reported here, and then no more (not by the next `verify`, nor by `close`).
   */
  readonly unmatched: readonly UnmatchedRequest[];
  /**
   * Requests the journal let go to stay within `journalLimit` (the oldest first): never counted, so a
   * request among them reads as not received. The message says so when the count is wrong.
   */
  readonly dropped: number;
  /** All of it in words: the error's message when `verify` throws. */
  readonly message: string;
}

/**
 * Thrown by `mock.verify(pattern)` when the count of matching requests is not what `times` asks, or when
 * unmatched requests are to be reported (`onUnmatchedRequest: 'error'`): its message is the report (the
 * closest requests and how each differs), its `result` the same as data.
 *
 * @example
 * ```ts
 * try {
 *   mock.verify({ method: 'POST', path: '/v1/users/' });
 * } catch (error) {
 *   if (error instanceof VerificationError) console.log(error.result.nearMisses[0]?.differences);
 * }
 * ```
 */
export class VerificationError extends Error {
  /** What was found. */
  readonly result: VerifyResult;

  /** @param result - what was found (its `message` becomes the error's). */
  constructor(result: VerifyResult) {
    super(result.message);
    this.name = 'VerificationError';
    this.result = result;
  }
}

/** Why `verify` cannot run on a server whose journal is off. */
export const JOURNAL_OFF =
  'verify reads the request journal, which journalLimit: 0 turns off: give journalLimit a number above 0 (the default keeps 10,000 requests).';

/**
 * Counts the requests of a journal that match a pattern and, when the count is wrong, finds the closest
 * misses and says it all in words.
 *
 * @param entries - the journal, oldest first.
 * @param pattern - the checked pattern.
 * @param unmatched - unmatched requests to report now (none unless `onUnmatchedRequest` fails on them).
 * @param journal - what the journal let go, and the most it keeps (null: every request).
 */
export function verifyRequests(
  entries: readonly JournalEntry[],
  pattern: CheckedPattern,
  unmatched: readonly UnmatchedRequest[] = [],
  journal: { readonly dropped: number; readonly limit: number | null } = { dropped: 0, limit: null },
): VerifyResult {
  const matches: JournalEntry[] = [];
  const misses: NearMiss[] = [];
  for (const request of entries) {
    const found = differences(request, pattern);
    if (found.length === 0) matches.push(request);
    else misses.push({ request, differences: found });
  }
  const { times } = pattern;
  const count = matches.length;
  const tooFew = count < times.atLeast;
  const matched = !tooFew && (times.atMost === undefined || count <= times.atMost);
  const nearMisses = tooFew ? closestMisses(misses) : [];
  const described = patternText(pattern);
  const lines: string[] = [];
  if (matched)
    lines.push(`Received ${requests(count)} matching ${described}, as expected (${timesText(times)}).`);
  else {
    lines.push(`Expected ${timesText(times)} matching ${described}, received ${count}.`);
    if (count > 0)
      lines.push(
        'Requests that matched:',
        ...requestList(
          matches.map((request) => ({ request, differences: [] })),
          count,
        ),
      );
    if (tooFew && entries.length === 0) lines.push('No request reached the mock: the journal is empty.');
    else if (tooFew && misses.length > 0)
      lines.push(
        `Closest requests that did not match, fewest differences first (${Math.min(misses.length, REPORTED_REQUESTS)} of ${misses.length}):`,
        ...requestList(nearMisses),
      );
  }
  if (!matched && journal.dropped > 0)
    lines.push(
      `The journal let go of ${requests(journal.dropped)}, the oldest, to keep the newest ${journal.limit}: ${journal.dropped === 1 ? 'it was' : 'they were'} not counted. Raise journalLimit (--journal-limit) to keep more.`,
    );
  if (unmatched.length > 0) lines.push(unmatchedReport(unmatched));
  return {
    ok: matched && unmatched.length === 0,
    matched,
    count,
    times,
    pattern: described,
    requests: matches,
    nearMisses,
    unmatched,
    dropped: journal.dropped,
    message: lines.join('\n'),
  };
}

/**
 * What an expectation that the mock did not receive a pattern's requests says when it did (the vitest
 * matchers' `.not`): the count, and the first requests that matched.
 *
 * @param result - what `verify` found.
 */
export function negatedMessage(result: VerifyResult): string {
  return [
    `Expected the mock not to have received ${timesText(result.times)} matching ${result.pattern}, but it received ${result.count}.`,
    ...(result.count > 0
      ? [
          'Requests that matched:',
          ...requestList(
            result.requests.map((request) => ({ request, differences: [] })),
            result.count,
          ),
        ]
      : []),
  ].join('\n');
}
