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
import { connectForCopy } from './postgres-connect.js';
import { copyLockKey, takeLock, unlock } from './postgres-lock.js';
import {
  addSeenIds,
  countRows,
  createTables,
  DEFAULT_SCHEMA,
  deleteRecords,
  deleteUnmet,
  readCheckpointRow,
  startSeenIds,
  tablesOf,
  upsertDiffering,
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
 * Each {@link PostgresCopy.write} stores a page in one transaction: every record the walk passed upserted by
 * content (a row whose stored record differs is replaced, whatever the last run kept), the removed ones
 * deleted, and in the last batch the rows of the span the walk read in full that it did not meet deleted;
 * then the checkpoint. So the copy converges by content: a wider look-back than last time, a restored
 * database or a lost checkpoint come out equal to the list. A connection the server ends mid-run makes the
 * next statement fail ({@link PostgresCopy.connectionError} says why), never the process crash.
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
  readonly #schema: string;
  #checkpoint: string | undefined;
  #records: number;
  #applied = { created: 0, changed: 0, removed: 0 };
  /** Whether the walk being written started in this run (not resumed from another run's checkpoint). */
  #walkFresh: boolean;
  /** The current walk's met ids ({@link startSeenIds}): undefined until its first page, null when it keeps none. */
  #met: string | null | undefined;
  /** What ended the connection while the copy held it, if anything did (see the `connectionError` getter). */
  readonly #lost: { error: Error | undefined };

  private constructor(
    client: Client,
    owned: boolean,
    list: CopyListName,
    schema: string,
    lockKey: string | undefined,
    resumed: { records: number; complete: boolean; checkpoint: string } | undefined,
    lost: { error: Error | undefined },
  ) {
    this.#client = client;
    this.#lost = lost;
    this.#owned = owned;
    this.#list = list;
    ({ table: this.#table, checkpoints: this.#checkpoints } = tablesOf(schema, list));
    this.#lockKey = lockKey;
    this.#resumed = resumed;
    this.#checkpoint = resumed?.checkpoint;
    this.#records = resumed?.records ?? 0;
    this.#schema = schema;
    this.#walkFresh = resumed === undefined || resumed.complete;
  }

  /**
   * Connects (unless given a client), takes the list's lock, creates the schema and tables when missing and
   * reads the last run's checkpoint. A connection it opens has a listener for its `error` event: a server
   * that shuts down or a network that drops while the copy waits between statements ends the run with that
   * error at the next statement ({@link PostgresCopy.connectionError}), never a crash of the process. A
   * client of your own is yours to listen to.
   *
   * @param options - the database, the list, the lock.
   * @returns the copy, held by this run until {@link PostgresCopy.close}.
   * @throws {@link CopyLockedError} when another run holds the list's copy (after `lock.wait`), naming it.
   * @throws `pg`'s errors when the database cannot be reached or refuses the statements: the server's carry
   * a SQLSTATE in `code` (`28P01` a refused password, `3D000` no such database, `42501` no permission),
   * the socket's a system code (`ECONNREFUSED`).
   * @example
   * ```ts
   * const copy = await PostgresCopy.open({ connectionString: process.env.DATABASE_URL, list: 'users' });
   * await copy.close();
   * ```
   */
  static async open(options: PostgresCopyOptions): Promise<PostgresCopy> {
    const { list } = options;
    const schema = options.schema ?? DEFAULT_SCHEMA;
    const { checkpoints } = tablesOf(schema, list);
    const lockOptions = options.lock === false ? undefined : (options.lock ?? {});
    let client = options.client;
    const owned = client === undefined;
    let lost: { error: Error | undefined } = { error: undefined };
    if (client === undefined)
      ({ client, lost } = await connectForCopy(options.connectionString, lockOptions?.command));
    const lockKey = lockOptions ? copyLockKey(schema, list) : undefined;
    try {
      if (lockOptions && lockKey) await takeLock(client, lockKey, `${schema}.${list}`, lockOptions);
      await createTables(client, schema, list);
      const resumed = await readCheckpointRow(client, checkpoints, list);
      return new PostgresCopy(client, owned, list, schema, lockKey, resumed, lost);
    } catch (error) {
      if (owned) await client.end().catch(() => undefined);
      else if (lockKey) await unlock(client, lockKey);
      throw error;
    }
  }

  /**
   * The error that ended the connection this copy opened while it held it (the server shut down: `57P01`;
   * the socket closed: `Connection terminated unexpectedly`), or undefined. A statement after it fails with
   * `pg`'s "not queryable", which does not say why: this does.
   */
  get connectionError(): Error | undefined {
    return this.#lost.error;
  }

  /** What the last run left, if any. */
  get resumed(): { readonly records: number; readonly complete: boolean } | undefined {
    return this.#resumed;
  }

  /** The SDK checkpoint to sync from, or undefined (a full export). */
  get checkpoint(): string | undefined {
    return this.#checkpoint;
  }

  /** Rows in the copy: counted at the end of each walk, and moved by each page's inserts and deletes. */
  get records(): number {
    return this.#records;
  }

  /**
   * Changes this run applied: rows inserted (records the table lacked), rows replaced because their stored
   * record differed from the list's (the sync's `changed` records, and any other record of the window the
   * table held otherwise), and rows deleted (the sync's `removed` ones, and those of the span the walk read
   * in full that it did not meet).
   */
  get applied(): { readonly created: number; readonly changed: number; readonly removed: number } {
    return this.#applied;
  }

  /**
   * Stores one page in one transaction: every record the walk passed on it (`batch.records`; the created
   * and changed ones at least) upserted by content, so a row whose stored record differs is replaced
   * whatever the last run kept; removed ones deleted; in the last batch, the rows of the span the walk read
   * in full (`batch.passed`) that it did not meet deleted; the checkpoint after the page saved.
   *
   * @param batch - a batch of `run.pages()`.
   * @param complete - true for the last write of a run that reached the end.
   * @returns the rows upserted (inserted or replaced) and deleted.
   * @throws `pg`'s errors (the transaction is then rolled back: neither the page nor its checkpoint stays).
   */
  async write(
    batch: Pick<SyncBatch<unknown>, 'changes' | 'checkpoint'> &
      Partial<Pick<SyncBatch<unknown>, 'records' | 'passed'>>,
    complete = false,
  ): Promise<{ upserted: number; deleted: number }> {
    const upserts = new Map<string, unknown>();
    const removed: string[] = [];
    for (const record of batch.records ?? []) upserts.set(idOf(record), record);
    for (const change of batch.changes) {
      if (change.type === 'removed') removed.push(change.id);
      else upserts.set(idOf(change.record), change.record);
    }
    const client = this.#client;
    const met = await this.#metOfWalk();
    await client.query('begin');
    try {
      const { inserted, replaced } = await upsertDiffering(client, this.#table, this.#list, [
        ...upserts.values(),
      ]);
      if (met !== null) await addSeenIds(client, met, [...upserts.keys()]);
      let deleted = await deleteRecords(client, this.#table, removed);
      if (batch.passed && met !== null) deleted += await deleteUnmet(client, this.#table, met, batch.passed);
      // The last write of a walk counts the rows, so that rows changed behind the copy's back are counted right.
      const records = complete ? await countRows(client, this.#table) : this.#records + inserted - deleted;
      await client.query(
        `insert into ${this.#checkpoints} (list, checkpoint, records, complete) values ($1, $2, $3, $4)
         on conflict (list) do update set checkpoint = excluded.checkpoint, records = excluded.records,
           complete = excluded.complete, updated_at = now()`,
        [this.#list, batch.checkpoint, records, complete],
      );
      await client.query('commit');
      this.#checkpoint = batch.checkpoint;
      this.#records = records;
      this.#applied = {
        created: this.#applied.created + inserted,
        changed: this.#applied.changed + replaced,
        removed: this.#applied.removed + deleted,
      };
      return { upserted: inserted + replaced, deleted };
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
  }

  /**
   * The table of ids the current walk met, or null when it keeps none: a walk resumed from another run's
   * checkpoint (that run's ids went with its connection, so it deletes nothing it did not meet; the run goes
   * on to a fresh walk, which does), or a walk that began on an empty table (all its rows are its own).
   */
  async #metOfWalk(): Promise<string | null> {
    if (this.#met !== undefined) return this.#met;
    if (!this.#walkFresh) this.#met = null;
    else {
      const { rows } = await this.#client.query<{ held: boolean }>(
        `select exists (select 1 from ${this.#table}) as held`,
      );
      this.#met = rows[0]?.held ? await startSeenIds(this.#client, 'met', this.#schema, this.#list) : null;
    }
    return this.#met;
  }

  /**
   * Records that the run reached the end: its checkpoint is where the next sync starts.
   *
   * @param checkpoint - `run.checkpoint` once the run completed.
   */
  async complete(checkpoint: string): Promise<void> {
    await this.write({ changes: [], checkpoint }, true);
    // What is written next belongs to a walk from this checkpoint: a fresh one.
    this.#walkFresh = true;
    this.#met = undefined;
  }

  /**
   * Releases the lock and, when it opened the connection, closes it. A connection already lost is let go
   * without a wait: the server released the lock with it.
   */
  async close(): Promise<void> {
    if (this.#owned)
      await this.#client.end().catch((error: unknown) => {
        if (this.#lost.error === undefined) throw error;
      });
    else if (this.#lockKey) await unlock(this.#client, this.#lockKey);
  }
}

/** A record's id, as the table keys it. */
function idOf(record: unknown): string {
  return String((record as { id?: unknown }).id);
}
