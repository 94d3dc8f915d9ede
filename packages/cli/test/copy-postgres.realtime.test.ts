// Real time and real processes, on purpose: a copy of the calls in a real PostgreSQL, kept by the
// `company-data sync` command while the mock company lives by its running clock (calls arriving, excused
// later, deleted), the command SIGKILLed at moments drawn at random, resumed, and synced with a look-back.
// Once the activity stops, the table must equal the mock's final list: every call once, none missing, each
// excusal and each deletion applied (the look-back window spans the whole list, so every deletion is within
// it).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostgresServer } from '../../../scripts/lib/postgres-server.mjs';
import { adminRequest, type CliProcess, startCli } from '../../mock-server/test/support/cli-process.js';
import { postgresDestination, postgresForTests } from './support/copy-destinations.js';
import { heldRecords } from './support/held.js';
import { spawnCli } from './support/run.js';

/** Calls arriving, excused and deleted a second of the mock's (running) clock. */
const ACTIVITY = 'calls=20/s,excused=30%,excused-after=0..1,deletions=2/s';
const INITIAL_CALLS = 1_000;
/** A window wider than the whole list: every excusal and every deletion falls within it. */
const LOOK_BACK = '3650d';
/** Each list request waits this long (real ms), so that a kill lands mid-run. */
const PAGE_DELAY_MS = 40;
const KILLED_RUNS = 4;

let mock: CliProcess;
let postgres: PostgresServer | undefined;
let dir: string;

beforeAll(async () => {
  postgres = await postgresForTests();
  mock = await startCli(['--calls', String(INITIAL_CALLS), '--activity', ACTIVITY, '--seed', '21']);
  dir = await mkdtemp(join(tmpdir(), 'company-data-pg-'));
}, 60_000);
afterAll(async () => {
  await mock?.stop();
  await postgres?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const admin = (method: string, path: string, body?: unknown) => adminRequest(mock, method, path, body);

/** Every call the mock holds. */
const heldCalls = () => heldRecords<{ id: string; is_excused: boolean }>(mock.summary, 'calls');

function sync(destinationFlags: readonly string[], killAfterMs?: number) {
  const env = { COMPANY_DATA_BASE_URL: mock.summary.baseURL, COMPANY_DATA_API_KEY: mock.summary.keys.valid };
  const child = spawnCli(['sync', 'calls', ...destinationFlags, '--look-back', LOOK_BACK], { env });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    }),
  );
}

it('a sync into PostgreSQL killed at random moments, resumed and synced again, equals the living list', async () => {
  if (!postgres) return; // no PostgreSQL here (said loudly when the file started)
  const destination = postgresDestination(postgres, 'living');
  await admin('POST', 'faults', { path: '/v1/calls/', delayMs: PAGE_DELAY_MS, times: 100_000 });

  // Killed at moments drawn at random: before the first page, mid-page, between a page and the next.
  const kills: { signal: NodeJS.Signals | null; code: number | null }[] = [];
  for (let round = 0; round < KILLED_RUNS; round++) {
    const killed = await sync(destination.flags, 150 + Math.floor(Math.random() * 900));
    kills.push({ signal: killed.signal, code: killed.code });
    expect([killed.signal, killed.code], killed.stderr).toContainEqual(killed.signal ? 'SIGKILL' : 0);
  }
  // Resumed and synced to the end, twice, while calls keep arriving and leaving.
  for (let round = 0; round < 2; round++) {
    const done = await sync(destination.flags);
    expect(done.code, done.stderr).toBe(0);
  }

  // The activity stops (the clock stands still); a last sync takes what came before.
  await admin('POST', 'clock/freeze');
  const last = await sync(destination.flags);
  expect(last.code, last.stderr).toBe(0);

  const held = await heldCalls();
  const copied = await destination.records();
  const ids = copied.map((record) => record.id);
  expect(
    ids.filter((id, index) => ids.indexOf(id) !== index),
    'copied twice',
  ).toEqual([]);
  expect([...ids].sort()).toEqual(held.map((call) => call.id).sort());
  // Each excusal applied: every record of the copy is the mock's, field for field.
  const byId = new Map(held.map((call) => [call.id, call]));
  expect(copied.filter((record) => !isDeepStrictEqual(record, byId.get(record.id))).map((r) => r.id)).toEqual(
    [],
  );
  expect(held.filter((call) => call.is_excused).length).toBeGreaterThan(0);

  // The company did live during the runs: calls arrived, were excused and deleted.
  const { data: changes } = (await admin('GET', 'changes')) as {
    data: { resource: string; kind: string; origin: string; fields?: Record<string, unknown> }[];
  };
  const activity = changes.filter((change) => change.resource === 'calls' && change.origin === 'activity');
  expect(activity.filter((change) => change.kind === 'created').length).toBeGreaterThan(0);
  expect(activity.filter((change) => change.kind === 'deleted').length).toBeGreaterThan(0);
  expect(activity.filter((change) => change.kind === 'updated').length).toBeGreaterThan(0);
  expect(kills.filter((kill) => kill.signal === 'SIGKILL').length).toBeGreaterThan(0);
}, 120_000);
