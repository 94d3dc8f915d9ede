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

/** What {@link upsertDiffering} wrote. */
export interface Upserted {
  /** Rows of ids the table did not hold. */
  readonly inserted: number;
  /** Rows whose stored record differed from the one given, now replaced (with `copied_at` now). */
  readonly replaced: number;
}

/**
 * Upserts records into a list's table by content: a new id is inserted, a known one replaced only when its
 * stored record differs (`jsonb` equality, so key order does not count), and an equal one left as it is.
 *
 * @returns the rows inserted and replaced.
 */
export async function upsertDiffering(
  client: Client,
  table: string,
  list: CopyListName,
  records: readonly unknown[],
): Promise<Upserted> {
  if (records.length === 0) return { inserted: 0, replaced: 0 };
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
  // `xmax = 0` only on a row this statement inserted: an updated row carries the updating transaction's id.
  const { rows } = await client.query<{ inserted: string; replaced: string }>(
    `with written as (
       insert into ${table} as t (${names.join(', ')})
       select ${values.join(', ')} from jsonb_array_elements($1::jsonb) as r
       on conflict (id) do update set ${updates} where t.record is distinct from excluded.record
       returning (xmax = 0) as inserted
     )
     select count(*) filter (where inserted) as inserted, count(*) filter (where not inserted) as replaced
       from written`,
    [JSON.stringify(records)],
  );
  return { inserted: Number(rows[0]?.inserted ?? 0), replaced: Number(rows[0]?.replaced ?? 0) };
}

/**
 * Upserts records into a list's table: a new id is inserted, a known one replaced when its content differs
 * ({@link upsertDiffering}).
 *
 * @returns the rows inserted or replaced.
 */
export async function upsertRecords(
  client: Client,
  table: string,
  list: CopyListName,
  records: readonly unknown[],
): Promise<number> {
  const { inserted, replaced } = await upsertDiffering(client, table, list, records);
  return inserted + replaced;
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

/**
 * Compares records of the list with a list's table in one statement: each record with its row (`jsonb`
 * equality: the same content whatever the order of its keys), and notes their ids, and `alsoSeen`, in a
 * table of ids seen ({@link startSeenIds}).
 *
 * @param seen - the table of ids seen.
 * @param records - records of the list, as the API gave them.
 * @param alsoSeen - ids the list showed that are not compared (records newer than the copy's checkpoint).
 * @returns the ids of the records the table lacks, and of those whose row holds another content.
 */
export async function compareRecords(
  client: Client,
  table: string,
  seen: string,
  records: readonly unknown[],
  alsoSeen: readonly string[],
): Promise<{ missing: string[]; stale: string[] }> {
  const { rows } = await client.query<{ id: string; missing: boolean }>(
    `with page as (select r from jsonb_array_elements($1::jsonb) as r),
     seen as (
       insert into ${seen} (id)
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
 * The ids of a list's table that a table of ids seen ({@link startSeenIds}) lacks, in id order, `limit` at a
 * time.
 *
 * @param after - the last id of the previous batch ('' for the first).
 * @returns up to `limit` ids after `after`.
 */
export async function unseenIds(
  client: Client,
  table: string,
  seen: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `select t.id from ${table} t
      where t.id > $1 and not exists (select 1 from ${seen} s where s.id = t.id)
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

/**
 * A table of ids seen: those a walk met, or those a check found in the list. Temporary, its connection's
 * own and gone with it (a run that dies loses them, and its resumed run does not delete what it did not
 * meet), filled page by page in the pages' transactions; then the rows it lacks are what left the list
 * ({@link deleteUnmet}, {@link unseenIds}).
 *
 * @param purpose - what keeps it (`met`, `check`), so that a copy and a check on one connection keep apart.
 * @returns the qualified name of the (emptied) table.
 */
export async function startSeenIds(
  client: Client,
  purpose: string,
  schema: string,
  list: CopyListName,
): Promise<string> {
  const seen = `pg_temp.${quote(`company_data ${purpose} ${schema}.${list}`.slice(0, 63))}`;
  await client.query(`create temporary table if not exists ${seen} (id text primary key)`);
  await client.query(`truncate ${seen}`);
  return seen;
}

/** Adds ids to a table of ids seen ({@link startSeenIds}), in the page's transaction. */
export async function addSeenIds(client: Client, seen: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await client.query(`insert into ${seen} select unnest($1::text[]) on conflict do nothing`, [ids]);
}

/**
 * Deletes the rows created within `span` (inclusive; a `null` end is open) that the walk did not meet (its
 * table of ids seen, `met`): they left the list.
 *
 * @returns the rows deleted.
 */
export async function deleteUnmet(
  client: Client,
  table: string,
  met: string,
  span: { readonly from: string | null; readonly to: string | null },
): Promise<number> {
  const result = await client.query(
    `delete from ${table} t
      where ($1::timestamptz is null or t.created_at >= $1::timestamptz)
        and ($2::timestamptz is null or t.created_at <= $2::timestamptz)
        and not exists (select 1 from ${met} m where m.id = t.id)`,
    [span.from, span.to],
  );
  return result.rowCount ?? 0;
}
