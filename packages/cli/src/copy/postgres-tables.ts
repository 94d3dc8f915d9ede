// The tables of a copy in PostgreSQL: their names, their columns, how they are made, and the statements that
// put records in and take them out. The copy (./postgres-copy.ts) and the check of a copy (../check) write
// through these, so a row means the same whoever wrote it.
import type { Client } from 'pg';
import { COPY_LISTS, type CopyListName } from './lists.js';

/** The schema the tables go in, unless told otherwise: apart from the application's own tables. */
export const DEFAULT_SCHEMA = 'company_data';

/** `"company_data"."calls"`: a quoted identifier, whatever the name holds. */
export function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A column people filter on, taken from the record when it is stored. */
interface Column {
  readonly name: string;
  readonly type: string;
  /** SQL over `r`, the record as jsonb. */
  readonly from: string;
}

const userId: Column = { name: 'user_id', type: 'text', from: "r->'user'->>'id'" };
const startTime: Column = {
  name: 'start_time',
  type: 'timestamptz',
  from: "(r->>'start_time')::timestamptz",
};

/** Each list's table columns beyond `id`, `created_at`, `record` and `copied_at`. */
export const COLUMNS: Record<CopyListName, readonly Column[]> = {
  calls: [
    startTime,
    { name: 'source', type: 'text', from: "r->>'source'" },
    { name: 'is_excused', type: 'boolean', from: "(r->>'is_excused')::boolean" },
    userId,
  ],
  users: [
    { name: 'email', type: 'text', from: "r->>'email'" },
    { name: 'is_active', type: 'boolean', from: "(r->>'is_active')::boolean" },
  ],
  teams: [{ name: 'name', type: 'text', from: "r->>'name'" }],
  recordings: [startTime, userId],
};

/** The quoted names of a list's table and of the checkpoints table, in `schema`. */
export function tablesOf(schema: string, list: CopyListName): { table: string; checkpoints: string } {
  if (!COPY_LISTS.includes(list))
    throw new TypeError(`Unknown list "${list}": one of ${COPY_LISTS.join(', ')}.`);
  return { table: `${quote(schema)}.${quote(list)}`, checkpoints: `${quote(schema)}.checkpoints` };
}

/**
 * Upserts records into a list's table: a new id is inserted, a known one replaced (with `copied_at` now).
 *
 * @returns the rows inserted or updated.
 */
export async function upsertRecords(
  client: Client,
  table: string,
  list: CopyListName,
  records: readonly unknown[],
): Promise<number> {
  if (records.length === 0) return 0;
  const columns = COLUMNS[list];
  const names = ['id', 'created_at', ...columns.map((column) => column.name), 'record'];
  const values = [
    "r->>'id'",
    "(r->>'created_at')::timestamptz",
    ...columns.map((column) => column.from),
    'r',
  ];
  const updates = [...names.slice(1), 'copied_at']
    .map((name) => `${name} = ${name === 'copied_at' ? 'now()' : `excluded.${name}`}`)
    .join(', ');
  const result = await client.query(
    `insert into ${table} (${names.join(', ')})
     select ${values.join(', ')} from jsonb_array_elements($1::jsonb) as r
     on conflict (id) do update set ${updates}`,
    [JSON.stringify(records)],
  );
  return result.rowCount ?? 0;
}

/**
 * Deletes rows of a list's table by id.
 *
 * @returns the rows deleted (an id with no row counts for nothing).
 */
export async function deleteRecords(client: Client, table: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await client.query(`delete from ${table} where id = any($1::text[])`, [ids]);
  return result.rowCount ?? 0;
}

/** Creates the schema and tables when missing; one run at a time, so two lists started together do not clash. */
export async function createTables(client: Client, schema: string, list: CopyListName): Promise<void> {
  const table = `${quote(schema)}.${quote(list)}`;
  const columns = COLUMNS[list].map((column) => `${column.name} ${column.type},`).join('\n    ');
  await client.query('begin');
  try {
    await client.query("select pg_advisory_xact_lock(hashtextextended('company-data tables', 0))");
    await client.query(`create schema if not exists ${quote(schema)}`);
    await client.query(`create table if not exists ${quote(schema)}.checkpoints (
      list text primary key,
      checkpoint text not null,
      records bigint not null,
      complete boolean not null,
      updated_at timestamptz not null default now()
    )`);
    await client.query(`create table if not exists ${table} (
      id text primary key,
      created_at timestamptz not null,
      ${columns}
      record jsonb not null,
      copied_at timestamptz not null default now()
    )`);
    await client.query(
      `create index if not exists ${quote(`${list}_created_at`)} on ${table} (created_at desc)`,
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}
