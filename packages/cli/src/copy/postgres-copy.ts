// A copy of a list in PostgreSQL: one table per list (the record as jsonb, plus the columns people filter
// on), and one row of progress per list in `checkpoints`. Each page and its checkpoint are stored in ONE
// transaction, so a run killed at any moment leaves the page and its checkpoint, or neither. One run at a
// time: the run holds a session-level advisory lock for the whole copy, which PostgreSQL releases itself when
// the holder's connection ends (a SIGKILL, a crash), so a dead run's copy is taken over at once.
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { SyncBatch } from '@company-data/sdk';
import type { Client } from 'pg';
import type { CopyDestination } from './destination.js';
import { CopyLockedError } from './errors.js';
import type { LockOptions } from './file-lock.js';
import type { LockHolder } from './holder.js';
import { COPY_LISTS, type CopyListName } from './lists.js';

/** The schema the tables go in, unless told otherwise: apart from the application's own tables. */
export const DEFAULT_SCHEMA = 'company_data';
/** How often a run waiting for the lock tries again. */
const RETRY_MS = 250;

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
const COLUMNS: Record<CopyListName, readonly Column[]> = {
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

/**
 * How to open a copy in PostgreSQL.
 *
 * @example
 * ```ts
 * const options: PostgresCopyOptions = { connectionString: process.env.DATABASE_URL, list: 'calls' };
 * ```
 */
export interface PostgresCopyOptions {
  /** `postgres://user:password@host:5432/database`; or pass `client`. */
  connectionString?: string | undefined;
  /**
   * A connected `pg` client of your own, used for the whole copy (the lock is held by its session) and
   * left open by {@link PostgresCopy.close}.
   */
  client?: Client | undefined;
  /** The list copied; its table is named after it. */
  list: CopyListName;
  /** The schema of the tables, created if missing. Default `company_data`. */
  schema?: string | undefined;
  /** How long to wait for another run, and what to call this one. `false` takes no lock. */
  lock?: LockOptions | false | undefined;
}

/** `"company_data"."calls"`: a quoted identifier, whatever the name holds. */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The application name a run connects with: how another run names it (at most 63 bytes are kept). */
function applicationName(command: string | undefined): string {
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

/**
 * A copy of one list in PostgreSQL, held by this run alone (an advisory lock on the list's table), opened
 * where the last run left it. Creates its schema and tables when missing:
 *
 * - `<schema>.<list>`: `id` (primary key), `created_at`, the columns people filter on (calls: `start_time`,
 *   `source`, `is_excused`, `user_id`; users: `email`, `is_active`; teams: `name`; recordings:
 *   `start_time`, `user_id`), `record` (the whole record, jsonb) and `copied_at`;
 * - `<schema>.checkpoints`: one row per list, the SDK checkpoint after the last page stored.
 *
 * Each {@link PostgresCopy.write} upserts the page's created and changed records, deletes its removed ones
 * and stores its checkpoint, in one transaction.
 *
 * @example
 * ```ts
 * import { PostgresCopy } from '@company-data/cli/copy';
 *
 * const copy = await PostgresCopy.open({ connectionString: process.env.DATABASE_URL, list: 'calls' });
 * try {
 *   const run = client.calls.sync({ checkpoint: copy.checkpoint, lookBack: 86_400_000 });
 *   for await (const batch of run.pages()) await copy.write(batch);
 *   await copy.complete(run.checkpoint);
 * } finally {
 *   await copy.close();
 * }
 * ```
 */
export class PostgresCopy implements CopyDestination {
  readonly appliesChanges = true;
  readonly #client: Client;
  readonly #owned: boolean;
  readonly #list: CopyListName;
  readonly #table: string;
  readonly #checkpoints: string;
  readonly #lockKey: string | undefined;
  readonly #resumed: { records: number; complete: boolean; checkpoint: string } | undefined;
  #checkpoint: string | undefined;
  #records: number;

  private constructor(
    client: Client,
    owned: boolean,
    list: CopyListName,
    schema: string,
    lockKey: string | undefined,
    resumed: { records: number; complete: boolean; checkpoint: string } | undefined,
  ) {
    this.#client = client;
    this.#owned = owned;
    this.#list = list;
    this.#table = `${quote(schema)}.${quote(list)}`;
    this.#checkpoints = `${quote(schema)}.checkpoints`;
    this.#lockKey = lockKey;
    this.#resumed = resumed;
    this.#checkpoint = resumed?.checkpoint;
    this.#records = resumed?.records ?? 0;
  }

  /**
   * Connects (unless given a client), takes the list's lock, creates the schema and tables when missing and
   * reads the last run's checkpoint.
   *
   * @param options - the database, the list, the lock.
   * @returns the copy, held by this run until {@link PostgresCopy.close}.
   * @throws {@link CopyLockedError} when another run holds the list's copy (after `lock.wait`), naming it.
   * @throws `pg`'s errors when the database cannot be reached or refuses the statements.
   */
  static async open(options: PostgresCopyOptions): Promise<PostgresCopy> {
    const { list } = options;
    if (!COPY_LISTS.includes(list))
      throw new TypeError(`Unknown list "${list}": one of ${COPY_LISTS.join(', ')}.`);
    const schema = options.schema ?? DEFAULT_SCHEMA;
    const lockOptions = options.lock === false ? undefined : (options.lock ?? {});
    let client = options.client;
    const owned = client === undefined;
    if (client === undefined) {
      const { default: pg } = await import('pg');
      client = new pg.Client({
        connectionString: options.connectionString,
        application_name: applicationName(lockOptions?.command),
        keepAlive: true,
      });
      await client.connect();
    }
    const lockKey = lockOptions ? `company-data copy ${schema}.${list}` : undefined;
    try {
      if (lockOptions && lockKey) await takeLock(client, lockKey, `${schema}.${list}`, lockOptions);
      await createTables(client, schema, list);
      const { rows } = await client.query<{ checkpoint: string; records: string; complete: boolean }>(
        `select checkpoint, records, complete from ${quote(schema)}.checkpoints where list = $1`,
        [list],
      );
      const row = rows[0];
      const resumed = row && {
        checkpoint: row.checkpoint,
        records: Number(row.records),
        complete: row.complete,
      };
      return new PostgresCopy(client, owned, list, schema, lockKey, resumed);
    } catch (error) {
      if (owned) await client.end().catch(() => undefined);
      else if (lockKey) await unlock(client, lockKey);
      throw error;
    }
  }

  /** What the last run left, if any. */
  get resumed(): { readonly records: number; readonly complete: boolean } | undefined {
    return this.#resumed;
  }

  /** The SDK checkpoint to sync from, or undefined (a full export). */
  get checkpoint(): string | undefined {
    return this.#checkpoint;
  }

  /** Records created in the copy so far, less those removed. */
  get records(): number {
    return this.#records;
  }

  /**
   * Stores one page in one transaction: created and changed records upserted, removed ones deleted, the
   * checkpoint after the page saved.
   *
   * @param batch - a batch of `run.pages()`.
   * @param complete - true for the last write of a run that reached the end.
   * @returns the rows upserted and deleted.
   * @throws `pg`'s errors (the transaction is then rolled back: neither the page nor its checkpoint stays).
   */
  async write(
    batch: Pick<SyncBatch<unknown>, 'changes' | 'checkpoint'>,
    complete = false,
  ): Promise<{ upserted: number; deleted: number }> {
    const upserts: unknown[] = [];
    const removed: string[] = [];
    let created = 0;
    for (const change of batch.changes) {
      if (change.type === 'removed') removed.push(change.id);
      else {
        upserts.push(change.record);
        if (change.type === 'created') created++;
      }
    }
    const columns = COLUMNS[this.#list];
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
    const client = this.#client;
    await client.query('begin');
    try {
      const upserted =
        upserts.length === 0
          ? 0
          : ((
              await client.query(
                `insert into ${this.#table} (${names.join(', ')})
                 select ${values.join(', ')} from jsonb_array_elements($1::jsonb) as r
                 on conflict (id) do update set ${updates}`,
                [JSON.stringify(upserts)],
              )
            ).rowCount ?? 0);
      const deleted =
        removed.length === 0
          ? 0
          : ((await client.query(`delete from ${this.#table} where id = any($1::text[])`, [removed]))
              .rowCount ?? 0);
      const records = this.#records + created - deleted;
      await client.query(
        `insert into ${this.#checkpoints} (list, checkpoint, records, complete) values ($1, $2, $3, $4)
         on conflict (list) do update set checkpoint = excluded.checkpoint, records = excluded.records,
           complete = excluded.complete, updated_at = now()`,
        [this.#list, batch.checkpoint, records, complete],
      );
      await client.query('commit');
      this.#checkpoint = batch.checkpoint;
      this.#records = records;
      return { upserted, deleted };
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
  }

  /**
   * Records that the run reached the end: its checkpoint is where the next sync starts.
   *
   * @param checkpoint - `run.checkpoint` once the run completed.
   */
  async complete(checkpoint: string): Promise<void> {
    await this.write({ changes: [], checkpoint }, true);
  }

  /** Releases the lock and, when it opened the connection, closes it. */
  async close(): Promise<void> {
    if (this.#owned) await this.#client.end();
    else if (this.#lockKey) await unlock(this.#client, this.#lockKey);
  }
}

/** Takes the session-level advisory lock named `key`, waiting as `options` allow. */
async function takeLock(
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

async function unlock(client: Client, key: string): Promise<void> {
  await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => undefined);
}

/** Creates the schema and tables when missing; one run at a time, so two lists started together do not clash. */
async function createTables(client: Client, schema: string, list: CopyListName): Promise<void> {
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
