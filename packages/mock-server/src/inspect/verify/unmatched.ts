import { closestName } from '@company-data/contract/runtime';
import type { UnmatchedReason } from '../../serve/http/unmatched.js';
import { redactTokens } from '../request-log.js';

/**
 * A request the mock could not match to an operation of the API, or could not authenticate: an unknown
 * path or method, a missing, unknown, revoked or expired key, an unknown webhook token. It was answered
 * as the API answers it (404, 405 or 401) and journaled as usual.
 *
 * @example
 * ```ts
 * for (const request of mock.unmatched()) console.log(request.method, request.path, request.detail);
 * ```
 */
export interface UnmatchedRequest {
  /** Mock-clock time it arrived (ISO 8601). */
  readonly at: string;
  /** HTTP method. */
  readonly method: string;
  /** URL path, as received. */
  readonly path: string;
  /** The status it was answered: 401, 404 or 405. */
  readonly status: number;
  /** Why it went unmatched. */
  readonly reason: UnmatchedReason;
  /** Why, in words, with what would have matched when the mock can tell (`did you mean /v1/users/?`). */
  readonly detail: string;
  /** The session it reached (`s1`, …); absent for the server's own world, the default session. */
  readonly session?: string;
}

/**
 * What the mock does with a request it cannot match (see {@link UnmatchedRequest}), besides answering it as
 * the API does and listing it in `mock.unmatched()`:
 *
 * - `'ignore'` (the default): nothing more;
 * - `'warn'`: writes a line saying why on stderr (`console.warn`);
 * - `'error'`: writes that line (`console.error`), and fails the test: the next `mock.verify()` (and the
 *   vitest matchers) throws, listing it, or else `mock.close()` rejects with an {@link UnmatchedRequestError};
 * - a function: called with the request; what it throws fails the test as `'error'` does.
 *
 * @example
 * ```ts
 * const strict = createMockServer({ onUnmatchedRequest: 'error' });
 * const custom = createMockServer({ onUnmatchedRequest: (request) => console.log(request.detail) });
 * ```
 */
export type OnUnmatchedRequest = 'ignore' | 'warn' | 'error' | ((request: UnmatchedRequest) => void);

/** The modes of {@link OnUnmatchedRequest} given by name: the words `--on-unmatched` takes too. */
export const UNMATCHED_MODES = ['ignore', 'warn', 'error'] as const;

/**
 * How many unmatched requests `mock.unmatched()` keeps, oldest dropped first.
 *
 * @example
 * ```ts
 * console.log(mock.unmatched().length <= UNMATCHED_LIMIT); // → true
 * ```
 */
export const UNMATCHED_LIMIT = 1_000;

/**
 * Unmatched requests the mock was told to fail on (`onUnmatchedRequest: 'error'`, or a function that
 * threw), not yet reported by a `verify`: `mock.close()` rejects with it.
 *
 * @example
 * ```ts
 * await mock.close().catch((error) => {
 *   if (error instanceof UnmatchedRequestError) console.log(error.requests.map((request) => request.path));
 * });
 * ```
 */
export class UnmatchedRequestError extends Error {
  /** The requests, oldest first. */
  readonly requests: readonly UnmatchedRequest[];

  /**
   * @param requests - the unmatched requests.
   * @param cause - what the `onUnmatchedRequest` function threw, when one did.
   */
  constructor(requests: readonly UnmatchedRequest[], cause?: unknown) {
    super(unmatchedReport(requests), cause === undefined ? undefined : { cause });
    this.name = 'UnmatchedRequestError';
    this.requests = requests;
  }
}

/**
 * The unmatched requests of a server: a bounded list, and those still to report under
 * `onUnmatchedRequest: 'error'` (or a function that threw).
 */
export class UnmatchedLog {
  readonly #on: OnUnmatchedRequest;
  #entries: UnmatchedRequest[] = [];
  #failing: UnmatchedRequest[] = [];
  #cause: unknown;

  /** @param on - the option, checked. */
  constructor(on: unknown) {
    this.#on = checkOnUnmatched(on);
  }

  /** Keeps a request, then does what the option says. */
  record(request: UnmatchedRequest): void {
    this.#entries.push(request);
    if (this.#entries.length > UNMATCHED_LIMIT) this.#entries.shift();
    const on = this.#on;
    if (on === 'ignore') return;
    if (on === 'warn') console.warn(unmatchedLine(request));
    else if (on === 'error') {
      console.error(unmatchedLine(request));
      this.#failing.push(request);
    } else {
      try {
        on(request);
      } catch (error) {
        this.#failing.push(request);
        this.#cause ??= error;
      }
    }
  }

  /** The requests kept, oldest first. */
  entries(): readonly UnmatchedRequest[] {
    return [...this.#entries];
  }

  /**
   * Forgets the requests kept, not those still to report: a reset of the data must not swallow a failure
   * (the next `verify`, or `close`, reports them).
   */
  clearKept(): void {
    this.#entries = [];
  }

  /** Forgets every request, those still to report included. */
  clear(): void {
    this.#entries = [];
    this.#failing = [];
    this.#cause = undefined;
  }

  /** The requests still to report, which are reported now (a second call gives none). */
  takeFailing(): readonly UnmatchedRequest[] {
    const failing = this.#failing;
    this.#failing = [];
    this.#cause = undefined;
    return failing;
  }

  /** Throws the requests still to report, if any (they are reported then). */
  throwFailing(): void {
    const cause = this.#cause;
    const failing = this.takeFailing();
    if (failing.length > 0) throw new UnmatchedRequestError(failing, cause);
  }
}

/**
 * The option's value, checked.
 *
 * @throws RangeError for anything but a mode's name or a function.
 */
function checkOnUnmatched(on: unknown): OnUnmatchedRequest {
  if (on === undefined) return 'ignore';
  if (typeof on === 'function' || (UNMATCHED_MODES as readonly unknown[]).includes(on))
    return on as OnUnmatchedRequest;
  const closest = typeof on === 'string' ? closestName(on, UNMATCHED_MODES) : undefined;
  throw new RangeError(
    `onUnmatchedRequest must be ${UNMATCHED_MODES.map((mode) => `'${mode}'`).join(', ')} or a function; received ${JSON.stringify(on) ?? typeof on}${closest ? ` (did you mean '${closest}'?)` : ''}`,
  );
}

/**
 * An unmatched request in one line, for a log (webhook tokens in its path read `{token}`).
 *
 * @param request - the request.
 * @returns e.g. `Unmatched request: GET /v1/user/, answered 404: No operation of the API has this path (did you mean /v1/users/?).`
 */
export function unmatchedLine(request: UnmatchedRequest): string {
  const where = request.session === undefined ? '' : ` in session ${request.session}`;
  return `Unmatched request${where}: ${request.method} ${redactTokens(request.path)}, answered ${request.status}: ${request.detail}`;
}

/**
 * Unmatched requests as a report's section: a heading, then one numbered line each.
 *
 * @param requests - the requests, oldest first.
 */
export function unmatchedReport(requests: readonly UnmatchedRequest[]): string {
  const heading = `The mock could not match ${requests.length} ${requests.length === 1 ? 'request' : 'requests'}:`;
  const lines = requests.map(
    (request, index) =>
      `${index + 1}. ${request.method} ${request.path}, answered ${request.status}, at ${request.at}: ${request.detail}`,
  );
  return [heading, ...lines].join('\n');
}
