// Real time and real processes, on purpose: "done" means up to date. `company-data sync calls --to …` runs
// in a loop, as cron runs it, against the mock's CLI while its company lives by a running clock (calls
// arriving, excused and deleted); every other run is SIGKILLed (its whole process group) once a page of a
// walk is stored, so the next run resumes an interrupted walk. After every run that exits 0, the table holds
// every call the list holds that was created before that run started: a resumed run does not stop where the
// run it resumes began.
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import type { PostgresServer } from '../../../scripts/lib/postgres-server.mjs';
import { adminRequest, type CliProcess, startCli } from '../../mock-server/test/support/cli-process.js';
import { postgresDestination, postgresForTests } from './support/copy-destinations.js';
import { heldRecords } from './support/held.js';
import { spawnCli } from './support/run.js';

/** Calls arriving, excused and deleted a second of the mock's (running) clock. */
const ACTIVITY = 'calls=20/s,excused=30%,excused-after=0..1,deletions=2/s';
/** Each list request waits this long (real ms), so that a run lasts long enough to be killed mid-walk. */
const PAGE_DELAY_MS = 60;
const RUNS = 4;
/** How often the test looks at the copy's checkpoint while a run it will kill goes. */
const POLL_MS = 20;
/** A window over the whole list: each run walks all of it (about 1.5 s), time for a kill to land mid-walk. */
const LOOK_BACK = '3650d';

let mock: CliProcess;
let postgres: PostgresServer | undefined;

beforeAll(async () => {
  postgres = await postgresForTests();
  mock = await startCli(['--calls', '1500', '--activity', ACTIVITY, '--seed', '45']);
  await adminRequest(mock, 'POST', 'faults', {
    path: '/v1/calls/',
    delayMs: PAGE_DELAY_MS,
    times: 1_000_000,
  });
}, 60_000);
afterAll(async () => {
  await mock?.stop();
  await postgres?.stop();
});

/** The mock's now (its clock runs), epoch ms. */
async function mockNow(): Promise<number> {
  const { now } = (await adminRequest(mock, 'GET', 'clock')) as { now: string };
  return Date.parse(now);
}

/** Every call the mock holds now. */
const heldCalls = () => heldRecords<{ id: string; created_at: string }>(mock.summary, 'calls');

/**
 * Resolves once the copy's checkpoint row holds a walk under way (`"walk":{`): a page of a walk stored, and
 * the walk not finished. Polled while the run lasts; undefined once it ended first.
 */
async function midWalk(db: pg.Client, schema: string, ended: Promise<unknown>): Promise<true | undefined> {
  let over = false;
  void ended.then(() => {
    over = true;
  });
  while (!over) {
    const exists = await db.query('select to_regclass($1) as table', [`"${schema}".checkpoints`]);
    if (exists.rows[0]?.table !== null) {
      const { rows } = await db.query(`select checkpoint from "${schema}".checkpoints where list = 'calls'`);
      if (String(rows[0]?.checkpoint ?? '').includes('"walk":{')) return true;
    }
    await delay(POLL_MS);
  }
  return undefined;
}

/** One run of the sync; with `killMidWalk`, SIGKILLed with its process group once a page of a walk is stored. */
async function sync(flags: readonly string[], killMidWalk?: { db: pg.Client; schema: string }) {
  const env = { COMPANY_DATA_BASE_URL: mock.summary.baseURL, COMPANY_DATA_API_KEY: mock.summary.keys.valid };
  const child = spawnCli(['sync', 'calls', ...flags, '--look-back', LOOK_BACK], { env, detached: true });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const ended = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  if (killMidWalk && (await midWalk(killMidWalk.db, killMidWalk.schema, ended)))
    process.kill(-(child.pid as number), 'SIGKILL');
  return ended;
}

it('after every sync that exits 0, every call created before it started is in the table, also after a kill', async () => {
  if (!postgres) return; // no PostgreSQL here (said loudly when the file started)
  const schema = 'cron';
  const destination = postgresDestination(postgres, schema);
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  onTestFinished(() => db.end());
  let completed = 0;
  let killed = 0;
  let caughtUp = 0;
  // Killed runs alternate with whole ones: each whole run after a kill resumes an interrupted walk.
  for (let round = 0; round < RUNS; round++) {
    const started = await mockNow();
    const ran = await sync(destination.flags, round % 2 === 0 ? { db, schema } : undefined);
    if (ran.signal === 'SIGKILL') {
      killed++;
      continue;
    }
    expect(ran.code, ran.stderr).toBe(0);
    completed++;
    if (/finishing the interrupted run, then going on to the present/.test(ran.stdout)) caughtUp++;
    const copied = new Set((await destination.records()).map((record) => record.id));
    const before = (await heldCalls()).filter((call) => Date.parse(call.created_at) < started);
    expect(
      before.filter((call) => !copied.has(call.id)).map((call) => call.id),
      `calls created before run ${round} started, missing after it exited 0`,
    ).toEqual([]);
  }
  // Each kill landed mid-walk, so each whole run after it resumed a walk and went on to the present.
  expect({ completed, killed, caughtUp }).toEqual({
    completed: RUNS / 2,
    killed: RUNS / 2,
    caughtUp: RUNS / 2,
  });
}, 180_000);
