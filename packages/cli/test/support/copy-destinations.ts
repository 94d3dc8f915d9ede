// The two destinations of `company-data export|sync`, as the tests of overlapping runs read them back: an
// NDJSON file, or a table of a PostgreSQL started for the test (skipped loudly where PostgreSQL is missing,
// never under CI).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { PostgresServer } from '../../../../scripts/lib/postgres-server.mjs';

/** Where a test's runs copy to, the flags that say so, and what the copy holds. */
export interface TestDestination {
  readonly kind: 'file' | 'postgres';
  /** How the command's messages name it. */
  readonly name: string;
  /** The flags of `company-data export|sync` that name it. */
  readonly flags: readonly string[];
  /** The records of the copy, in the order stored (a file's lines; a table's rows by id). */
  records(): Promise<{ id: string; [field: string]: unknown }[]>;
}

/** An NDJSON file in `dir`. */
export function fileDestination(dir: string, name = 'calls.ndjson'): TestDestination {
  const file = join(dir, name);
  return {
    kind: 'file',
    name: file,
    flags: ['--out', file],
    async records() {
      const text = await readFile(file, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    },
  };
}

/** A PostgreSQL for a test file, or undefined (skipped loudly) where there is none outside CI. */
export async function postgresForTests(): Promise<PostgresServer | undefined> {
  const { postgresOrSkip, startPostgres } = await import('../../../../scripts/lib/postgres-server.mjs');
  const postgres = postgresOrSkip();
  return postgres === undefined ? undefined : startPostgres({ postgres });
}

/** The table of `list` in `schema` of `server`. */
export function postgresDestination(server: PostgresServer, schema: string, list = 'calls'): TestDestination {
  return {
    kind: 'postgres',
    name: `${schema}.${list}`,
    flags: ['--to', server.url, '--schema', schema],
    async records() {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        const exists = await client.query('select to_regclass($1) as table', [`"${schema}"."${list}"`]);
        if (exists.rows[0]?.table === null) return [];
        const { rows } = await client.query(`select record from "${schema}"."${list}" order by id`);
        return rows.map((row: { record: { id: string } }) => row.record);
      } finally {
        await client.end();
      }
    },
  };
}

/** A PostgreSQL of a test file's own with a client connected to it; `stop` ends both. */
export interface TestDatabase {
  readonly server: PostgresServer;
  readonly db: pg.Client;
  stop(): Promise<void>;
}

/** {@link postgresForTests} and a client connected to it, or undefined where there is no PostgreSQL. */
export async function databaseForTests(): Promise<TestDatabase | undefined> {
  const server = await postgresForTests();
  if (server === undefined) return undefined;
  const db = new pg.Client({ connectionString: server.url });
  await db.connect();
  return {
    server,
    db,
    async stop() {
      await db.end();
      await server.stop();
    },
  };
}
