/**
 * The checks of `verify`, in the order they are reported.
 *
 * @example
 * ```ts
 * const failedChecks = report.checks.filter((check) => check.status === 'fail').map((check) => check.name);
 * console.log(CHECK_NAMES.filter((name) => !failedChecks.includes(name)));
 * ```
 */
export const CHECK_NAMES = [
  'records',
  'pagination',
  'ordering',
  'filters',
  'not-found',
  'unauthorized',
  'throttle',
  'webhooks',
] as const;

/**
 * One check of `verify` (see the guide for what each means).
 *
 * @example
 * ```ts
 * const check: CheckName = 'pagination';
 * ```
 */
export type CheckName = (typeof CHECK_NAMES)[number];

/**
 * One place where the server's answer differs from the contract.
 *
 * @example
 * ```ts
 * const mismatch: Mismatch = {
 *   operation: 'listUsers',
 *   request: 'GET /v1/users/?page=1&page_size=25',
 *   field: 'data[3].full_name',
 *   value: 'missing',
 *   expected: 'a string',
 * };
 * ```
 */
export interface Mismatch {
  /** The operation of the contract's endpoint table, e.g. `listUsers`. */
  operation: string;
  /** The request that got the answer, e.g. `GET /v1/users/?page=2&page_size=25`. */
  request: string;
  /** Where in the answer, e.g. `data[3].full_name`, `pagination.count`, `error.detail` or `status`. */
  field: string;
  /** What the server sent there, as JSON (`"Ada"`, `241`), or `missing`. */
  value: string;
  /** What the contract expects instead. */
  expected: string;
}

/**
 * The outcome of one check.
 *
 * @example
 * ```ts
 * for (const check of report.checks) console.log(check.status, check.name, check.summary);
 * ```
 */
export interface CheckResult {
  /** Which check. */
  name: CheckName;
  /** `fail` when any mismatch was found; `skip` when there was nothing to check (e.g. no 429 met). */
  status: 'pass' | 'fail' | 'skip';
  /** One line on what was checked, or why it was skipped. */
  summary: string;
  /** Every mismatch found. */
  mismatches: Mismatch[];
}

/** Collects what the checks found, check by check. */
export class Findings {
  readonly #mismatches = new Map<CheckName, Mismatch[]>();
  readonly #checked = new Map<CheckName, number>();
  readonly #skipped = new Map<CheckName, string>();

  /** Records a mismatch. */
  fail(check: CheckName, mismatch: Mismatch): void {
    this.#mismatches.set(check, [...(this.#mismatches.get(check) ?? []), mismatch]);
  }

  /** Counts things a check looked at (records, pages, answers). */
  checked(check: CheckName, count = 1): void {
    this.#checked.set(check, (this.#checked.get(check) ?? 0) + count);
  }

  /** Marks a check as not run, with the reason. */
  skip(check: CheckName, reason: string): void {
    this.#skipped.set(check, reason);
  }

  /** How many things a check looked at so far. */
  count(check: CheckName): number {
    return this.#checked.get(check) ?? 0;
  }

  /**
   * The results in report order.
   *
   * @param describe - the summary of a check that ran, from how many things it looked at.
   */
  results(describe: (check: CheckName, checked: number) => string): CheckResult[] {
    return CHECK_NAMES.map((name) => {
      const mismatches = this.#mismatches.get(name) ?? [];
      const skipped = this.#skipped.get(name);
      if (skipped !== undefined && mismatches.length === 0)
        return { name, status: 'skip', summary: skipped, mismatches };
      return {
        name,
        status: mismatches.length > 0 ? 'fail' : 'pass',
        summary: describe(name, this.count(name)),
        mismatches,
      };
    });
  }
}

/**
 * A value as a mismatch shows it: JSON, cut short, or `missing`.
 *
 * @param value - what the server sent.
 */
export function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  const json = JSON.stringify(value);
  return json.length > 120 ? `${json.slice(0, 117)}...` : json;
}
