// `company-data export|sync --to postgres://…` in process (so coverage sees it), over a real socket to the
// mock and a PostgreSQL of the test file's own (skipped loudly where there is none, never in CI).
import { type MockServer, startMockServer } from '@company-data/mock-server';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type PostgresServer, postgresOrSkip } from '../../../scripts/lib/postgres-server.mjs';
import { CopyLockedError } from '../src/copy/errors.js';
import { PostgresCopy } from '../src/copy/postgres-copy.js';
import { postgresForTests } from './support/copy-destinations.js';
import { envFor, runInProcess } from './support/run.js';

/** Whether PostgreSQL is here (under CI it must be: postgresOrSkip throws). */
const available = postgresOrSkip() !== undefined;
let mock: MockServer;
let postgres: PostgresServer | undefined;
let db: pg.Client;
let schema: string;
let schemas = 0;

beforeAll(async () => {
  postgres = await postgresForTests();
  mock = await startMockServer({ port: 0, seed: 4, clock: 'frozen' });
  if (postgres) {
    db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
  }
}, 60_000);
afterAll(async () => {
  await db?.end();
  await mock?.close();
  await postgres?.stop();
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
