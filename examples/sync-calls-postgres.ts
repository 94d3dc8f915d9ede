// The daily sync of a copy of the calls in PostgreSQL, written out with `pg` for you to adapt to your own
// schema. (`npx company-data sync calls --to "$DATABASE_URL"` does the same for every list, ready to run.)
//
//   DATABASE_URL=postgres://user@localhost/warehouse npx tsx examples/sync-calls-postgres.ts --look-back 24h
//
// Three rules make the copy exact, whatever stops it and however many runs start:
// 1. One run at a time: the run holds `pg_try_advisory_lock` for as long as it works. A second run finds it
//    taken, says which session holds it and exits with 75 ("try again later"). PostgreSQL releases the lock
//    itself when the holder's connection ends, so a run that was killed is taken over at once.
// 2. Each page and its checkpoint are stored in ONE transaction: created and changed calls upserted, removed
//    ones deleted, the checkpoint after the page saved. A run killed at any moment leaves the page with its
//    checkpoint, or neither: the next run starts from the checkpoint, and nothing is lost or stored twice.
// 3. The checkpoint is read only once the lock is held.
//
// Exit codes: 0 done, 1 failed, 2 bad arguments, 75 another run holds the copy, 130 interrupted (Ctrl+C or
// SIGTERM: the page in hand is stored first).
//
// It keeps the copy in two tables of the database's default schema, example_calls and example_checkpoints,
// each with a comment saying that it is this example's; `drop table example_calls, example_checkpoints`
// removes them.
import { parseArgs } from 'node:util';
import { COPY_LOCKED_EXIT_CODE, parseDuration } from '@company-data/cli/copy';
import { type Call, CompanyData, type SyncChange } from '@company-data/sdk';
import pg from 'pg';
import { INTERRUPTED_EXIT_CODE, listenForInterrupt } from './lib/interrupt.js';

const { values } = parseArgs({ options: { 'look-back': { type: 'string', default: '24h' } } });
const lookBack = parseDuration(values['look-back']);
if (lookBack === undefined || !process.env.DATABASE_URL) {
  console.error('Usage: DATABASE_URL=postgres://… sync-calls-postgres.ts [--look-back 24h]');
  process.exit(2);
}

/** The lock's name: one per copy (two copies of the calls in two schemas would take two names). */
const LOCK = 'example: calls copy';

const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
await db.connect();
const locked = await db.query('select pg_try_advisory_lock(hashtext($1)) as ok', [LOCK]);
if (!locked.rows[0].ok) {
  const holder = await db.query(
    `select a.pid, a.application_name, a.backend_start from pg_locks l join pg_stat_activity a using (pid)
      where l.locktype = 'advisory' and l.granted and l.objid::int = hashtext($1)`,
    [LOCK],
  );
  const who = holder.rows[0];
  console.error(
    `Another run holds the copy${who ? ` (session ${who.pid}, ${who.application_name || 'no name'}, since ${who.backend_start.toISOString()})` : ''}: try again later.`,
  );
  await db.end();
  process.exit(COPY_LOCKED_EXIT_CODE);
}

await db.query(`create table if not exists example_calls (
  id text primary key,
  created_at timestamptz not null,
  is_excused boolean not null,
  record jsonb not null
)`);
await db.query(
  'create table if not exists example_checkpoints (list text primary key, checkpoint text not null)',
);
// Tables of an example, in your database: they say so, and how to remove them.
for (const [table, what] of [
  ['example_calls', 'the calls'],
  ['example_checkpoints', 'the checkpoint'],
]) {
  await db.query(
    `comment on table ${table} is 'The example examples/sync-calls-postgres.ts of @company-data/sdk keeps ${what} of its copy here. Remove both of its tables with: drop table example_calls, example_checkpoints'`,
  );
}
const saved = await db.query("select checkpoint from example_checkpoints where list = 'calls'");

/** Stores one page and the checkpoint after it, all or nothing. */
async function store(changes: readonly SyncChange<Call>[], checkpoint: string): Promise<void> {
  await db.query('begin');
  try {
    for (const change of changes) {
      if (change.type === 'removed') await db.query('delete from example_calls where id = $1', [change.id]);
      else
        await db.query(
          `insert into example_calls (id, created_at, is_excused, record) values ($1, $2, $3, $4)
           on conflict (id) do update set is_excused = excluded.is_excused, record = excluded.record`,
          [change.record.id, change.record.created_at, change.record.is_excused, change.record],
        );
    }
    await db.query(
      `insert into example_checkpoints (list, checkpoint) values ('calls', $1)
       on conflict (list) do update set checkpoint = excluded.checkpoint`,
      [checkpoint],
    );
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

const interrupt = listenForInterrupt();
const client = new CompanyData();
const counts = { created: 0, changed: 0, removed: 0 };
let stopped = false;
try {
  const run = client.calls.sync(
    { checkpoint: saved.rows[0]?.checkpoint, lookBack },
    { signal: interrupt.signal },
  );
  for await (const batch of run.pages()) {
    await store(batch.changes, batch.checkpoint);
    for (const change of batch.changes) counts[change.type]++;
    if (interrupt.received) {
      stopped = true;
      break;
    }
  }
  if (!stopped) await store([], run.checkpoint);
} catch (error) {
  if (!interrupt.received) {
    console.error(`Sync failed: ${error instanceof Error ? error.message : error}. Run again to go on.`);
    process.exitCode = 1;
  }
  stopped = interrupt.received !== undefined;
} finally {
  await client.close();
  await db.end(); // ends the session: the lock goes with it
}
console.error(
  `${stopped ? 'Interrupted' : 'Synced'}: ${counts.created} new calls, ${counts.changed} changed, ${counts.removed} removed.`,
);
if (stopped) process.exitCode = INTERRUPTED_EXIT_CODE;
