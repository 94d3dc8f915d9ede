// A check of a copy in PostgreSQL, with no id held in this process beyond a page and a batch: each page of
// the list is compared with the table in one statement (jsonb equality), which also notes the page's ids in
// a temporary table; at the end, the table's rows that temporary table lacks are handed out a batch at a
// time. The statements are the tables' own (../copy/postgres-tables.ts).
//
// A check only reads, and takes no lock: it never holds up a sync. It reads the copy as one snapshot (a
// read-only transaction, `repeatable read`), so a sync that commits meanwhile changes nothing it sees. A
// repair writes: it holds the copy's lock (the one every export and sync takes, so it never runs beside
// one) and stores each page's missing and stale records, and each batch of gone ones, in a transaction of
// its own, keeping the checkpoint row's count of records right and the rest of that row as it is.
import type { Client } from 'pg';
import type { LockOptions } from '../copy/file-lock.js';
import type { CopyListName } from '../copy/lists.js';
import { connectForCopy } from '../copy/postgres-connect.js';
import { copyLockKey, takeLock } from '../copy/postgres-lock.js';
import {
  addToRecordCount,
  compareRecords,
  countRows,
  DEFAULT_SCHEMA,
  deleteRecords,
  readCheckpointRow,
  recountRecords,
  startSeenIds,
  tablesExist,
  tablesOf,
  unseenIds,
  upsertRecords,
} from '../copy/postgres-tables.js';
import { type CopyComparison, UNSEEN_BATCH } from './comparison.js';
import type { ListedRecord } from './copy-mark.js';
import { UncheckableCopyError } from './errors.js';
import { Finding } from './findings.js';

/** How to open a copy in PostgreSQL for a check. */
export interface PostgresComparisonOptions {
  /** `postgres://user:password@host:5432/database`. */
  readonly connectionString: string;
  /** The list copied. */
  readonly list: CopyListName;
  /** The copy's schema. Default `company_data`. */
  readonly schema?: string | undefined;
  /** Store what the check finds (under the copy's lock). */
  readonly repair: boolean;
  /** How to take the copy's lock (a repair), and what to call this run. */
  readonly lock?: LockOptions | undefined;
}

/**
 * Opens a copy in PostgreSQL for a check: connects, takes the copy's lock for a repair (else opens a
 * read-only snapshot), and reads the checkpoint row.
 *
 * @param options - the database, the list, whether to repair.
 * @returns the comparison, holding its connection until closed.
 * @throws {@link UncheckableCopyError} without the tables or the list's row, or with a row of a run that did
 * not complete; {@link CopyLockedError} when a repair finds the copy held by another run; `pg`'s errors.
 */
export async function openPostgresComparison(options: PostgresComparisonOptions): Promise<CopyComparison> {
  const { list, repair } = options;
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const { table, checkpoints } = tablesOf(schema, list);
  const name = `${schema}.${list}`;
  const { client } = await connectForCopy(options.connectionString, options.lock?.command);
  try {
    if (repair) await takeLock(client, copyLockKey(schema, list), name, options.lock ?? {});
    if (!(await tablesExist(client, schema, list))) throw new UncheckableCopyError(name, list, 'none');
    const seen = await startSeenIds(client, 'check', schema, list);
    if (!repair) await client.query('begin isolation level repeatable read read only');
    const row = await readCheckpointRow(client, checkpoints, list);
    if (row === undefined) throw new UncheckableCopyError(name, list, 'none');
    if (!row.complete) throw new UncheckableCopyError(name, list, 'incomplete', row.records);
    const records = await countRows(client, table);
    return {
      name,
      checkpoint: row.checkpoint,
      records,
      duplicated: new Finding(),
      async comparePage(page: readonly ListedRecord[], newerIds: readonly string[]) {
        const found = await compareRecords(client, table, seen, page, newerIds);
        if (repair && found.missing.length + found.stale.length > 0) {
          const wanted = new Set([...found.missing, ...found.stale]);
          await inTransaction(client, async () => {
            await upsertRecords(
              client,
              table,
              list,
              page.filter((record) => wanted.has(record.id)),
            );
            await addToRecordCount(client, checkpoints, list, found.missing.length);
          });
        }
        return found;
      },
      async *unseen() {
        let after = '';
        for (;;) {
          const ids = await unseenIds(client, table, seen, after, UNSEEN_BATCH);
          if (ids.length === 0) return;
          yield ids;
          after = ids[ids.length - 1] as string;
        }
      },
      async gone(ids: readonly string[]) {
        if (!repair || ids.length === 0) return;
        await inTransaction(client, async () => {
          const deleted = await deleteRecords(client, table, ids);
          await addToRecordCount(client, checkpoints, list, -deleted);
        });
      },
      async finish() {
        if (repair) await recountRecords(client, table, checkpoints, list);
        else await client.query('commit');
      },
      async close() {
        // The connection's end takes the snapshot, the temporary table and the lock with it.
        await client.end();
      },
    };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** Runs `work` in a transaction: committed when it resolves, rolled back when it throws. */
async function inTransaction(client: Client, work: () => Promise<void>): Promise<void> {
  await client.query('begin');
  try {
    await work();
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}
