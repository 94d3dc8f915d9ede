// A call deleted while `company-data check` reads the list shifts the offset pages under it: the first
// call of the next page moves onto the page already read, and the walk never meets it. A check must not
// call it gone (nor a repair delete it): it looks every call the walk did not meet up by id, and only a
// 404 makes one gone. Through a proxy in front of the mock (test/support/drifting-proxy.ts) that deletes a
// call of page 1 as page 1 passes, so page 2 is read from the shifted list.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@company-data/mock-server';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type PostgresServer, postgresOrSkip } from '../../../scripts/lib/postgres-server.mjs';
import { postgresForTests } from './support/copy-destinations.js';
import { type Passing, startDriftingProxy } from './support/drifting-proxy.js';
import { envFor, runInProcess } from './support/run.js';

const available = postgresOrSkip() !== undefined;
const NONE = { count: 0, ids: [] };

let mock: MockServer;
let postgres: PostgresServer | undefined;
let dir: string;

beforeAll(async () => {
  postgres = await postgresForTests();
  mock = await startMockServer({ port: 0, seed: 5, clock: 'frozen' });
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await postgres?.stop();
});
beforeEach(async ({ onTestFinished }) => {
  mock.reset();
  dir = await mkdtemp(join(tmpdir(), 'company-data-check-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
});

/** `company-data <argv>` against `baseURL` (the mock, or the proxy in front of it). */
const run = (argv: readonly string[], baseURL = mock.baseURL) =>
  runInProcess(argv, { env: envFor({ baseURL, keys: mock.keys }), cwd: dir });

/**
 * A proxy that deletes the sixth call of page 1 of the calls as that page passes (once), and the ids: the
 * call deleted, and the call the walk then skips (the first of page 2 before the deletion).
 */
async function deletingProxy(ids: readonly string[]) {
  let done = false;
  const proxy = await startDriftingProxy(mock, (passing: Passing) => {
    if (done || passing.path !== '/v1/calls/' || passing.query.get('page') !== '1') return;
    done = true;
    mock.records.delete('calls', ids[5] as string);
  });
  return { proxy, deleted: ids[5] as string, skipped: ids[100] as string };
}

it('a call the walk skips because another was deleted meanwhile is looked up, found, and not called gone', async () => {
  expect((await run(['export', 'calls', '--out', 'calls.ndjson'])).code).toBe(0);
  const ids = (await readFile(join(dir, 'calls.ndjson'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);
  const { proxy, deleted, skipped } = await deletingProxy(ids);
  try {
    const checked = await run(
      ['check', 'calls', '--out', 'calls.ndjson', '--concurrency', '1', '--json'],
      proxy.baseURL,
    );
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({
      equal: true,
      listed: 239,
      copied: 240,
      missing: NONE,
      gone: NONE,
      stale: NONE,
      skipped: { count: 1, ids: [skipped] },
    });
  } finally {
    await proxy.close();
  }
  // Read again, the list no longer moves: the call deleted is gone, the one skipped is there.
  const again = await run(['check', 'calls', '--out', 'calls.ndjson', '--json']);
  expect(again.code).toBe(1);
  expect(JSON.parse(again.stdout)).toMatchObject({
    listed: 239,
    gone: { count: 1, ids: [deleted] },
    skipped: NONE,
  });
});

it.skipIf(!available)('a repair deletes no row of a call the walk skipped', async () => {
  const flags = ['--to', postgres?.url ?? '', '--schema', 'skipped'];
  expect((await run(['export', 'calls', ...flags])).code).toBe(0);
  const db = new pg.Client({ connectionString: postgres?.url });
  await db.connect();
  try {
    const ids = (await db.query('select id from skipped.calls order by created_at desc, id desc')).rows.map(
      (row: { id: string }) => row.id,
    );
    const { proxy, deleted, skipped } = await deletingProxy(ids);
    try {
      const repaired = await run(
        ['check', 'calls', ...flags, '--repair', '--concurrency', '1', '--json'],
        proxy.baseURL,
      );
      expect(repaired.code, repaired.stderr).toBe(0);
      expect(JSON.parse(repaired.stdout)).toMatchObject({
        repaired: true,
        gone: NONE,
        skipped: { count: 1, ids: [skipped] },
      });
    } finally {
      await proxy.close();
    }
    const held = async (id: string) =>
      (await db.query('select count(*)::int as rows from skipped.calls where id = $1', [id])).rows[0].rows;
    expect(await held(skipped)).toBe(1);
    expect(await held(deleted)).toBe(1);
    const again = await run(['check', 'calls', ...flags, '--repair', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ repaired: true, gone: { count: 1, ids: [deleted] } });
    expect(await held(deleted)).toBe(0);
    expect(
      (await db.query("select records from skipped.checkpoints where list = 'calls'")).rows[0].records,
    ).toBe('239');
  } finally {
    await db.end();
  }
});
