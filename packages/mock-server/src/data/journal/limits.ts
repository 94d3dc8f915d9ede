/**
 * The most entries each journal of a mock server (its requests, its changes) keeps by default: 10,000, the
 * newest. A test reads what it just did, and 10,000 is far more than one test does, or a day of the default
 * activity brings; whatever a mock that lives for months is sent and brings, its journals hold at most about
 * 3 MB of requests (10 MB if each had a small JSON body: about 300 bytes a request, 1 KB with a body) and
 * 330 KB of changes (33 bytes a change). A run that needs more reads as it goes (`since`), or raises
 * `journalLimit` (`Infinity`, `--journal-limit all`, keeps every entry, and the memory they take).
 *
 * @example
 * ```ts
 * const server = createMockServer({ journalLimit: 10 * DEFAULT_JOURNAL_LIMIT });
 * ```
 */
export const DEFAULT_JOURNAL_LIMIT = 10_000;

/** What a journal's limit must be, in words every caller puts in its own sentence. */
export const JOURNAL_LIMIT_RULE = 'a whole number from 0 (none kept), or Infinity to keep every entry';
/** The same rule, as the command line writes it. */
export const JOURNAL_LIMIT_FLAG_RULE = 'a whole number from 0 (none kept), or all to keep every entry';
/** What a read's `since` and `limit` must be: a whole number from `min`, and what it means. */
const READ_RULES = {
  since: {
    min: 0,
    text: 'a whole number from 0: the seq of the last entry you read (0 for the oldest held)',
  },
  limit: { min: 1, text: 'a whole number from 1: the most entries to read at once' },
} as const;

/**
 * How much of a journal to read: the entries after `since`, at most `limit` of them. A run that reads as it
 * goes passes the `seq` of the last entry it read, and reads only what is new.
 *
 * @example
 * ```ts
 * const first = server.journal({ limit: 100 });
 * const next = server.journal({ since: first.at(-1)?.seq ?? 0, limit: 100 } satisfies JournalReadOptions);
 * ```
 */
export interface JournalReadOptions {
  /** Only entries whose `seq` is above this (default 0: from the oldest held). */
  since?: number;
  /** The most entries to read (default: all). */
  limit?: number;
}

const isWhole = (value: unknown, min: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

/**
 * Checks a journal's limit.
 *
 * @param limit - the limit given.
 * @param where - what gave it, for the message (e.g. `journalLimit`).
 * @returns the limit.
 * @throws RangeError saying what the limit must be.
 */
export function checkJournalLimit(limit: number, where: string): number {
  if (limit === Number.POSITIVE_INFINITY || isWhole(limit, 0)) return limit;
  throw new RangeError(`${where} must be ${JOURNAL_LIMIT_RULE}, got ${String(limit)}`);
}

/**
 * Checks how much of a journal to read.
 *
 * @param options - `since` and `limit`, either absent.
 * @returns both, defaults filled in.
 * @throws RangeError naming the one out of bounds and what it must be.
 */
export function checkReadOptions(options: JournalReadOptions): { since: number; limit: number } {
  const { since = 0, limit = Number.POSITIVE_INFINITY } = options;
  if (!isWhole(since, READ_RULES.since.min)) throw readProblem('since', String(since));
  if (limit !== Number.POSITIVE_INFINITY && !isWhole(limit, READ_RULES.limit.min))
    throw readProblem('limit', String(limit));
  return { since, limit };
}

function readProblem(name: keyof typeof READ_RULES, shown: string): RangeError {
  return new RangeError(`${name} must be ${READ_RULES[name].text}, got ${shown}`);
}

/**
 * How much of a journal the admin API is asked to read: `?since=<seq>&limit=<n>`, each optional.
 *
 * @param query - the request's query.
 * @returns the options (checked).
 * @throws RangeError naming the parameter, what it must be and what was given (the admin API's 400).
 */
export function readOptionsFromQuery(query: URLSearchParams): JournalReadOptions {
  const options: JournalReadOptions = {};
  for (const name of ['since', 'limit'] as const) {
    const raw = query.get(name);
    if (raw === null) continue;
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!isWhole(value, READ_RULES[name].min)) throw readProblem(name, JSON.stringify(raw));
    options[name] = value;
  }
  return options;
}

/**
 * Reads `--journal-limit`: a whole number, or `all`.
 *
 * @param raw - the flag's value.
 * @returns the limit (Infinity for `all`).
 * @throws Error saying what the flag expects.
 */
export function parseJournalLimit(raw: string): number {
  if (raw === 'all') return Number.POSITIVE_INFINITY;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw new Error(`expects ${JOURNAL_LIMIT_FLAG_RULE}, got "${raw}"`);
  return value;
}
