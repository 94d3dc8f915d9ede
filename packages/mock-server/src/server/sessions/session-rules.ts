import type { SERVER_ONLY_OPTIONS } from '../option-names.js';
import type { MockServerOptions } from '../options.js';

/**
 * How long a session may go without a request before it ends (wall time, not the mock's clock): 30 minutes.
 *
 * @example
 * ```ts
 * const server = await startMockServer({ sessionIdleMs: 2 * DEFAULT_SESSION_IDLE_MS });
 * ```
 */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/**
 * How many sessions a server holds at most, besides its default one: 500.
 *
 * @example
 * ```ts
 * const server = await startMockServer({ maxSessions: 2 * DEFAULT_MAX_SESSIONS });
 * ```
 */
export const DEFAULT_MAX_SESSIONS = 500;

/**
 * The id of a server's default session: the world a server starts with, reached by its own keys, tokens
 * and admin token, as before sessions existed.
 *
 * @example
 * ```ts
 * const world = server.sessions.get(DEFAULT_SESSION_ID); // the server itself
 * ```
 */
export const DEFAULT_SESSION_ID = 'default';

/**
 * Options of a new session: those of a server, less what belongs to the server itself (where it answers,
 * its request log and its sessions' limits), plus `copy`. A session takes the server's origin, request body
 * limit, `onRequest` and `onUnmatchedRequest`.
 *
 * @example
 * ```ts
 * const session = server.sessions.create({ seed: 7, clock: 'frozen', quota: { requests: 5, perSeconds: 60 } });
 * ```
 */
export interface MockSessionOptions extends Omit<MockServerOptions, (typeof SERVER_ONLY_OPTIONS)[number]> {
  /**
   * With `state`: make a copy of the saved world that can live beside the world it was saved from and
   * beside other copies (default false). A restored state keeps the keys and tokens it was saved with, and no
   * two sessions may hold one, so each worker of a parallel suite could not otherwise restore the same
   * prepared world. The copy holds everything the state holds (records and their changes, clock, activity,
   * quotas and their open windows, latency, fault rates, audiences and their members, lead sources, leads
   * and conversations), but its well-known keys (`keys`) and the webhook tokens of the audiences and lead
   * sources its data generates (`tokens`, …) are its own, as a new session's are; each key keeps its saved
   * record (revoked, expired, permissions, own quota). The keys and tokens the saved world was given by value
   * or made at run time (`createKey`, a fixture's) keep their values (a state holds a key only by its hash):
   * beside a world that still holds them the copy is refused with a 409; add such keys in each copy instead.
   * A copy saves as any session does, with its own keys and tokens. Only with `state`: alone it is a
   * `RangeError`.
   *
   * @example
   * ```ts
   * const prepared = server.saveState();
   * const copy = server.sessions.create({ state: prepared, copy: true }); // beside the server's own world
   * copy.keys.valid !== server.keys.valid; // true: its own, over the same records
   * ```
   */
  copy?: boolean;
}

/**
 * Refuses `copy` given without `state`, or not a boolean.
 *
 * @param options - a session's options.
 * @throws RangeError saying that `copy` goes with `state`.
 */
export function checkCopy({ copy, state }: Pick<MockSessionOptions, 'copy' | 'state'>): void {
  if (copy === undefined) return;
  if (typeof copy !== 'boolean') throw new RangeError(`copy must be true or false (got ${String(copy)})`);
  if (state === undefined)
    throw new RangeError(
      'copy goes with state: it makes a copy of a saved world (give both, e.g. { state, copy: true }); leave it out to make a new world from the options',
    );
}

/**
 * What a 409 adds when a key or webhook token of a restored session is another open world's: why a restored
 * world holds it, and how to get past it.
 *
 * @param copy - whether the state was restored as a copy.
 * @param kept - whether the one taken is a key or token a copy keeps as saved (given by value or made at run
 * time), rather than a well-known one a copy draws anew.
 * @param byServer - whether the server's own world holds it: it ends only with the server, so ending the
 * world that holds it is no way past.
 */
export function restoredRefusal(copy: boolean, kept: boolean, byServer: boolean): string {
  if (copy) {
    const remake = 'leave them out of the world you save and add them in each copy after it is made.';
    return `A copy (copy: true) draws well-known keys and webhook tokens of its own, but keeps those its saved world was given by value or made at run time (createKey, POST /__admin/keys, a fixture's): a state holds such a key only by its hash, so a copy cannot give it a value of its own. ${byServer ? `Instead, ${remake}` : `End the world that holds them first, or ${remake}`}`;
  }
  const restored = byServer
    ? "A restored state keeps the keys and tokens it was saved with, and the server's own world, which holds them until the server closes, was saved: "
    : 'A restored state keeps the keys and tokens it was saved with: end the session it was saved from first, ';
  return kept
    ? `${restored}${byServer ? 'restore it' : 'or restore it'} in another server.`
    : `${restored}restore it in another server, or make a copy of it (copy: true, beside state), whose well-known keys and webhook tokens are its own.`;
}

/**
 * A session as listed: when it was made and last used, and when it ends unless used (wall time, ISO 8601).
 *
 * @example
 * ```ts
 * for (const session of server.sessions.list()) console.log(session.id, session.lastUsedAt);
 * ```
 */
export interface SessionInfo {
  /** `default`, or `s1`, `s2`, … in the order they were made. */
  readonly id: string;
  readonly createdAt: string;
  /** Its last request (API, webhook or admin), or its creation. */
  readonly lastUsedAt: string;
  /** When it ends unless used before; null for the default session, or with no idle limit. */
  readonly idleEndsAt: string | null;
}

/**
 * Why a session control refused: 403 (a session's admin token reaches only its own session), 404 (no
 * session has this id), 409 (the sessions are full, or a key, token or admin token is another session's).
 * The admin API answers it with this status and message.
 *
 * @example
 * ```ts
 * try { server.sessions.create(); } catch (error) { if (error instanceof SessionRefusedError) console.log(error.status); }
 * ```
 */
export class SessionRefusedError extends Error {
  override readonly name = 'SessionRefusedError';
  /** The admin API's status for it. */
  readonly status: 403 | 404 | 409;

  /**
   * @param status - the admin API's status.
   * @param message - what was refused and how to get past it.
   */
  constructor(status: 403 | 404 | 409, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * The limits of a server's sessions, from its options.
 *
 * @throws RangeError when `maxSessions` or `sessionIdleMs` is not a whole number in bounds.
 */
export function sessionLimits(options: Pick<MockServerOptions, 'maxSessions' | 'sessionIdleMs'>): {
  readonly maxSessions: number;
  readonly idleMs: number | false;
} {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!Number.isInteger(maxSessions) || maxSessions < 0)
    throw new RangeError(`maxSessions must be a whole number ≥ 0 (got ${String(maxSessions)})`);
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  if (idleMs !== false && (!Number.isInteger(idleMs) || idleMs < 1))
    throw new RangeError(`sessionIdleMs must be a whole number of ms ≥ 1, or false (got ${String(idleMs)})`);
  return { maxSessions, idleMs };
}

const IDLE_UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Reads `--session-idle`: a whole number of seconds, minutes or hours (`90s`, `30m`, `2h`), or `never`.
 *
 * @param raw - the flag's value.
 * @returns ms, or false for never.
 * @throws Error saying what to write.
 */
export function parseSessionIdle(raw: string): number | false {
  if (raw === 'never') return false;
  const match = /^(\d+)(s|m|h)$/.exec(raw);
  const ms = match ? Number(match[1]) * (IDLE_UNITS[match[2] as string] as number) : 0;
  if (!Number.isSafeInteger(ms) || ms < 1)
    throw new Error(`expects a time such as 90s, 30m or 2h (at least 1s), or never; got "${raw}"`);
  return ms;
}

/**
 * An idle time in words, in the unit `--session-idle` would take: `30 minutes`, `1 hour`, `90 seconds`.
 *
 * @param ms - the idle time.
 */
export function idleText(ms: number): string {
  const [unit, size] =
    ms % 3_600_000 === 0 ? ['hour', 3_600_000] : ms % 60_000 === 0 ? ['minute', 60_000] : ['second', 1000];
  const count = ms / size;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
