import { DEFAULT_JOURNAL_LIMIT } from '../../data/journal/limits.js';
import { type ChangeJournal, changeJournal } from '../../data/record-controls/change-journal.js';
import type { KeyDirectory, RequestPattern } from '../../inspect/verify/pattern.js';
import { checkPattern } from '../../inspect/verify/pattern.js';
import {
  JOURNAL_OFF,
  VerificationError,
  type VerifyResult,
  verifyRequests,
} from '../../inspect/verify/recorded-requests.js';
import { UnmatchedLog } from '../../inspect/verify/unmatched.js';
import type { UnmatchedHook } from '../../serve/engine/engine.js';
import { type RequestJournal, requestJournal } from '../../serve/engine/request-journal.js';
import type { MockJournals } from '../mock-server.js';
import type { MockServerOptions } from '../options.js';
import { caughtUpJournal } from './caught-up.js';

/**
 * What a world keeps of what happened: the requests it received (the engine writes them), the changes of
 * its records (the record editor writes them) and the requests it could not match. A test reads them
 * through {@link WorldJournals.caughtUp}, each read applying what the clock has brought first; `verify`
 * matches a pattern against the requests.
 */
export class WorldJournals {
  /** The requests received, as the engine writes them. */
  readonly requests: RequestJournal;
  /** The changes of records, as the record editor writes them. */
  readonly changes: ChangeJournal;
  /** The requests the engine could not match or authenticate. */
  readonly unmatched: UnmatchedLog;
  /** Both journals as a test reads them: each read first applies what the clock has brought. */
  readonly caughtUp: MockJournals;
  /** Whether the request journal keeps nothing (`journalLimit: 0`): then there is nothing to verify. */
  readonly #off: boolean;
  /** The session whose unmatched requests these are, if the world is a session. */
  readonly #session: string | undefined;

  /**
   * @param options - the world's `journalLimit` and `onUnmatchedRequest`.
   * @param catchUp - applies what the clock has brought, before each read.
   * @param session - the id of the session, for a session's world.
   * @throws RangeError for an invalid `onUnmatchedRequest`.
   */
  constructor(
    options: Pick<MockServerOptions, 'journalLimit' | 'onUnmatchedRequest'>,
    catchUp: () => void,
    session?: string,
  ) {
    const limit = options.journalLimit ?? DEFAULT_JOURNAL_LIMIT;
    this.requests = requestJournal(limit);
    this.changes = changeJournal(limit);
    this.#off = options.journalLimit === 0;
    this.#session = session;
    this.caughtUp = {
      requests: caughtUpJournal(this.requests, catchUp),
      changes: caughtUpJournal(this.changes, catchUp),
    };
    this.unmatched = new UnmatchedLog(options.onUnmatchedRequest);
  }

  /** What the engine tells of a request it could not match: kept, and reported as `onUnmatchedRequest` says. */
  readonly noteUnmatched: UnmatchedHook = (request, atMs, status, { reason, detail }) =>
    this.unmatched.record({
      at: new Date(atMs).toISOString(),
      method: request.method,
      path: request.path,
      status,
      reason,
      detail,
      ...(this.#session === undefined ? {} : { session: this.#session }),
    });

  /**
   * Matches a pattern against the requests received, and reports the unmatched requests still to report.
   *
   * @param pattern - the pattern (checked first: a bad one leaves the unmatched requests to report).
   * @param keys - the keys a pattern's `key` may name.
   * @returns the result when it holds.
   * @throws VerificationError when it does not; Error when the journal keeps nothing; VerifyPatternError
   * for a bad pattern.
   */
  verify(pattern: RequestPattern, keys: KeyDirectory): VerifyResult {
    if (this.#off) throw new Error(JOURNAL_OFF);
    const checked = checkPattern(pattern, keys);
    const requests = this.caughtUp.requests;
    const result = verifyRequests(
      requests.read().data,
      checked,
      this.unmatched.takeFailing(),
      requests.stats(),
    );
    if (!result.ok) throw new VerificationError(result);
    return result;
  }

  /** Empties both journals and the unmatched requests kept (not those still to report: see `UnmatchedLog`). */
  reset(): void {
    this.requests.clear();
    this.changes.clear();
    this.unmatched.clearKept();
  }
}
