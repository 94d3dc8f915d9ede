// examples/sync-calls-postgres.ts as a user runs it (a child process through tsx) against the mock server
// over a real socket and a PostgreSQL of the test's own (skipped loudly where there is none, never in CI).
import { type MockServer, startMockServer } from '@company-data/mock-server';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type PostgresServer, postgresOrSkip, startPostgres } from '../scripts/lib/postgres-server.mjs';
import { finish, spawnExample } from './support/example-process.js';

let mock: MockServer;
let postgres: PostgresServer | undefined;

beforeAll(async () => {
  const program = postgresOrSkip();
  postgres = program === undefined ? undefined : await startPostgres({ postgres: program });
  mock = await startMockServer({ port: 0, seed: 9, clock: 'frozen' });
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await postgres?.stop();
});

const sync = (url: string) =>
  finish(
    spawnExample('sync-calls-postgres.ts', ['--look-back', '3650d'], {
      COMPANY_DATA_API_KEY: mock.keys.valid,
      COMPANY_DATA_BASE_URL: mock.baseURL,
      DATABASE_URL: url,
    }),
    30_000,
  );

it('copies the calls, applies an excusal and a deletion, and refuses to run beside another run', async () => {
  if (!postgres) return; // no PostgreSQL here (said loudly above)
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  try {
    const first = await sync(postgres.url);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('Synced: 240 new calls, 0 changed, 0 removed.\n');

    const { rows: newest } = await db.query(
      'select id from example_calls order by created_at desc, id desc limit 2',
    );
    const [excused, deleted] = newest.map((row: { id: string }) => row.id) as [string, string];
    mock.records.update('calls', excused, { is_excused: true });
    mock.records.delete('calls', deleted);
    const second = await sync(postgres.url);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('Synced: 0 new calls, 1 changed, 1 removed.\n');
    const { rows } = await db.query(
      'select count(*)::int as calls, bool_or(id = $1) as deleted_left, bool_or(id = $2 and is_excused) as excused from example_calls',
      [deleted, excused],
    );
    expect(rows[0]).toEqual({ calls: 239, deleted_left: false, excused: true });
    // Its tables say whose they are, and how to remove them.
    const { rows: comments } = await db.query(
      "select obj_description('example_calls'::regclass, 'pg_class') as calls, obj_description('example_checkpoints'::regclass, 'pg_class') as checkpoints",
    );
    expect(comments[0]).toEqual({
      calls:
        'The example examples/sync-calls-postgres.ts of @company-data/sdk keeps the calls of its copy here. Remove both of its tables with: drop table example_calls, example_checkpoints',
      checkpoints:
        'The example examples/sync-calls-postgres.ts of @company-data/sdk keeps the checkpoint of its copy here. Remove both of its tables with: drop table example_calls, example_checkpoints',
    });

    // Another run holds the copy: this one touches nothing and exits 75, naming the session.
    const { rows: me } = await db.query('select pg_backend_pid() as pid');
    await db.query("select pg_advisory_lock(hashtext('example: calls copy'))");
    const refused = await sync(postgres.url);
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^Another run holds the copy \\(session ${me[0].pid}, no name, since \\S+\\): try again later\\.\\n$`,
      ),
    );
  } finally {
    await db.end();
  }
});
