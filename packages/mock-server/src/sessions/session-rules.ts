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
 * its request log and its sessions' limits). A session takes the server's origin, request body limit,
 * `onRequest` and `onUnmatchedRequest`.
 *
 * @example
 * ```ts
 * const session = server.sessions.create({ seed: 7, clock: 'frozen', quota: { requests: 5, perSeconds: 60 } });
 * ```
 */
export type MockSessionOptions = Omit<
  MockServerOptions,
  'origin' | 'maxBodyBytes' | 'onRequest' | 'onUnmatchedRequest' | 'maxSessions' | 'sessionIdleMs'
>;

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
