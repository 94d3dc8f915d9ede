// Real processes and real time, on purpose: what is under test is two or three `company-data` processes on
// one copy at once (a cron run overlapping a slow one), a holder killed outright whose lock must go stale
// by the clock, and an orphan left running when only its `npx` wrapper was killed. Each case ends by
// comparing the copy with the mock's final list: every call once, none missing.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockServer, startMockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { finish, type Run } from '../../../examples/support/example-process.js';
import type { PostgresServer } from '../../../scripts/lib/postgres-server.mjs';
import {
  fileDestination,
  postgresDestination,
  postgresForTests,
  type TestDestination,
} from './support/copy-destinations.js';
import { heldIds as heldIdsOf } from './support/held.js';
import { envFor, spawnCli } from './support/run.js';

/** Enough calls for a run to last a few seconds with slow pages: the other runs start while it works. */
const CALLS = 1_200;
/** Real ms each list page waits, so that the first run is still copying when the others start. */
const PAGE_DELAY_MS = 150;
/** The same for the orphan's test: about 6 s left to copy after its wrapper is killed. */
const ORPHAN_PAGE_DELAY_MS = 600;
const RUN_TIMEOUT_MS = 40_000;
/**
 * A test's bound, for one that runs the command twice, one run after the other: each run is bounded by
 * RUN_TIMEOUT_MS already. The default 20 s cut the killed-holder test short on a loaded machine (two starts
 * of the command, at test:unit's lowered priority).
 */
const TWO_RUNS = { timeout: 2 * RUN_TIMEOUT_MS };

let mock: MockServer;
let dir: string;
let postgres: PostgresServer | undefined;
let schemas = 0;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 11, sizes: { calls: CALLS } });
  postgres = await postgresForTests();
}, 60_000);
afterAll(async () => {
  await mock?.close();
  await postgres?.stop();
});
beforeEach(async ({ onTestFinished }) => {
  mock.reset();
  mock.injectFault({ path: '/v1/calls/', delayMs: PAGE_DELAY_MS, times: 10_000 });
  dir = await mkdtemp(join(tmpdir(), 'company-data-overlap-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
});

function run(args: readonly string[], onStderr?: (stderr: string, child: ChildProcess) => void) {
  const child = spawnCli(args, { env: envFor(mock) });
  return { child, done: finish(child, RUN_TIMEOUT_MS, onStderr && ((stderr) => onStderr(stderr, child))) };
}

/** Every call the mock holds, newest first (no slow pages for the check itself). */
async function heldIds(): Promise<string[]> {
  mock.reset();
  return heldIdsOf(mock, 'calls');
}

/** The copy holds every call of the mock exactly once. */
async function expectExactCopy(destination: TestDestination): Promise<void> {
  const copied = (await destination.records()).map((record) => record.id);
  const twice = copied.filter((id, index) => copied.indexOf(id) !== index);
  expect(twice, 'copied more than once').toEqual([]);
  expect([...copied].sort()).toEqual((await heldIds()).sort());
}

/** The pid a refused run names as the holder. */
function namedHolder(stderr: string): number {
  const match =
    /is being copied by another run: pid (\d+) on (\S+) \(company-data (?:export|sync) calls\), since \S+\. Run again once it is done, or pass --wait <duration>/.exec(
      stderr,
    );
  expect(match, stderr).not.toBeNull();
  expect(match?.[2]).toBe(hostname());
  return Number(match?.[1]);
}

/** The calls a run says it has copied so far (its latest progress line). */
function copiedSoFar(stderr: string): number {
  const counts = [...stderr.matchAll(/calls (\d+)\/\d+ \(/g)].map((match) => Number(match[1]));
  return counts.at(-1) ?? 0;
}

/** Resolves once process `pid` is gone (polled; fails the test, saying so, if it outlives `withinMs`). */
async function gone(pid: number, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (performance.now() > deadline) throw new Error(`process ${pid} still runs after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const destinations: { name: string; make: () => TestDestination | undefined }[] = [
  { name: 'an NDJSON file', make: () => fileDestination(dir) },
  {
    name: 'PostgreSQL',
    make: () => (postgres ? postgresDestination(postgres, `overlap_${++schemas}`) : undefined),
  },
];

describe.each(destinations)('overlapping runs on $name', ({ make }) => {
  it.each([2, 3])(
    '%i runs started together: one copies, the others exit 75 naming it',
    TWO_RUNS,
    async (count) => {
      const destination = make();
      if (!destination) return; // no PostgreSQL here (said loudly when the file started)
      const runs = Array.from({ length: count }, () => run(['export', 'calls', ...destination.flags]));
      const finished = await Promise.all(runs.map((started) => started.done));
      const codes = finished.map((result) => result.code);
      expect([...codes].sort(), finished.map((result) => result.stderr).join('\n---\n')).toEqual([
        0,
        ...Array(count - 1).fill(75),
      ]);
      const winner = runs[codes.indexOf(0)] as (typeof runs)[number];
      for (const refused of finished.filter((result) => result.code === 75)) {
        expect(namedHolder(refused.stderr)).toBe(winner.child.pid);
        expect(refused.stdout).toBe('');
      }
      expect((finished[codes.indexOf(0)] as Run).stdout).toBe(
        `Exported ${CALLS} calls to ${destination.name}.\n`,
      );
      await expectExactCopy(destination);
    },
  );

  it(
    'a holder killed mid-copy is taken over by the next run, which finishes the copy',
    TWO_RUNS,
    async () => {
      const destination = make();
      if (!destination) return;
      const first = run(['export', 'calls', ...destination.flags], (stderr, child) => {
        if (copiedSoFar(stderr) >= 300) child.kill('SIGKILL');
      });
      const killed = await first.done;
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const next = await run(['export', 'calls', ...destination.flags]).done;
      expect(next.code, next.stderr).toBe(0);
      if (destination.kind === 'file')
        // The file's lock outlives its holder until it goes stale: the next run says whose it was.
        expect(next.stderr).toMatch(
          new RegExp(`the run that held .* \\(pid ${first.child.pid} on .*\\) is gone; taking its copy over`),
        );
      expect(next.stderr).toMatch(/resuming an interrupted run: \d+ calls already in /);
      await expectExactCopy(destination);
    },
  );

  it('an orphan (only its npx wrapper killed) finishes alone; a run meanwhile exits 75 naming it', async () => {
    const destination = make();
    if (!destination) return;
    // Slower pages than the others' here: the orphan must still be copying once the run meanwhile has started
    // (npx and tsx, seconds on a busy machine), with 10 pages left after the kill.
    mock.reset();
    mock.injectFault({ path: '/v1/calls/', delayMs: ORPHAN_PAGE_DELAY_MS, times: 10_000 });
    // As a user or a supervisor starts it: npx, then tsx, then the node process that copies.
    const bin = fileURLToPath(new URL('../src/entries/bin.ts', import.meta.url));
    const wrapper = spawn('npx', ['tsx', bin, 'export', 'calls', ...destination.flags], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, ...envFor(mock), NODE_OPTIONS: '--conditions=@company-data/source' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    wrapper.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no progress from the wrapped run: ${stderr}`)),
        20_000,
      );
      wrapper.stderr.on('data', () => {
        if (copiedSoFar(stderr) >= 200) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    wrapper.kill('SIGKILL'); // the wrapper only: tsx and the node process it started run on
    await once(wrapper, 'exit');
    const meanwhile = await run(['export', 'calls', ...destination.flags]).done;
    expect(meanwhile.code, meanwhile.stderr).toBe(75);
    const orphan = namedHolder(meanwhile.stderr);
    expect(orphan).not.toBe(wrapper.pid);
    await gone(orphan, RUN_TIMEOUT_MS);
    const after = await run(['export', 'calls', ...destination.flags]).done;
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/is already a complete export \(1200 calls\)/);
    await expectExactCopy(destination);
  }, 60_000);
});
