import { BoundedJournal, objectStore } from '../../data/journal/bounded-journal.js';
import { DEFAULT_JOURNAL_LIMIT } from '../../data/journal/limits.js';
import type { JournalOutcome, MockRequest } from '../http/types.js';
import type { Unmatched, UnmatchedReason } from '../http/unmatched.js';
import type { FaultAction, InjectedFault } from './faults.js';

/**
 * The fault an entry's request met: what was injected (without the matching rules and the injected body),
 * and `fromRate: true` when a fault rate drew it rather than an armed next-N fault.
 *
 * @example
 * ```ts
 * expect(server.journal().at(-1)?.fault).toEqual({ delayMs: 5000 });
 * ```
 */
export type JournalFault = Omit<FaultAction, 'body'> & {
  /** Drawn by a fault rate (absent for an armed next-N fault). */
  readonly fromRate?: true | undefined;
};

/**
 * One request as the journal recorded it.
 *
 * @example
 * ```ts
 * const last = server.journal().at(-1);
 * expect(last?.outcome).toBe('member_existing');
 * ```
 */
export interface JournalEntry {
  /** 1, 2, 3 … since the last reset or {@link MockServer.clearJournal}: read after it with `since`. */
  readonly seq: number;
  /** Mock-clock time the request arrived (ISO 8601). */
  readonly at: string;
  /** HTTP method. */
  readonly method: string;
  /** URL path. */
  readonly path: string;
  /** Query parameters (the last value of a repeated one). */
  readonly query: Readonly<Record<string, string>>;
  /** Request headers, lower-case names; `authorization` is redacted. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body: parsed JSON when it was JSON, otherwise the text; undefined when none. */
  readonly body: unknown;
  /** The answered status, or null when nothing was answered (a dropped connection, a client that gave up). */
  readonly status: number | null;
  /** What happened. */
  readonly outcome: JournalOutcome;
  /** Name of the API key used, when one was recognised. */
  readonly keyName: string | null;
  /** The injected fault the request met, or null. */
  readonly fault: JournalFault | null;
  /** Real milliseconds the latency profile made the answer wait (0 without one; an injected `delayMs` is in `fault`). */
  readonly latencyMs: number;
  /**
   * Why the mock could not match the request to an operation, or authenticate it, as `mock.unmatched()` lists
   * it (`detail` says what would have matched, when the mock can tell); null for a request it matched.
   */
  readonly unmatched: { readonly reason: UnmatchedReason; readonly detail: string } | null;
}

/** What the engine records of a request; decoded into a {@link JournalEntry} only when read. */
export interface RawEntry {
  /** Arrival time on the mock clock, epoch ms. */
  readonly atMs: number;
  /** The request as received. */
  readonly request: MockRequest;
  /** The answered status, or null. */
  readonly status: number | null;
  /** What happened. */
  readonly outcome: JournalOutcome;
  /** Name of the API key used, when recognised. */
  readonly keyName?: string | undefined;
  /** The fault applied, if any. */
  readonly fault?: InjectedFault | undefined;
  /** The latency profile's wait, in ms. */
  readonly latencyMs: number;
  /** Why it went unmatched, when it did. */
  readonly unmatched?: Unmatched | undefined;
}

/** The request journal: bounded, recorded cheaply and decoded only when read. */
export type RequestJournal = BoundedJournal<RawEntry, JournalEntry>;

/**
 * A request journal that keeps at most `limit` entries, the newest.
 *
 * @param limit - entries kept (0: none; Infinity: all).
 * @throws RangeError for another limit.
 */
export function requestJournal(limit: number = DEFAULT_JOURNAL_LIMIT): RequestJournal {
  return new BoundedJournal(limit, objectStore(journalEntry));
}

/**
 * A request as the journal gives it to a reader, from what the engine recorded: headers with `authorization`
 * redacted, the query and the body decoded.
 *
 * @param raw - what the engine recorded.
 * @param seq - its number in the journal.
 * @returns the entry.
 */
export function journalEntry(
  { atMs, request, status, outcome, keyName, fault, latencyMs, unmatched }: RawEntry,
  seq: number,
): JournalEntry {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name] = name === 'authorization' ? redact(value) : value;
  }
  return {
    seq,
    at: new Date(atMs).toISOString(),
    method: request.method,
    path: request.path,
    query: Object.fromEntries(new URLSearchParams(request.search)),
    headers,
    body: decodeBody(request.body),
    status,
    outcome,
    keyName: keyName ?? null,
    fault: fault === undefined ? null : appliedFault(fault),
    latencyMs,
    unmatched: unmatched === undefined ? null : { reason: unmatched.reason, detail: unmatched.detail },
  };
}

/** The parts of a fault a journal entry shows, in this order. */
const SHOWN: readonly (keyof JournalFault)[] = [
  'status',
  'headers',
  'delayMs',
  'drop',
  'drip',
  'cutAfterBytes',
  'malformedJson',
  'htmlPage',
  'fromRate',
];

/**
 * What a journal entry says of a fault: what was injected, without the matching rules and the body.
 *
 * @param fault - the fault as armed or drawn.
 * @returns the parts it gives.
 */
export function appliedFault(fault: InjectedFault): JournalFault {
  const applied: Record<string, unknown> = {};
  for (const name of SHOWN) if (fault[name] !== undefined) applied[name] = fault[name];
  return applied as JournalFault;
}

function redact(value: string): string {
  const space = value.indexOf(' ');
  return space > 0 ? `${value.slice(0, space)} [REDACTED]` : '[REDACTED]';
}

function decodeBody(body: Uint8Array | undefined): unknown {
  if (body === undefined || body.length === 0) return undefined;
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
