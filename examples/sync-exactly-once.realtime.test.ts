// Real time, on purpose: the feature under test is a copy kept up to date while calls keep arriving on the
// mock's running clock, during the walks themselves (between two page requests of a sync, while an export
// is stopped and resumed). A frozen clock moved between runs would bring calls only between runs, exactly
// what this test must not be limited to; the in-process tests of the SDK and examples.test.ts cover the
// frozen-clock cases.
//
// The first "done when": against the `company-data-mock` command with calls arriving at 25 a second
// and some deleted (by its activity and through the admin API), an export interrupted by SIGINT, resumed and
// killed with SIGKILL, then finished by the daily sync (they share the progress file), and syncs again; once
// arrivals stop (the clock frozen through the admin API) and a final sync ran, every call the mock holds was
// delivered exactly once, none missing, none twice.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call, Pagination } from '@company-data/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminRequest, type CliProcess, startCli } from '../packages/mock-server/test/support/cli-process.js';
import { finish, lines, type Run, spawnExample } from './support/example-process.js';

/** Calls arriving a second, and deleted a second, by the mock's own activity. */
const ACTIVITY = 'calls=25/s,excused=20%,excused-after=0..1,deletions=1/s';
/** Calls at the start: enough pages for an export to be stopped twice on the way. */
const INITIAL_CALLS = 1_500;
/** Each list request waits this long (real ms) while the export runs, so that the signals land mid-export. */
const PAGE_DELAY_MS = 50;
const RUN_TIMEOUT_MS = 20_000;

let mock: CliProcess;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  mock = await startCli(['--calls', String(INITIAL_CALLS), '--activity', ACTIVITY]);
  env = { COMPANY_DATA_API_KEY: mock.summary.keys.valid, COMPANY_DATA_BASE_URL: mock.summary.baseURL };
  dir = await mkdtemp(join(tmpdir(), 'company-data-sync-'));
});

afterAll(async () => {
  await mock?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const admin = (method: string, path: string, body?: unknown) => adminRequest(mock, method, path, body);

/** One page of the calls as the API serves it, read with plain fetch (independent of the SDK). */
async function callsPage(page: number): Promise<{ data: Call[]; pagination: Pagination }> {
  const response = await fetch(`${mock.summary.baseURL}/calls/?page_size=100&page=${page}`, {
    headers: { authorization: `Bearer ${mock.summary.keys.valid}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { data: Call[]; pagination: Pagination };
}

/** Runs an example to its end; with `stopWhen`, sends `signal` once its stderr satisfies it. */
function run(
  script: string,
  args: readonly string[],
  stop?: { when: (stderr: string) => boolean; signal: NodeJS.Signals; before?: () => Promise<void> },
): Promise<Run> {
  const child: ChildProcess = spawnExample(script, args, env);
  let sent = false;
  return finish(child, RUN_TIMEOUT_MS, (stderr) => {
    if (!stop || sent || !stop.when(stderr)) return;
    sent = true;
    void (stop.before ?? (async () => {}))().then(() => {
      child.kill(stop.signal);
      // Twice at once, as a wrapper that forwards the terminal's Ctrl+C delivers it: still one interrupt.
      if (stop.signal === 'SIGINT') child.kill(stop.signal);
    });
  });
}

/** Progress lines of the export (one per page written, when stderr is not a terminal). */
const pagesWritten = (stderr: string) => lines(stderr).filter((line) => line.startsWith('[')).length;

it('delivers every call exactly once over interrupted exports and repeated syncs while calls arrive', async () => {
  const file = join(dir, 'calls.ndjson');
  // Slow pages while the export runs: the signals below land with pages still to read.
  await admin('POST', 'faults', { path: '/v1/calls/', delayMs: PAGE_DELAY_MS, times: 30 });

  // 1. Ctrl+C after three pages (delivered twice, as through a wrapper); meanwhile two calls deep in the
  // list, not read yet, are deleted.
  const interrupted = await run('export-calls-ndjson.ts', [file], {
    when: (stderr) => pagesWritten(stderr) >= 3,
    signal: 'SIGINT',
    before: async () => {
      const { data } = await callsPage(12);
      for (const call of data.slice(0, 2)) await admin('DELETE', `records/calls/${call.id}`);
    },
  });
  expect(interrupted.code, interrupted.stderr).toBe(130);
  expect(interrupted.stderr).toMatch(
    /Interrupted: \d+ calls are safely written to .*Run the same command again/,
  );

  // 2. Resumed, then killed outright: no goodbye, perhaps a page written but never recorded.
  const killed = await run('export-calls-ndjson.ts', [file], {
    when: (stderr) => pagesWritten(stderr) >= 2,
    signal: 'SIGKILL',
  });
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  expect(killed.stderr).toMatch(/Resuming the export into .*: \d+ calls already written/);

  // 3. The daily sync takes over: its first run finishes the killed export (they share the progress file),
  // the next takes the calls that arrived meanwhile. A call already copied is deleted before each run.
  let synced = 0;
  for (let round = 0; round < 2; round++) {
    const { data } = await callsPage(3);
    if (data[0]) await admin('DELETE', `records/calls/${data[0].id}`);
    const sync = await run('sync-calls.ts', [file, '--look-back', '1h']);
    expect(sync.code, sync.stderr).toBe(0);
    if (round === 0) expect(sync.stderr).toMatch(/Resuming an interrupted run: \d+ calls already written/);
    else synced += Number(/Synced: (\d+) new calls/.exec(sync.stderr)?.[1]);
  }
  // Calls arrived during the export and between the runs, and the second run took them.
  expect(synced).toBeGreaterThan(0);

  // 4. Arrivals stop: the mock's clock stands still, and a last sync takes what came before.
  await admin('POST', 'clock/freeze');
  const last = await run('sync-calls.ts', [file, '--look-back', '1h']);
  expect(last.code, last.stderr).toBe(0);

  // Every call the mock holds now, read through the API.
  const held: string[] = [];
  for (let page = 1; ; page++) {
    const { data, pagination } = await callsPage(page);
    held.push(...data.map((call) => call.id));
    if (page >= pagination.total_pages) break;
  }
  const delivered = lines(await readFile(file, 'utf8')).map((line) => (JSON.parse(line) as Call).id);
  const twice = delivered.filter((id, index) => delivered.indexOf(id) !== index);
  expect(twice, 'delivered more than once').toEqual([]);
  const deliveredSet = new Set(delivered);
  expect(
    held.filter((id) => !deliveredSet.has(id)),
    'held by the mock but never delivered',
  ).toEqual([]);

  // The data did change during the runs: calls arrived and were deleted, by the activity and by the test.
  const { data: changes } = (await admin('GET', 'changes')) as {
    data: { resource: string; kind: string; origin: string }[];
  };
  const calls = changes.filter((change) => change.resource === 'calls');
  // How many arrived depends on how long the runs took (25 a second): some did, whatever the machine's speed.
  expect(calls.filter((c) => c.kind === 'created' && c.origin === 'activity').length).toBeGreaterThan(0);
  expect(calls.filter((c) => c.kind === 'deleted' && c.origin === 'control').length).toBe(4);
  expect(calls.filter((c) => c.kind === 'deleted' && c.origin === 'activity').length).toBeGreaterThan(0);
  expect(held.length).toBeGreaterThan(INITIAL_CALLS);
}, 30_000);
