// `company-data export|sync --to postgres://…` in process (so coverage sees it; the tests of convergence below
// as a child process), over a real socket to the mock and a PostgreSQL of the test file's own (skipped
// loudly where there is none, never in CI).
import { type MockServer, startMockServer } from '@company-data/mock-server';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type PostgresServer, postgresOrSkip } from '../../../scripts/lib/postgres-server.mjs';
import { CopyLockedError } from '../src/copy/errors.js';
import { PostgresCopy } from '../src/copy/postgres-copy.js';
import { databaseForTests, type TestDatabase } from './support/copy-destinations.js';
import { heldIds as heldIdsOf } from './support/held.js';
import { envFor, runChild, runInProcess } from './support/run.js';

/** Whether PostgreSQL is here (under CI it must be: postgresOrSkip throws). */
const available = postgresOrSkip() !== undefined;
let mock: MockServer;
let postgres: PostgresServer | undefined;
let db: pg.Client;
let schema: string;
let schemas = 0;
const HOUR = 3_600_000;

let database: TestDatabase | undefined;

beforeAll(async () => {
  database = await databaseForTests();
  if (database) ({ server: postgres, db } = database);
  mock = await startMockServer({ port: 0, seed: 4, clock: 'frozen' });
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await database?.stop();
});
beforeEach(() => {
  mock.reset();
  schema = `copy_${++schemas}`;
});

const run = (argv: readonly string[]) =>
  runInProcess([...argv, '--to', postgres?.url ?? '', '--schema', schema], {
    env: envFor(mock),
    cwd: process.cwd(),
  });

it.skipIf(!available)('exports a list into its table, with the checkpoint row beside it', async () => {
  const ran = await run(['export', 'teams', '--json']);
  expect(ran.code, ran.stderr).toBe(0);
  expect(JSON.parse(ran.stdout)).toMatchObject({
    outcome: 'done',
    created: 4,
    records: 4,
    appliesChanges: true,
  });
  const { rows } = await db.query(
    `select id, name, record->>'name' as named from ${schema}.teams order by id`,
  );
  expect(rows).toHaveLength(4);
  for (const row of rows) expect(row.name).toBe(row.named);
  const { rows: progress } = await db.query(`select list, records, complete from ${schema}.checkpoints`);
  expect(progress).toEqual([{ list: 'teams', records: '4', complete: true }]);
  const again = await run(['export', 'teams']);
  expect(again.stdout).toBe(
    `${schema}.teams is already a complete export (4 teams). To add what was created since, run company-data sync teams with the same destination; to export everything again, delete from ${schema}.checkpoints where list = 'teams'.\n`,
  );
});

it.skipIf(!available)('applies changed and removed records within the window', async () => {
  expect((await run(['sync', 'users', '--look-back', '3650d'])).code).toBe(0);
  const { rows } = await db.query(
    `select id from ${schema}.users where is_active order by created_at desc limit 2`,
  );
  const [deactivated, deleted] = rows.map((row: { id: string }) => row.id) as [string, string];
  mock.records.update('users', deactivated, { is_active: false });
  mock.records.delete('users', deleted);
  const ran = await run(['sync', 'users', '--look-back', '3650d']);
  expect(ran.stdout).toBe(
    `Synced users into ${schema}.users: 0 new; 1 changed and 1 removed within the look-back window (applied); 11 in the copy.\n`,
  );
  const { rows: after } = await db.query(
    `select count(*)::int as users, bool_or(id = $1) as deleted_left, bool_or(id = $2 and not is_active) as deactivated from ${schema}.users`,
    [deleted, deactivated],
  );
  expect(after[0]).toEqual({ users: 11, deleted_left: false, deactivated: true });
});

it.skipIf(!available)('refuses while another run holds the list, naming it; waits with --wait', async () => {
  const held = await PostgresCopy.open({
    connectionString: postgres?.url,
    list: 'calls',
    schema,
    lock: { command: 'the first run' },
  });
  const refused = await run(['sync', 'calls']);
  expect(refused.code).toBe(75);
  expect(refused.stderr).toMatch(
    new RegExp(
      `^company-data: ${schema}\\.calls is being copied by another run: pid ${process.pid} on \\S+ \\(the first run\\), since \\S+\\. Run again once it is done, or pass --wait <duration> to wait for it\\. If that run is gone .*select pg_terminate_backend\\(\\d+\\);\\n$`,
    ),
  );
  const error = await PostgresCopy.open({ connectionString: postgres?.url, list: 'calls', schema }).catch(
    (e) => e,
  );
  expect(error).toBeInstanceOf(CopyLockedError);
  expect((error as CopyLockedError).holder).toMatchObject({ pid: process.pid, command: 'the first run' });

  // The holder finishes once the second run says it waits.
  const ran = await runInProcess(
    ['sync', 'calls', '--wait', '1m', '--to', postgres?.url ?? '', '--schema', schema],
    {
      env: envFor(mock),
      cwd: process.cwd(),
      onStderr: (text) => {
        if (text.includes('waiting for')) void held.close();
      },
    },
  );
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.stderr).toMatch(/^sync: waiting for the run that holds copy_\d+\.calls: pid \d+ on /);
  expect(ran.stdout).toBe(`Synced calls into ${schema}.calls: 240 new; 240 in the copy.\n`);
});

it.skipIf(!available)('a database it cannot reach is a failure (exit 1) that says so', async () => {
  const ran = await runInProcess(['sync', 'calls', '--to', 'postgres://nobody@127.0.0.1:1/none'], {
    env: envFor(mock),
    cwd: process.cwd(),
  });
  expect(ran.code).toBe(1);
  expect(ran.stderr).toBe(
    'company-data: PostgreSQL at 127.0.0.1:1 refused the connection (connect ECONNREFUSED 127.0.0.1:1): start it, or fix the host and the port in --to. Then run the same command again.\n',
  );
});

// A copy in PostgreSQL converges by content: a sync compares every record of the window it re-reads with the
// table (not only with the last run's fingerprints), replaces the rows that differ and deletes the window's
// rows the walk did not meet. So a wider window than last time, a restored database or a lost checkpoint
// converge on the next run. `company-data sync` runs here as a user runs it: a child process.

const sync = (...flags: string[]) =>
  runChild(['sync', 'calls', '--to', postgres?.url ?? '', '--schema', schema, ...flags], {
    env: envFor(mock),
  });

/** A call created `hoursAgo` before the mock's now. */
const callFrom = (hoursAgo: number) =>
  mock.records.create('calls', {
    created_at: new Date(mock.clock.nowMs() - hoursAgo * HOUR).toISOString(),
  }) as { id: string };

/** The mock's call, as its API serves it. */
async function served(id: string): Promise<unknown> {
  const response = await fetch(`${mock.baseURL}/calls/${id}/`, {
    headers: { authorization: `Bearer ${mock.keys.valid}` },
  });
  return ((await response.json()) as { data: unknown }).data;
}

async function stored(id: string): Promise<unknown> {
  const { rows } = await db.query(`select record from ${schema}.calls where id = $1`, [id]);
  return rows[0]?.record;
}

async function storedIds(): Promise<string[]> {
  const { rows } = await db.query(`select id from ${schema}.calls order by id`);
  return rows.map((row: { id: string }) => row.id);
}

/** Every call id the mock holds, sorted. */
const heldIds = async () => (await heldIdsOf(mock, 'calls')).sort();

it.skipIf(!available)(
  'runs with 1h, a change to a call 3 h old, then a run with 6h: the change is applied',
  async () => {
    const old = callFrom(3);
    callFrom(0);
    expect((await sync('--look-back', '1h')).code).toBe(0);
    mock.records.update('calls', old.id, { is_excused: true, excuse_reason: 'Changed three hours later.' });
    mock.clock.advance(60_000);

    // The same window does not reach it: the copy keeps the old record.
    const narrow = await sync('--look-back', '1h');
    expect(narrow.code, narrow.stderr).toBe(0);
    expect(narrow.stdout).toBe(
      `Synced calls into ${schema}.calls: 0 new; 0 changed and 0 removed within the look-back window (applied); 242 in the copy.\n`,
    );
    expect(await stored(old.id)).toMatchObject({ is_excused: false, excuse_reason: null });

    // A wider one compares its calls with the table: the last run kept no fingerprint of this one.
    const wide = await sync('--look-back', '6h');
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout).toBe(
      `Synced calls into ${schema}.calls: 0 new; 1 changed and 0 removed within the look-back window (applied); 242 in the copy.\n`,
    );
    expect(await stored(old.id)).toEqual(await served(old.id));
    expect(await stored(old.id)).toMatchObject({
      is_excused: true,
      excuse_reason: 'Changed three hours later.',
    });
  },
);

it.skipIf(!available)(
  "deletes the window's rows that the walk did not meet: one deleted upstream, one the list never held",
  async () => {
    const deleted = callFrom(2);
    callFrom(0);
    expect((await sync('--look-back', '1h')).code).toBe(0);
    mock.records.delete('calls', deleted.id);
    // A row of the window's span the list never held (a restored database, a hand edit).
    const stranger = { ...((await stored((await storedIds())[0] as string)) as object), id: 'not-a-call' };
    await db.query(`insert into ${schema}.calls (id, created_at, record) values ($1, $2, $3)`, [
      'not-a-call',
      new Date(mock.clock.nowMs() - 4 * HOUR).toISOString(),
      stranger,
    ]);
    mock.clock.advance(60_000);

    // The 1h window of the last run held neither: its fingerprints could not tell.
    const ran = await sync('--look-back', '6h');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe(
      `Synced calls into ${schema}.calls: 0 new; 0 changed and 2 removed within the look-back window (applied); 241 in the copy.\n`,
    );
    expect(await storedIds()).toEqual(await heldIds());
  },
);

it.skipIf(!available)('a lost checkpoint: the next run reads the whole list and converges', async () => {
  expect((await sync()).code).toBe(0);
  const [first, second] = await heldIds();
  mock.records.update('calls', first as string, { summary: 'Rewritten after the copy.' });
  mock.records.delete('calls', second as string);
  await db.query(`delete from ${schema}.checkpoints`);

  const ran = await sync();
  expect(ran.code, ran.stderr).toBe(0);
  expect(await storedIds()).toEqual(await heldIds());
  expect(await stored(first as string)).toEqual(await served(first as string));
  expect(ran.stdout).toBe(
    `Synced calls into ${schema}.calls: 0 new; 1 changed and 1 removed (applied); 239 in the copy.\n`,
  );
});
