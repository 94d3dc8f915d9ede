// A copy in PostgreSQL converges by content: a sync compares every record of the window it re-reads with the
// table (not only with the last run's fingerprints), replaces the rows that differ and deletes the window's
// rows the walk did not meet. So a wider window than last time, a restored database or a lost checkpoint
// converge on the next run. `company-data sync` runs as a user runs it (a child process), over a real
// socket to a mock on a frozen clock and into a PostgreSQL of the file's own.
import { type MockServer, startMockServer } from '@company-data/mock-server';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type PostgresServer, postgresOrSkip } from '../../../scripts/lib/postgres-server.mjs';
import { postgresForTests } from './support/copy-destinations.js';
import { envFor, runChild } from './support/run.js';

const available = postgresOrSkip() !== undefined;
const HOUR = 3_600_000;
let mock: MockServer;
let postgres: PostgresServer | undefined;
let db: pg.Client;
let schema: string;
let schemas = 0;

beforeAll(async () => {
  postgres = await postgresForTests();
  mock = await startMockServer({ port: 0, seed: 8, clock: 'frozen', sizes: { users: 4, calls: 40 } });
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
  schema = `converge_${++schemas}`;
});

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
async function heldIds(): Promise<string[]> {
  const response = await fetch(`${mock.baseURL}/calls/?page_size=100`, {
    headers: { authorization: `Bearer ${mock.keys.valid}` },
  });
  const body = (await response.json()) as { data: { id: string }[] };
  return body.data.map((call) => call.id).sort();
}

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
      `Synced calls into ${schema}.calls: 0 new; 0 changed and 0 removed within the look-back window (applied); 42 in the copy.\n`,
    );
    expect(await stored(old.id)).toMatchObject({ is_excused: false, excuse_reason: null });

    // A wider one compares its calls with the table: the last run kept no fingerprint of this one.
    const wide = await sync('--look-back', '6h');
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout).toBe(
      `Synced calls into ${schema}.calls: 0 new; 1 changed and 0 removed within the look-back window (applied); 42 in the copy.\n`,
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
      `Synced calls into ${schema}.calls: 0 new; 0 changed and 2 removed within the look-back window (applied); 41 in the copy.\n`,
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
    `Synced calls into ${schema}.calls: 0 new; 1 changed and 1 removed (applied); 39 in the copy.\n`,
  );
});
