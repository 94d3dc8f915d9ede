import { hostname } from 'node:os';

/**
 * Who holds a copy's lock: enough for a person to find the run (`ps -p <pid>` on that host) and to judge
 * whether it is stuck.
 *
 * @example
 * ```ts
 * const holder: LockHolder = { pid: 4242, host: 'worker-1', since: '2026-11-29T03:00:00.000Z', command: 'company-data sync calls' };
 * ```
 */
export interface LockHolder {
  /** The holder's process id, on its host. */
  readonly pid: number;
  /** The holder's host name (`os.hostname()`). */
  readonly host: string;
  /** When it took the lock, ISO 8601. */
  readonly since: string;
  /** What it runs, as a person would recognise it, e.g. `company-data sync calls`. */
  readonly command?: string | undefined;
}

/**
 * The holder this process would be.
 *
 * @param command - what it runs (said to a run that finds the copy taken).
 * @param now - the current time (epoch ms).
 */
export function thisProcess(command: string | undefined, now = Date.now()): LockHolder {
  return { pid: process.pid, host: hostname(), since: new Date(now).toISOString(), command };
}

/** `pid 4242 on worker-1 (company-data sync calls), since 2026-11-29T03:00:00.000Z` */
export function describeHolder(holder: LockHolder | undefined): string {
  if (holder === undefined) return 'another run (it has not said who it is yet)';
  const command = holder.command ? ` (${holder.command})` : '';
  return `pid ${holder.pid} on ${holder.host}${command}, since ${holder.since}`;
}

/**
 * Whether the holder is a process of this host that no longer exists. Only this host's processes can be
 * looked at: a holder elsewhere is never declared dead (its lock goes stale instead).
 */
export function holderIsGone(holder: LockHolder | undefined): boolean {
  if (holder === undefined || holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Reads a holder from JSON text; undefined for anything else (a half-written or foreign file). */
export function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isSafeInteger(value.pid) || typeof value.host !== 'string' || typeof value.since !== 'string')
      return undefined;
    return {
      pid: value.pid as number,
      host: value.host,
      since: value.since,
      command: typeof value.command === 'string' ? value.command : undefined,
    };
  } catch {
    return undefined;
  }
}
