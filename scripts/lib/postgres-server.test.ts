// A PostgreSQL server of a test's own (scripts/lib/postgres-server.mjs): it serves SQL at its URL, its
// stop leaves neither a process nor its folder behind, and after a crash (SIGKILL) another one starts.
// Skipped, loudly, where PostgreSQL is missing outside CI; under CI its absence fails.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type PostgresServer, postgresOrSkip, startPostgres } from './postgres-server.mjs';

const postgres = postgresOrSkip();
const started: PostgresServer[] = [];

afterEach(async () => {
  for (const server of started.splice(0)) await server.stop();
});

async function start() {
  const server = await startPostgres({ postgres });
  started.push(server);
  return server;
}

/** Whether a process with this pid exists (signal 0 checks without sending). */
function exists(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

async function query<Row extends Record<string, unknown>>(url: string, sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(postgres === undefined)('startPostgres', () => {
  it('serves SQL on 127.0.0.1 from a folder of its own; stop leaves no process and no folder', async () => {
    const server = await start();
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(readFileSync(path.join(server.dir, 'PG_VERSION'), 'utf8')).toMatch(/^\d+\n$/);
    // Its own pid, not a wrapper's: the postmaster, which owns the data folder (as root: the postgres user).
    expect(readFileSync(`/proc/${server.pid}/comm`, 'utf8')).toBe('postgres\n');
    const owner = statSync(server.dir).uid;
    expect(statSync(`/proc/${server.pid}`).uid).toBe(owner);
    if (process.getuid?.() === 0) expect(owner).not.toBe(0);

    await query(server.url, 'create table company (id text primary key, name text not null, employees int)');
    await query(server.url, 'insert into company values ($1, $2, $3)', ['c_1', 'Acme GmbH', 42]);
    expect(await query(server.url, 'select id, name, employees from company')).toEqual([
      { id: 'c_1', name: 'Acme GmbH', employees: 42 },
    ]);
    const settings = await query<{ name: string; setting: string }>(
      server.url,
      "select name, setting from pg_settings where name in ('listen_addresses', 'fsync', 'unix_socket_directories') order by name",
    );
    expect(settings).toEqual([
      { name: 'fsync', setting: 'off' },
      { name: 'listen_addresses', setting: '127.0.0.1' },
      { name: 'unix_socket_directories', setting: server.dir },
    ]);

    await server.stop();
    expect(exists(server.pid)).toBe(false);
    expect(existsSync(server.dir)).toBe(false);
    await server.stop(); // idempotent
  });

  it('after kill (SIGKILL), the process is gone and a new server starts and serves', async () => {
    const killed = await start();
    await killed.kill();
    expect(exists(killed.pid)).toBe(false);
    // Refused, or reset by a child of the killed postmaster that still held its listening socket a moment:
    // either way nothing answers.
    await expect(query(killed.url, 'select 1')).rejects.toThrow(/ECONNREFUSED|ECONNRESET/);
    expect(existsSync(killed.dir)).toBe(true); // until stop

    const next = await start();
    expect(next.port).not.toBe(killed.port);
    expect(await query(next.url, 'select 1 + 1 as two')).toEqual([{ two: 2 }]);
    await killed.stop();
    expect(existsSync(killed.dir)).toBe(false);
  });

  it('restarts on the same folder and port with the same data, after a fast shutdown and after a kill', async () => {
    const server = await start();
    await query(server.url, 'create table company (id text primary key, name text not null)');
    await query(server.url, 'insert into company values ($1, $2)', ['c_1', 'Acme GmbH']);
    const first = server.pid;

    await server.stop({ keep: true });
    expect(exists(first)).toBe(false);
    expect(existsSync(server.dir)).toBe(true);
    await expect(query(server.url, 'select 1')).rejects.toThrow(/ECONNREFUSED/);
    await server.restart();
    expect(server.pid).not.toBe(first);
    expect(readFileSync(`/proc/${server.pid}/comm`, 'utf8')).toBe('postgres\n');
    expect(await query(server.url, 'select id, name from company')).toEqual([
      { id: 'c_1', name: 'Acme GmbH' },
    ]);

    const second = server.pid;
    // Not durable by default (synchronous_commit off): a commit a kill must not lose asks to be flushed.
    await query(server.url, "set synchronous_commit = on; insert into company values ('c_2', 'Globex')");
    await server.kill();
    expect(exists(second)).toBe(false);
    await server.restart(); // crash recovery first
    expect(await query(server.url, 'select id from company order by id')).toEqual([
      { id: 'c_1' },
      { id: 'c_2' },
    ]);

    await server.stop();
    expect(exists(server.pid)).toBe(false);
    expect(existsSync(server.dir)).toBe(false);
    await expect(server.restart()).rejects.toThrow(/was stopped for good: nothing to restart/);
  });

  it('refuses to restart a server that runs', async () => {
    const server = await start();
    await expect(server.restart()).rejects.toThrow(/is running: stop or kill it first/);
  });
});

describe('startPostgres without PostgreSQL', () => {
  it('says what installs it', async () => {
    await expect(startPostgres({ postgres: '/nowhere/bin/postgres' })).rejects.toThrow(
      /no PostgreSQL server on this machine \(\/nowhere\/bin\/postgres, from Debian's package postgresql\): run `node scripts\/system-packages.mjs` as root/,
    );
  });
});
