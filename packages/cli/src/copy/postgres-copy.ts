// A copy of a list in PostgreSQL: one table per list (the record as jsonb, plus the columns people filter
// on: ./postgres-tables.ts), and one row of progress per list in `checkpoints`. Each page and its checkpoint
// are stored in ONE transaction, so a run killed at any moment leaves the page and its checkpoint, or
// neither. One run at a time: the run holds a session-level advisory lock for the whole copy
// (./postgres-lock.ts).
import type { SyncBatch } from '@company-data/sdk';
import type { Client } from 'pg';
import type { CopyDestination } from './destination.js';
import type { LockOptions } from './file-lock.js';
import type { CopyListName } from './lists.js';
import { applicationName, copyLockKey, takeLock, unlock } from './postgres-lock.js';
import {
  createTables,
  DEFAULT_SCHEMA,
  deleteRecords,
  readCheckpointRow,
  tablesOf,
  upsertRecords,
} from './postgres-tables.js';

export { DEFAULT_SCHEMA };

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
    ({ table: this.#table, checkpoints: this.#checkpoints } = tablesOf(schema, list));
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
    const schema = options.schema ?? DEFAULT_SCHEMA;
    const { checkpoints } = tablesOf(schema, list);
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
    const lockKey = lockOptions ? copyLockKey(schema, list) : undefined;
    try {
      if (lockOptions && lockKey) await takeLock(client, lockKey, `${schema}.${list}`, lockOptions);
      await createTables(client, schema, list);
      const resumed = await readCheckpointRow(client, checkpoints, list);
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
    const client = this.#client;
    await client.query('begin');
    try {
      const upserted = await upsertRecords(client, this.#table, this.#list, upserts);
      const deleted = await deleteRecords(client, this.#table, removed);
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
