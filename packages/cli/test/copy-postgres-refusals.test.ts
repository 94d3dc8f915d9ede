// `company-data export|sync --to postgres://…` against a database that will not take the copy: the command
// in a child process, a PostgreSQL of the test file's own (skipped loudly where there is none, never in CI).
// Each failure is one line that says what to do, with its exit code, and never shows the password.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@company-data/mock-server';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../../scripts/lib/free-port.mjs';
import { type PostgresServer, postgresOrSkip } from '../../../scripts/lib/postgres-server.mjs';
import { postgresForTests } from './support/copy-destinations.js';
import { envFor, runChild } from './support/run.js';

/** Whether PostgreSQL is here (under CI it must be: postgresOrSkip throws). */
const available = postgresOrSkip() !== undefined;
const PASSWORD = 'right-horse-battery';
const WRONG = 'wrong-horse-battery';
let mock: MockServer;
let postgres: PostgresServer | undefined;

beforeAll(async () => {
  postgres = await postgresForTests();
  mock = await startMockServer({ port: 0, seed: 5, clock: 'frozen' });
  if (!postgres) return;
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  try {
    // alice logs in with a password (over TCP, before the rule that trusts every local connection); reader
    // logs in, but may create nothing in the database.
    await db.query(`create role alice login password '${PASSWORD}'`);
    await db.query('create role reader login');
    const hba = join(postgres.dir, 'pg_hba.conf');
    writeFileSync(hba, `host all alice 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
    await db.query('select pg_reload_conf()');
  } finally {
    await db.end();
  }
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await postgres?.stop();
});

/** `postgres://<user>@127.0.0.1:<port>/<database>` of the test's server. */
const url = (user: string, database = 'postgres', port = postgres?.port) =>
  `postgres://${user}@127.0.0.1:${port}/${database}`;

async function copyTo(to: string) {
  const ran = await runChild(['export', 'teams', '--to', to], { env: envFor(mock) });
  expect(ran.stderr).not.toMatch(/^\s+at /m);
  expect(ran.stderr).not.toContain(PASSWORD);
  expect(ran.stderr).not.toContain(WRONG);
  return ran;
}

it.skipIf(!available)('nothing listening: exit 1, start it or fix the host and port', async () => {
  const port = await freePort();
  const ran = await copyTo(url(`postgres:${WRONG}`, 'postgres', port));
  expect(ran.code).toBe(1);
  expect(ran.stderr).toBe(
    `company-data: PostgreSQL at 127.0.0.1:${port} refused the connection (connect ECONNREFUSED 127.0.0.1:${port}): start it, or fix the host and the port in --to. Then run the same command again.\n`,
  );
});

it.skipIf(!available)('a wrong password, and a user the server does not know: exit 2, fix --to', async () => {
  const password = await copyTo(url(`alice:${WRONG}`));
  expect(password.code).toBe(2);
  expect(password.stderr).toBe(
    `company-data: PostgreSQL at 127.0.0.1:${postgres?.port} refused the login of the user alice (28P01: password authentication failed for user "alice"): fix the user or the password in --to. Nothing was written.\n`,
  );
  const unknown = await copyTo(url('ghost'));
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toBe(
    `company-data: PostgreSQL at 127.0.0.1:${postgres?.port} refused the login of the user ghost (28000: role "ghost" does not exist): fix the user in --to, or let it in (the server's pg_hba.conf). Nothing was written.\n`,
  );
  // The right password gets in (and meets the next refusal: alice may create nothing in the database).
  expect((await copyTo(url(`alice:${PASSWORD}`))).stderr).toContain(
    "may not create or write the copy's tables (company_data.teams)",
  );
});

it.skipIf(!available)('an unknown database: exit 2, create it or fix --to', async () => {
  const ran = await copyTo(url('postgres', 'nosuchdb'));
  expect(ran.code).toBe(2);
  expect(ran.stderr).toBe(
    `company-data: PostgreSQL at 127.0.0.1:${postgres?.port} has no database nosuchdb (3D000: database "nosuchdb" does not exist): create it (createdb nosuchdb), or fix the database in --to. Nothing was written.\n`,
  );
});

it.skipIf(!available)(
  'a user with no right to create the schema: exit 2, grant it or use another',
  async () => {
    const ran = await copyTo(url('reader'));
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      `company-data: the user reader may not create or write the copy's tables (company_data.teams) in PostgreSQL at 127.0.0.1:${postgres?.port} (42501: permission denied for database postgres): grant it the rights on the database and the schema, or give --to a user that has them (or --schema one it may write). Nothing was written.\n`,
    );
  },
);
