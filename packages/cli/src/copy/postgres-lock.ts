// One run at a time on a copy in PostgreSQL: a session-level advisory lock named after the list's table,
// which PostgreSQL releases itself when the holder's connection ends (a SIGKILL, a crash), and the holder
// named from its session's application name.
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Client } from 'pg';
import { CopyLockedError } from './errors.js';
import type { LockOptions } from './file-lock.js';
import type { LockHolder } from './lock-holder.js';

/** How often a run waiting for the lock tries again. */
const RETRY_MS = 250;

/**
 * The name of the advisory lock of a list's copy in a schema: every run that writes the copy (an export, a
 * sync, a check's repair) takes this one, so two of them never write it at once.
 *
 * @param schema - the copy's schema.
 * @param list - the list copied.
 * @returns the key, hashed by PostgreSQL (`hashtextextended(key, 0)`) into the lock's number.
 */
export function copyLockKey(schema: string, list: string): string {
  return `company-data copy ${schema}.${list}`;
}

/** The application name a run connects with: how another run names it (at most 63 bytes are kept). */
export function applicationName(command: string | undefined): string {
  return `company-data pid=${process.pid} host=${hostname()} ${command ?? ''}`.trim().slice(0, 63);
}

/** Who holds the lock, from the holder's session: its application name when it is a run of ours. */
function holderFrom(row: {
  pid: number;
  application_name: string;
  backend_start: Date;
  client_addr: string | null;
}): LockHolder {
  const ours = /^company-data pid=(\d+) host=(\S+)\s*(.*)$/.exec(row.application_name);
  if (ours)
    return {
      pid: Number(ours[1]),
      host: ours[2] as string,
      since: row.backend_start.toISOString(),
      command: ours[3] || undefined,
    };
  return {
    pid: row.pid,
    host: row.client_addr ?? 'the database host',
    since: row.backend_start.toISOString(),
    command: row.application_name || 'a PostgreSQL session',
  };
}

/** Takes the session-level advisory lock named `key`, waiting as `options` allow. */
export async function takeLock(
  client: Client,
  key: string,
  destination: string,
  options: LockOptions,
): Promise<void> {
  const started = performance.now();
  let told = false;
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock(hashtextextended($1, 0)) as locked',
      [key],
    );
    if (rows[0]?.locked) return;
    const holder = await lockHolder(client, key);
    const waited = performance.now() - started;
    if (waited >= (options.wait ?? 0)) {
      const end = holder
        ? ` If that run is gone (its machine lost power and the database has not noticed yet), end its session: select pg_terminate_backend(${holder.backendPid});`
        : '';
      throw new CopyLockedError(
        destination,
        holder?.holder,
        `${options.wait ? `Waited ${Math.round(waited / 1000)} s; run again later.` : 'Run again once it is done, or pass --wait <duration> to wait for it.'}${end}`,
      );
    }
    if (!told) options.onWait?.(holder?.holder, false);
    told = true;
    await delay(RETRY_MS, undefined, { signal: options.signal });
  }
}

/** The session holding the advisory lock `key`, if any. */
async function lockHolder(client: Client, key: string) {
  const { rows } = await client.query<{
    pid: number;
    application_name: string;
    backend_start: Date;
    client_addr: string | null;
  }>(
    `select a.pid, a.application_name, a.backend_start, host(a.client_addr) as client_addr
       from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and l.objsubid = 1
        and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)`,
    [key],
  );
  const row = rows[0];
  return row && { holder: holderFrom(row), backendPid: row.pid };
}

export async function unlock(client: Client, key: string): Promise<void> {
  await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => undefined);
}
