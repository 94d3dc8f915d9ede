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

/** A list's row of progress in the checkpoints table. */
export interface CheckpointRow {
  /** The SDK checkpoint after the last page stored. */
  readonly checkpoint: string;
  /** Records in the copy. */
  readonly records: number;
  /** Whether the last run reached the end of the list. */
  readonly complete: boolean;
}

/**
 * Reads a list's row of progress.
 *
 * @returns the row, or undefined when the list was never copied into this schema.
 */
export async function readCheckpointRow(
  client: Client,
  checkpoints: string,
  list: CopyListName,
): Promise<CheckpointRow | undefined> {
  const { rows } = await client.query<{ checkpoint: string; records: string; complete: boolean }>(
    `select checkpoint, records, complete from ${checkpoints} where list = $1`,
    [list],
  );
  const row = rows[0];
  return row && { checkpoint: row.checkpoint, records: Number(row.records), complete: row.complete };
}

/**
 * Moves a list's count of records by `delta` (rows inserted less rows deleted), leaving the rest of its row
 * of progress (the checkpoint, `complete`, `updated_at`) as it is.
 */
export async function addToRecordCount(
  client: Client,
  checkpoints: string,
  list: CopyListName,
  delta: number,
): Promise<void> {
  if (delta === 0) return;
  await client.query(`update ${checkpoints} set records = records + $2 where list = $1`, [list, delta]);
}

/**
 * Sets a list's count of records to the rows its table holds, when it says otherwise (rows deleted or added
 * by hand), leaving the rest of its row of progress as it is.
 *
 * @returns the rows the table holds.
 */
export async function recountRecords(
  client: Client,
  table: string,
  checkpoints: string,
  list: CopyListName,
): Promise<number> {
  const records = await countRows(client, table);
  await client.query(`update ${checkpoints} set records = $2 where list = $1 and records <> $2`, [
    list,
    records,
  ]);
  return records;
}

/** The rows of a list's table. */
export async function countRows(client: Client, table: string): Promise<number> {
  const { rows } = await client.query<{ rows: string }>(`select count(*) as rows from ${table}`);
  return Number(rows[0]?.rows ?? 0);
}

/** Whether a list's table and the checkpoints table exist in `schema` (a check creates neither). */
export async function tablesExist(client: Client, schema: string, list: CopyListName): Promise<boolean> {
  const { table, checkpoints } = tablesOf(schema, list);
  const { rows } = await client.query<{ table: string | null; checkpoints: string | null }>(
    'select to_regclass($1) as table, to_regclass($2) as checkpoints',
    [table, checkpoints],
  );
  return rows[0]?.table != null && rows[0]?.checkpoints != null;
}

/** A check's table of the ids the list showed: temporary, its session's own, gone with its connection. */
const SEEN = 'pg_temp.company_data_check_seen';

/** Creates (or empties) the check's table of ids seen; before any transaction that only reads. */
export async function createSeenTable(client: Client): Promise<void> {
  await client.query('create temp table if not exists company_data_check_seen (id text primary key)');
  await client.query(`truncate ${SEEN}`);
}

/**
 * Compares records of the list with a list's table in one statement: each record with its row (`jsonb`
 * equality: the same content whatever the order of its keys), and notes their ids, and `alsoSeen`, in the
 * check's table of ids seen ({@link createSeenTable}).
 *
 * @param records - records of the list, as the API gave them.
 * @param alsoSeen - ids the list showed that are not compared (records newer than the copy's checkpoint).
 * @returns the ids of the records the table lacks, and of those whose row holds another content.
 */
export async function compareRecords(
  client: Client,
  table: string,
  records: readonly unknown[],
  alsoSeen: readonly string[],
): Promise<{ missing: string[]; stale: string[] }> {
  const { rows } = await client.query<{ id: string; missing: boolean }>(
    `with page as (select r from jsonb_array_elements($1::jsonb) as r),
     seen as (
       insert into ${SEEN} (id)
       select id from (select r->>'id' as id from page union all select unnest($2::text[])) as ids
       on conflict do nothing
     )
     select p.r->>'id' as id, t.id is null as missing
       from page p left join ${table} t on t.id = p.r->>'id'
      where t.id is null or t.record <> p.r`,
    [JSON.stringify(records), alsoSeen],
  );
  const missing: string[] = [];
  const stale: string[] = [];
  for (const row of rows) (row.missing ? missing : stale).push(row.id);
  return { missing, stale };
}

/**
 * The ids of a list's table that the check's table of ids seen lacks, in id order, `limit` at a time.
 *
 * @param after - the last id of the previous batch ('' for the first).
 * @returns up to `limit` ids after `after`.
 */
export async function unseenIds(
  client: Client,
  table: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `select t.id from ${table} t
      where t.id > $1 and not exists (select 1 from ${SEEN} s where s.id = t.id)
      order by t.id limit $2`,
    [after, limit],
  );
  return rows.map((row) => row.id);
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
