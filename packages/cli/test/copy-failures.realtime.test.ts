// Real time and real processes, on purpose: `company-data export calls --to …` in a child process against
// the mock server's command (each list request delayed, so the run lasts), while its PostgreSQL is stopped
// (a fast shutdown) or killed (SIGKILL) under it. The run ends with one line and exit 1, never a crash of
// the process; the server restarts on the same data, and the next run goes on: the table then equals the
// mock's list, no call twice, none missing. And an API with nothing listening: each retry said as it comes.
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../../scripts/lib/free-port.mjs';
import type { PostgresServer } from '../../../scripts/lib/postgres-server.mjs';
import { adminRequest, type CliProcess, startCli } from '../../mock-server/test/support/cli-process.js';
import { postgresDestination, postgresForTests } from './support/copy-destinations.js';
import { runChild, spawnCli } from './support/run.js';

const CALLS = 2_000;
/** Each list request waits this long (real ms): 20 pages take 3 s, time to stop the server mid-run. */
const PAGE_DELAY_MS = 150;
/** The server goes away once the copy holds this many calls. */
const STOP_AT = 300;

let mock: CliProcess;
let postgres: PostgresServer | undefined;

beforeAll(async () => {
  postgres = await postgresForTests();
  mock = await startCli(['--calls', String(CALLS), '--seed', '8']);
  await adminRequest(mock, 'POST', 'faults', { path: '/v1/calls/', delayMs: PAGE_DELAY_MS, times: 100_000 });
}, 60_000);
afterAll(async () => {
  await mock?.stop();
  await postgres?.stop();
});

const env = () => ({
  COMPANY_DATA_BASE_URL: mock.summary.baseURL,
  COMPANY_DATA_API_KEY: mock.summary.keys.valid,
});

/** Every call the mock holds, read with plain fetch. */
async function heldIds(): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(`${mock.summary.baseURL}/calls/?page_size=100&page=${page}`, {
      headers: { authorization: `Bearer ${mock.summary.keys.valid}` },
    });
    const body = (await response.json()) as { data: { id: string }[]; pagination: { total_pages: number } };
    ids.push(...body.data.map((call) => call.id));
    if (page >= body.pagination.total_pages) return ids;
  }
}

/**
 * Runs the export in a child process and, once it says it holds {@link STOP_AT} calls, takes the server
 * away with `stop`; resolves with how the run ended.
 */
async function exportUntilStopped(flags: readonly string[], stop: (server: PostgresServer) => Promise<void>) {
  const child = spawnCli(['export', 'calls', ...flags], { env: env() });
  let stderr = '';
  let stopped: Promise<void> | undefined;
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
    const held = [...stderr.matchAll(/^export: calls (\d+)\//gm)].map((match) => Number(match[1]));
    if (stopped === undefined && held.some((count) => count >= STOP_AT))
      stopped = stop(postgres as PostgresServer);
  });
  const [code] = await once(child, 'close');
  await stopped;
  return { code: code as number | null, stderr };
}

async function resumesExactly(flags: readonly string[], table: ReturnType<typeof postgresDestination>) {
  await postgres?.restart();
  const resumed = await runChild(['export', 'calls', ...flags], { env: env() });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toMatch(/^export: resuming an interrupted run: \d+ calls already in /m);
  const ids = (await table.records()).map((record) => record.id);
  expect(
    ids.filter((id, index) => ids.indexOf(id) !== index),
    'copied twice',
  ).toEqual([]);
  expect([...ids].sort()).toEqual((await heldIds()).sort());
  expect(ids).toHaveLength(CALLS);
}

it('PostgreSQL shut down (fast) mid-run: one line, exit 1; restarted, the next run goes on exactly', async () => {
  if (!postgres) return; // no PostgreSQL here (said loudly when the file started)
  const table = postgresDestination(postgres, 'stopped');
  const ended = await exportUntilStopped(table.flags, (server) => server.stop({ keep: true }));
  expect(ended.code, ended.stderr).toBe(1);
  expect(ended.stderr).not.toMatch(/^\s+at |Unhandled 'error' event|node:events/m);
  expect(ended.stderr.split('\n').filter((line) => line.startsWith('company-data: '))).toEqual([
    `company-data: PostgreSQL at 127.0.0.1:${postgres.port} ended this run's session (57P01: terminating connection due to administrator command): wait until it accepts connections again. Every page stored before stays; run the same command again to go on.`,
  ]);
  await resumesExactly(table.flags, table);
}, 60_000);

it('PostgreSQL killed (SIGKILL) mid-run: one line, exit 1; restarted, the next run goes on exactly', async () => {
  if (!postgres) return;
  const table = postgresDestination(postgres, 'killed');
  const ended = await exportUntilStopped(table.flags, (server) => server.kill());
  expect(ended.code, ended.stderr).toBe(1);
  expect(ended.stderr).not.toMatch(/^\s+at |Unhandled 'error' event|node:events/m);
  expect(ended.stderr.split('\n').filter((line) => line.startsWith('company-data: '))).toEqual([
    `company-data: PostgreSQL at 127.0.0.1:${postgres.port} ended this run's session (57P01: terminating connection due to unexpected postmaster exit): wait until it accepts connections again. Every page stored before stays; run the same command again to go on.`,
  ]);
  await resumesExactly(table.flags, table);
}, 60_000);

it('an API with nothing listening: a line per retry saying what it waits for, then one line and exit 1', async ({
  onTestFinished,
}) => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'company-data-unreachable-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const ran = await runChild(['sync', 'users', '--out', join(dir, 'users.ndjson')], {
    env: { ...env(), COMPANY_DATA_BASE_URL: `http://127.0.0.1:${port}/v1` },
  });
  expect(readdirSync(dir)).toEqual([]);
  expect(ran.code).toBe(1);
  expect(ran.stderr).not.toMatch(/^\s+at /m);
  const lines = ran.stderr.trimEnd().split('\n');
  expect(lines.slice(0, 5).map((line) => line.replace(/in \d+\.\d s/, 'in … s'))).toEqual(
    [1, 2, 3, 4, 5].map(
      (retry) =>
        `sync: the API at 127.0.0.1:${port} could not be reached (ECONNREFUSED); trying again in … s (retry ${retry} of 5)`,
    ),
  );
  expect(lines.slice(5)).toEqual([
    `company-data: Connection failed: nothing listens on 127.0.0.1:${port} (ECONNREFUSED): start the mock server (npx company-data-mock --port ${port}), or fix the port in the base URL (GET http://127.0.0.1:${port}/v1/users/?page_size=1&page=1): the API could not be reached after 5 retries; check the network and the server. Then run the same command again.`,
  ]);
}, 60_000);
