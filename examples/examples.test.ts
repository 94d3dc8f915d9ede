// Runs every example script as a user would, as a child process against a started mock server, and checks
// its real output against the mock's data and state.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { lockFile, WINDOW_STARTS_NOW } from '@company-data/cli/copy';
import {
  DEFAULT_FAULT_MIX,
  type MockServer,
  type StartMockServerOptions,
  startMockServer,
} from '@company-data/mock-server';
import type { Call, Pagination, Recording, RecordingTranscript, User } from '@company-data/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { stopKeptMock } from '../scripts/lib/kept-mock.mjs';
import {
  envWith,
  finish as finishProcess,
  lines,
  ROOT,
  type Run,
  spawnExample,
  spawnNode,
} from './support/example-process.js';

/** An example process is killed after this long (counted from its start). */
const RUN_TIMEOUT_MS = 30_000;
/** A test runs up to three example processes and may wait for a free process slot first. */
const TEST_TIMEOUT_MS = 90_000;

// The tests run concurrently, but at most this many example processes at once: on a 2-core machine more
// only make each one slower, and their time limit is counted from their start.
const MAX_PROCESSES = 3;
let running = 0;
const waiting: (() => void)[] = [];

/** Starts a process once a process slot is free; the slot is freed when the process ends. */
async function start(spawnIt: () => ChildProcess): Promise<ChildProcess> {
  if (running >= MAX_PROCESSES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  const child = spawnIt();
  child.once('close', () => {
    running--;
    waiting.shift()?.();
  });
  return child;
}

/** Runs a process to its end (killed after RUN_TIMEOUT_MS) and collects its output. */
const finish = (child: ChildProcess): Promise<Run> => finishProcess(child, RUN_TIMEOUT_MS);

async function runExample(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<Run> {
  return finish(await start(() => spawnExample(script, args, env)));
}

/** A mock server on a free port, closed when the test ends (tests run concurrently, each with its own). */
async function mockServer(
  onTestFinished: (close: () => Promise<void>) => void,
  options: StartMockServerOptions = {},
): Promise<MockServer> {
  const mock = await startMockServer({ port: 0, ...options });
  onTestFinished(() => mock.close());
  return mock;
}

/** The API as a user's key sees it: the data environment of every data example. */
const apiEnv = (mock: MockServer) => ({
  COMPANY_DATA_API_KEY: mock.keys.valid,
  COMPANY_DATA_BASE_URL: mock.baseURL,
});

/** Ground truth read straight from the mock over HTTP, independently of the SDK. */
async function api<T>(mock: MockServer, path: string): Promise<T> {
  const response = await request(`${mock.baseURL}${path}`, {
    headers: { authorization: `Bearer ${mock.keys.valid}` },
  });
  if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}`);
  return (await response.body.json()) as T;
}
type List<T> = { data: T[]; pagination: Pagination };

/** A company that lives by the mock's clock: calls arrive, some are excused later, some are deleted. */
const LIVING_COMPANY = {
  callsPerMinute: 6,
  excusedShare: 0.3,
  // Excused within minutes: some of the calls of one run are excused before the next.
  excusedAfterMinutes: { min: 2, max: 8 },
  callDeletionsPerHour: 6,
  recordingsPerHour: 0,
  deactivationsPerDay: 0,
};

async function everyCall(mock: MockServer): Promise<Call[]> {
  const calls: Call[] = [];
  for (let page = 1; ; page++) {
    const { data, pagination } = await api<List<Call>>(mock, `/calls/?page_size=100&page=${page}`);
    calls.push(...data);
    if (page >= pagination.total_pages) return calls;
  }
}

// Concurrent: the examples spend their time starting processes, which overlap well.
describe.concurrent('examples', { timeout: TEST_TIMEOUT_MS }, () => {
  describe('list-active-users.ts', () => {
    it('prints every active user, one per line', async ({ expect, onTestFinished }) => {
      const mock = await mockServer(onTestFinished, { sizes: { users: 30 } });
      const run = await runExample('list-active-users.ts', [], apiEnv(mock));
      expect(run.code, run.stderr).toBe(0);
      const { data: active } = await api<List<User>>(mock, '/users/?is_active=true&page_size=100');
      expect(active.length).toBeGreaterThan(0);
      expect(lines(run.stdout).map((line) => line.split('\t')[1])).toEqual(active.map((user) => user.email));
      expect(run.stderr).toContain(`${active.length} active users`);
    });

    it('names the missing environment variable', async ({ expect, onTestFinished }) => {
      const mock = await mockServer(onTestFinished);
      const run = await runExample('list-active-users.ts', [], { COMPANY_DATA_BASE_URL: mock.baseURL });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('COMPANY_DATA_API_KEY');
      expect(mock.journal()).toEqual([]);
    });
  });

  describe('iterate-calls.ts', () => {
    it('reads every call of every page', async ({ expect, onTestFinished }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 240 } });
      const run = await runExample('iterate-calls.ts', [], apiEnv(mock));
      expect(run.code, run.stderr).toBe(0);
      const calls = await everyCall(mock);
      const output = lines(run.stdout);
      expect(output[0]).toBe('240 calls');
      const bySource = output.slice(1).filter((line) => line.startsWith('  '));
      const counted = Object.fromEntries(bySource.map((line) => line.trim().split(/\s+/)));
      expect(counted).toEqual(
        Object.fromEntries(
          ['integration', 'voice_agent']
            .map((source) => [source, String(calls.filter((call) => call.source === source).length)])
            .filter(([, count]) => count !== '0'),
        ),
      );
      expect(output).toContain(`booked: ${calls.filter((call) => call.is_booked).length}`);
    });
  });

  describe('export-calls-ndjson.ts', () => {
    // Made when the tests run, not when the file is collected (a collection that runs nothing leaves none).
    let dir = '';
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'company-data-examples-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('exports every call once, in order, to a file and to stdout, with progress on stderr', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 530 } });
      const file = join(dir, 'calls.ndjson');
      const toFile = await runExample('export-calls-ndjson.ts', [file], apiEnv(mock));
      expect(toFile.code, toFile.stderr).toBe(0);
      const exported = lines(readFileSync(file, 'utf8')).map((line) => JSON.parse(line) as Call);
      const calls = await everyCall(mock);
      expect(exported).toHaveLength(530);
      expect(new Set(exported.map((call) => call.id)).size).toBe(530);
      expect(exported.map((call) => call.id)).toEqual(calls.map((call) => call.id));
      // Not a terminal: one progress line per page, counted against the total from the pagination.
      const progress = lines(toFile.stderr).filter((line) => line.startsWith('['));
      expect(progress.length).toBeGreaterThanOrEqual(6);
      expect(progress.at(0)).toMatch(/\] \d+\/530 calls \d+%$/);
      expect(progress.at(-1)).toMatch(/^\[#{30}\] 530\/530 calls 100%$/);
      // The final count once: a line is printed only when it changed.
      expect(progress.filter((line) => line.includes('530/530'))).toEqual([
        '[##############################] 530/530 calls 100%',
      ]);
      expect(toFile.stderr).toContain(`Exported 530 calls to ${file}`);
      // The progress file stays: its final checkpoint is where sync-calls.ts takes over.
      expect(JSON.parse(readFileSync(`${file}.checkpoint`, 'utf8'))).toMatchObject({
        records: 530,
        bytes: readFileSync(file).length,
        complete: true,
      });

      const toStdout = await runExample('export-calls-ndjson.ts', [], apiEnv(mock));
      expect(toStdout.code, toStdout.stderr).toBe(0);
      expect(toStdout.stdout).toBe(readFileSync(file, 'utf8'));
    });

    it('completes at 100 % when calls are deleted during the export (fewer than the total at the start)', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 240 } });
      const file = join(dir, 'shrinking.ndjson');
      // Each page takes 300 ms, so the call deleted once the first page shows is one the walk has yet to read.
      mock.setLatency([{ path: /^\/v1\/calls\//, latency: { minMs: 300, maxMs: 300 } }]);
      const oldest = (await everyCall(mock)).at(-1) as Call;
      let deleted = false;
      const run = await finishProcess(
        await start(() => spawnExample('export-calls-ndjson.ts', [file], apiEnv(mock))),
        RUN_TIMEOUT_MS,
        (stderr) => {
          if (!deleted && stderr.includes('100/240 calls')) {
            deleted = true;
            mock.records.delete('calls', oldest.id);
          }
        },
      );
      expect(run.code, run.stderr).toBe(0);
      const progress = lines(run.stderr).filter((line) => line.startsWith('['));
      expect(progress.slice(-2)).toEqual([
        '[##############################] 239/240 calls 100%',
        '[##############################] 239/239 calls 100%',
      ]);
      expect(run.stderr).toContain(`Exported 239 calls to ${file}`);
    });

    // Retried: the signal must land in the last moments of the run, and on a busy machine the example may be
    // past them before this process reads the last progress line (a miss shows no "SIGINT received"). Each
    // attempt writes a file of its own.
    let finishingAttempts = 0;
    it('a Ctrl+C that lands while the export finishes changes nothing: exit 0, no "Interrupted"', {
      retry: 2,
    }, async ({ expect, onTestFinished }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 240 } });
      // A retry into the file an attempt completed would find a finished export, and print no progress.
      const file = join(dir, `finishing-${++finishingAttempts}.ndjson`);
      const child = await start(() => spawnExample('export-calls-ndjson.ts', [file], apiEnv(mock)));
      const pid = child.pid as number;
      let sent = false;
      // The moment the last page's progress shows, the process is frozen (SIGSTOP) and given its SIGINT, which
      // it handles once it goes on (SIGCONT): while it finishes (the batch that completes the walk, the
      // final checkpoint), with no request left to abort.
      const run = await finishProcess(child, RUN_TIMEOUT_MS, (stderr) => {
        if (sent || !stderr.includes('240/240 calls')) return;
        sent = true;
        process.kill(pid, 'SIGSTOP');
        process.kill(pid, 'SIGINT');
        process.kill(pid, 'SIGCONT');
      });
      expect(sent).toBe(true);
      expect(run.stderr).toContain('SIGINT received');
      expect(run.stderr).not.toContain('Interrupted');
      expect(run.stderr).toContain(`Exported 240 calls to ${file}`);
      expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
      expect(JSON.parse(readFileSync(`${file}.checkpoint`, 'utf8'))).toMatchObject({
        records: 240,
        complete: true,
      });
    });

    it('cuts off a page a killed run wrote but never recorded, and does not export a finished file again', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 120 } });
      const file = join(dir, 'killed.ndjson');
      expect((await runExample('export-calls-ndjson.ts', [file], apiEnv(mock))).code).toBe(0);
      const complete = readFileSync(file, 'utf8');
      // What a run killed between writing a page and recording it leaves: lines past the recorded length.
      writeFileSync(file, `${complete}{"id":"half a page`);
      mock.clearJournal();
      const again = await runExample('export-calls-ndjson.ts', [file], apiEnv(mock));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`${file} is already a complete export (120 calls)`);
      expect(again.stderr).toContain(`run examples/sync-calls.ts ${file}`);
      expect(readFileSync(file, 'utf8')).toBe(complete);
      expect(mock.journal()).toEqual([]);
    });

    it('refuses a file shorter than its progress says, and a progress file it did not write', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 30 } });
      const file = join(dir, 'edited.ndjson');
      expect((await runExample('export-calls-ndjson.ts', [file], apiEnv(mock))).code).toBe(0);
      writeFileSync(file, '');
      const shorter = await runExample('export-calls-ndjson.ts', [file], apiEnv(mock));
      expect(shorter.code).toBe(1);
      expect(shorter.stderr).toMatch(/holds 0 bytes, but .* says \d+ were written.*Delete .*\.checkpoint/);
      writeFileSync(`${file}.checkpoint`, '{"page": 3}');
      const foreign = await runExample('export-calls-ndjson.ts', [file], apiEnv(mock));
      expect(foreign.code).toBe(1);
      expect(foreign.stderr).toContain('is not the progress file of an NDJSON copy; delete it to start over');
    });
    it('touches nothing and exits 75, naming the holder, while another run holds the file', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 30 } });
      const file = join(dir, 'held.ndjson');
      const held = await lockFile(file, { command: 'the test' });
      onTestFinished(() => held.release());
      for (const script of ['export-calls-ndjson.ts', 'sync-calls.ts']) {
        const refused = await runExample(script, [file], apiEnv(mock));
        expect(refused.code, refused.stderr).toBe(75);
        expect(refused.stderr).toMatch(
          new RegExp(
            `${file} is being copied by another run: pid ${process.pid} on \\S+ \\(the test\\), since `,
          ),
        );
      }
      expect(existsSync(file)).toBe(false);
      expect(mock.journal()).toEqual([]);
    });
  });

  describe('sync-calls.ts', () => {
    // Made when the tests run, not when the file is collected (a collection that runs nothing leaves none).
    let dir = '';
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'company-data-examples-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('takes only the new calls of a living company, run after run, and reports late excusals and deletions', async ({
      expect,
      onTestFinished,
    }) => {
      // A frozen clock: the calls that arrive between runs are exactly those of each advance.
      const mock = await mockServer(onTestFinished, {
        clock: 'frozen',
        sizes: { calls: 240 },
        activity: LIVING_COMPANY,
      });
      const file = join(dir, 'calls.ndjson');
      const sync = () => runExample('sync-calls.ts', [file, '--look-back', '1h'], apiEnv(mock));

      const first = await sync();
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain(`No checkpoint in ${file}.checkpoint: a first run, so a full export.`);
      // Nothing to compare with yet: the window starts with this run.
      expect(first.stderr).toContain(`Synced: 240 new calls; ${WINDOW_STARTS_NOW}; checkpoint saved`);

      let seen = 240;
      const arrivedEarlier = new Set<string>();
      let lateTotal = 0;
      let goneTotal = 0;
      for (let round = 0; round < 2; round++) {
        const since = mock.clock.nowMs();
        mock.clock.advance(10 * 60_000);
        // A call of the last run deleted by the test, besides the activity's own deletions.
        const [recent] = arrivedEarlier;
        if (recent) mock.records.delete('calls', recent);
        const changes = mock
          .changes()
          .filter((change) => change.resource === 'calls' && Date.parse(change.at) > since);
        const ofKind = (kind: string) => new Set(changes.filter((c) => c.kind === kind).map((c) => c.id));
        const created = ofKind('created');
        const deleted = ofKind('deleted');
        const arrived = [...created].filter((id) => !deleted.has(id));
        // Excused after the last run, created before it: a change only the look-back window sees.
        const late = [...ofKind('updated')].filter((id) => !created.has(id) && !deleted.has(id));
        // Deleted after the last run, created by the activity minutes before it: within the window too.
        const gone = [...deleted].filter((id) => arrivedEarlier.has(id));
        expect(arrived.length).toBeGreaterThan(0);

        const next = await sync();
        expect(next.code, next.stderr).toBe(0);
        const summary = /Synced: (\d+) new calls; (\d+) changed and (\d+) removed within 1h/.exec(
          next.stderr,
        );
        expect(summary?.slice(1, 3).map(Number), next.stderr).toEqual([arrived.length, late.length]);
        const reported = (word: string) =>
          lines(next.stderr)
            .filter((line) => line.startsWith(`${word} `))
            .map((line) => line.split(' ')[1] ?? '');
        expect(reported('changed').sort()).toEqual([...late].sort());
        // Removals the window sees: every deletion of a recent call, and only deletions.
        expect(reported('removed')).toEqual(expect.arrayContaining(gone));
        for (const id of reported('removed')) expect(deleted.has(id)).toBe(true);
        for (const id of arrived) arrivedEarlier.add(id);
        lateTotal += late.length;
        goneTotal += gone.length;
        seen += arrived.length;
      }
      // Both kinds of report were met: a call excused late, and a recent call deleted.
      expect(lateTotal).toBeGreaterThan(0);
      expect(goneTotal).toBeGreaterThan(0);

      // The copy holds every call the mock holds, each once (and the ones deleted since, which it cannot know).
      const copied = lines(readFileSync(file, 'utf8')).map((line) => (JSON.parse(line) as Call).id);
      expect(new Set(copied).size).toBe(copied.length);
      expect(copied).toHaveLength(seen);
      const held = (await everyCall(mock)).map((call) => call.id);
      expect(held.filter((id) => !copied.includes(id))).toEqual([]);
    });

    it('prints the new calls with --checkpoint, and nothing when nothing is new', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished, { clock: 'frozen', sizes: { calls: 40 } });
      const checkpoint = join(dir, 'stdout.checkpoint');
      const first = await runExample('sync-calls.ts', ['--checkpoint', checkpoint], apiEnv(mock));
      expect(first.code, first.stderr).toBe(0);
      expect(lines(first.stdout).map((line) => (JSON.parse(line) as Call).id)).toEqual(
        (await everyCall(mock)).map((call) => call.id),
      );
      const again = await runExample('sync-calls.ts', ['--checkpoint', checkpoint], apiEnv(mock));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toBe('');
      expect(again.stderr).toContain('Synced: 0 new calls; 0 changed and 0 removed within 0s');
    });

    it('says how to call it when the arguments are wrong', async ({ expect, onTestFinished }) => {
      const mock = await mockServer(onTestFinished);
      const noTarget = await runExample('sync-calls.ts', [], apiEnv(mock));
      expect(noTarget.code).toBe(2);
      expect(noTarget.stderr).toContain(
        'Give an output file, or --checkpoint <file> to print the new calls.',
      );
      const badWindow = await runExample('sync-calls.ts', ['x.ndjson', '--look-back', '1 day'], apiEnv(mock));
      expect(badWindow.code).toBe(2);
      expect(badWindow.stderr).toContain('--look-back 1 day: expected a duration such as 24h.');
      expect(badWindow.stderr).toContain('Usage: sync-calls.ts');
      expect(mock.journal()).toEqual([]);
    });
  });

  describe('export-in-parts.ts', () => {
    // Made when the tests run, not when the file is collected (a collection that runs nothing leaves none).
    let dir = '';
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'company-data-examples-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('exports every call exactly once with two worker processes, and resumes a part that stopped', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 530 } });
      const out = join(dir, 'parts');
      const args = ['--workers', '2', '--page-size', '50', '--out', out];
      const first = await runExample('export-in-parts.ts', args, apiEnv(mock));
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(lines(first.stdout).at(-1) ?? '')).toMatchObject({
        calls: 530,
        expected: 530,
        duplicates: 0,
        parts: 2,
        pages: 11,
      });
      // Oldest first, as the example reads them.
      const calls = (await everyCall(mock)).reverse();
      const merged = () =>
        lines(readFileSync(join(out, 'calls.ndjson'), 'utf8')).map((line) => JSON.parse(line) as Call);
      expect(merged().map((call) => call.id)).toEqual(calls.map((call) => call.id));
      // The parts were pages 1–5 and 6–11, each read once (plus page 1 by the coordinator).
      const pagesRead = () =>
        mock
          .journal()
          .filter((entry) => entry.path === '/v1/calls/' && entry.query.page_size === '50')
          .map((entry) => Number(entry.query.page ?? 1))
          .sort((a, b) => a - b);
      expect(pagesRead()).toEqual([1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);

      // Part 1 stopped after its first page, in the middle of writing its second: a new run redoes only the rest.
      const stateFile = join(out, 'part-1.json');
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { first: number; bytes: number };
      const firstPageBytes = calls
        .slice(250, 300)
        .reduce((sum, call) => sum + Buffer.byteLength(`${JSON.stringify(call)}\n`), 0);
      writeFileSync(stateFile, JSON.stringify({ ...state, next: state.first + 1, bytes: firstPageBytes }));
      mock.clearJournal();
      const second = await runExample('export-in-parts.ts', args, apiEnv(mock));
      expect(second.code, second.stderr).toBe(0);
      expect(pagesRead()).toEqual([1, 7, 8, 9, 10, 11]);
      expect(merged().map((call) => call.id)).toEqual(calls.map((call) => call.id));
    });

    it('says how many workers it runs when the pages are fewer than the workers asked for', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished, { sizes: { calls: 120 } });
      const out = join(dir, 'fewer-pages');
      const run = await runExample('export-in-parts.ts', ['--workers', '4', '--out', out], apiEnv(mock));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('2 pages of 100 calls: 2 workers, not 4 (a worker reads whole pages).');
      expect(JSON.parse(lines(run.stdout).at(-1) ?? '')).toMatchObject({ calls: 120, parts: 2, pages: 2 });
    });

    it('says how to call it when the arguments are wrong, before any request', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished);
      const noUrl = await runExample('export-in-parts.ts', ['--redis'], apiEnv(mock));
      expect(noUrl.code).toBe(2);
      expect(noUrl.stderr).toContain("Option '--redis <value>' argument missing");
      expect(noUrl.stderr).toContain('Usage: export-in-parts.ts');
      expect(noUrl.stderr).not.toContain('    at ');
      const notUrl = await runExample('export-in-parts.ts', ['--redis', '127.0.0.1:6379'], apiEnv(mock));
      expect(notUrl.code).toBe(2);
      expect(notUrl.stderr).toContain(
        '--redis 127.0.0.1:6379: expected a Redis URL, e.g. redis://127.0.0.1:6379.',
      );
      const letterO = await runExample('export-in-parts.ts', ['--quota', '1OO/60'], apiEnv(mock));
      expect(letterO.code).toBe(2);
      expect(letterO.stderr).toContain('--quota 1OO/60: expected <requests>/<seconds>, e.g. 100/60.');
      expect(letterO.stderr).not.toContain('    at ');
      const noWorkers = await runExample('export-in-parts.ts', ['--workers', '0'], apiEnv(mock));
      expect(noWorkers.code).toBe(2);
      expect(noWorkers.stderr).toContain('--workers 0: expected a whole number, 1 or more.');
      expect(mock.journal()).toEqual([]);
    });
  });

  describe('tracing.ts', () => {
    it('traces an export under a 10 % fault rate: one export span, a span per page with its attempts, an event per retry and 429', async ({
      expect,
      onTestFinished,
    }) => {
      const pages = 30;
      const mock = await mockServer(onTestFinished, {
        seed: 20,
        quota: false,
        sizes: { calls: pages * 100 },
        faultRate: {
          method: 'GET',
          path: '/v1/calls/',
          rate: 0.1,
          mix: [...DEFAULT_FAULT_MIX, { status: 429, headers: { 'retry-after': '1' } }],
        },
      });
      const run = await runExample('tracing.ts', ['--json'], apiEnv(mock));
      expect(run.code, run.stderr).toBe(0);
      type SpanRecord = {
        name: string;
        spanId: string;
        parentSpanId?: string;
        attributes: Record<string, unknown>;
        events: { name: string }[];
      };
      const spans = lines(run.stdout).map((line) => JSON.parse(line) as SpanRecord);
      const [walk, ...others] = spans.filter((span) => span.parentSpanId === undefined);
      expect(others).toEqual([]);
      expect(walk).toMatchObject({
        name: 'calls.list iterate',
        attributes: { 'company_data.pages': pages, 'company_data.outcome': 'ok' },
      });
      const pageSpans = spans.filter((span) => span !== walk);
      expect(
        pageSpans.every((span) => span.parentSpanId === walk?.spanId && span.name === 'calls.list page'),
      ).toBe(true);
      const journal = mock.journal().filter((entry) => entry.path === '/v1/calls/');
      const attempts = (page: number) => journal.filter((entry) => Number(entry.query.page) === page).length;
      expect(
        pageSpans
          .map((span) => [span.attributes['company_data.page'], span.attributes['company_data.attempts']])
          .sort(([a], [b]) => Number(a) - Number(b)),
      ).toEqual(Array.from({ length: pages }, (_, index) => [index + 1, attempts(index + 1)]));
      const events = (name: string) =>
        pageSpans.flatMap((span) => span.events.filter((event) => event.name === name));
      const faults = journal.filter((entry) => entry.fault !== null);
      // The mock's seed draws a 429 and failures the SDK retries among the export's requests.
      expect(faults.filter((entry) => entry.status === 429).length).toBeGreaterThan(0);
      expect(faults.filter((entry) => entry.status !== 429).length).toBeGreaterThan(1);
      expect(events('company_data.retry')).toHaveLength(
        faults.filter((entry) => entry.status !== 429).length,
      );
      expect(events('company_data.rate_limit.pause')).toHaveLength(
        journal.filter((entry) => entry.status === 429).length,
      );
      expect(run.stderr).toContain(`${pages * 100} calls exported`);
    });
  });

  describe('latest-transcripts.ts', () => {
    it('prints the transcripts of the newest recordings', async ({ expect, onTestFinished }) => {
      const mock = await mockServer(onTestFinished);
      const run = await runExample('latest-transcripts.ts', ['--count', '2'], apiEnv(mock));
      expect(run.code, run.stderr).toBe(0);
      const { data: newest } = await api<List<Recording>>(mock, '/recordings/?page_size=2');
      const headings = lines(run.stdout).filter((line) => line.startsWith('# '));
      expect(headings).toEqual(newest.map((recording) => `# ${recording.name} (${recording.id})`));
      for (const recording of newest) {
        const {
          data: { transcript },
        } = await api<{ data: RecordingTranscript }>(mock, `/recordings/${recording.id}/transcript/`);
        for (const segment of transcript)
          expect(run.stdout).toContain(`  ${segment.speaker}: ${segment.text}\n`);
      }
      expect(mock.journal().filter((entry) => entry.path.endsWith('/transcript/'))).toHaveLength(4);
    });
  });

  describe('lead-form-server.ts', () => {
    it('serves the form, submits posted leads with the SDK, refuses one without a phone, stops on SIGTERM', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished);
      // A bare token plus the base URL (the webhook URL works too: import-contacts uses it); no API key.
      const server = await start(() =>
        spawnExample('lead-form-server.ts', ['--port', '0'], {
          COMPANY_DATA_BASE_URL: mock.baseURL,
          COMPANY_DATA_LEAD_WEBHOOK: mock.tokens.lead,
        }),
      );
      const exited = finish(server);
      try {
        const stdout = createInterface({ input: server.stdout as NodeJS.ReadableStream });
        let origin: string | undefined;
        for await (const line of stdout) {
          origin = /^Lead form on (http:\/\/\S+)\//.exec(line)?.[1];
          if (origin) break;
        }
        // On the example's default host, on the port the system gave (--port 0).
        expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);

        const form = await request(`${origin}/`);
        expect(form.statusCode).toBe(200);
        expect(await form.body.text()).toContain('name="phone_number"');

        const posted = await request(`${origin}/leads`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            referer: 'https://acme.example/quote',
          },
          body: new URLSearchParams({
            customer_name: 'Grace Hopper',
            phone_number: '(415) 555-0100',
            service_type: 'roof repair',
            notes: '',
          }).toString(),
        });
        expect(posted.statusCode).toBe(200);
        expect(await posted.body.text()).toContain('Thank you');
        const [conversation, ...others] = mock.conversations();
        expect(others).toEqual([]);
        expect(conversation?.phone).toBe('+14155550100');
        expect(conversation?.leads[0]?.body).toEqual({
          phone_number: '(415) 555-0100',
          customer_name: 'Grace Hopper',
          service_type: 'roof repair',
          page_url: 'https://acme.example/quote',
        });

        const noPhone = await request(`${origin}/leads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ customer_name: 'Nobody' }),
        });
        expect(noPhone.statusCode).toBe(422);
        expect(await noPhone.body.json()).toEqual({ ok: false, error: 'Please enter your phone number.' });
        expect(mock.leads()).toHaveLength(1);
      } finally {
        server.kill('SIGTERM');
      }
      const run = await exited;
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('POST /leads 200');
      expect(run.stdout).toMatch(/SIGTERM received, stopping\nStopped\n$/);
    });
  });

  describe('import-contacts.ts', () => {
    // Made when the tests run, not when the file is collected (a collection that runs nothing leaves none).
    let dir = '';
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'company-data-examples-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('adds the sample contacts once; a second run adds nothing', async ({ expect, onTestFinished }) => {
      const mock = await mockServer(onTestFinished);
      // The webhook URL alone is enough: no API key, no base URL.
      const env = {
        COMPANY_DATA_AUDIENCE_WEBHOOK: `${mock.baseURL}/outbound-campaigns/webhook/${mock.tokens.audience}/`,
      };
      const first = await runExample('import-contacts.ts', ['examples/contacts.csv'], env);
      expect(first.code, first.stderr).toBe(0);
      expect(lines(first.stdout).at(-1)).toBe('4 added, 1 already there, 0 rejected');
      const members = mock.members(mock.tokens.audience);
      expect(members.map(({ first_name, phone, email }) => ({ first_name, phone, email }))).toEqual([
        { first_name: 'Ada', phone: '+14155550123', email: 'ada@example.com' },
        { first_name: 'Grace', phone: '+14155550199', email: 'grace@example.com' },
        { first_name: 'Alan', phone: '', email: 'alan@example.com' },
        { first_name: 'Katherine', phone: '+14155550142', email: '' },
      ]);
      expect(members[1]?.custom_fields).toEqual({ plan: 'silver', notes: 'Prefers texts, after 5 pm' });
      expect(members[3]?.custom_fields).toEqual({ plan: 'gold', notes: 'Said "call me Kathy"' });
      expect(first.stdout).toContain(`line 6: already in the audience ${members[0]?.id}`);

      const second = await runExample('import-contacts.ts', ['examples/contacts.csv'], env);
      expect(second.code, second.stderr).toBe(0);
      expect(lines(second.stdout).at(-1)).toBe('0 added, 5 already there, 0 rejected');
      expect(mock.members(mock.tokens.audience)).toEqual(members);
    });

    it('reports the rows it cannot import, imports the others, and exits with 1', async ({
      expect,
      onTestFinished,
    }) => {
      const mock = await mockServer(onTestFinished);
      const file = join(dir, 'mixed.csv');
      writeFileSync(file, 'first_name,phone,email\r\nNo,,\r\nBad,12,\r\nGood,415-555-0177,\r\n');
      const run = await runExample('import-contacts.ts', [file], {
        ...apiEnv(mock),
        COMPANY_DATA_AUDIENCE_WEBHOOK: mock.tokens.audience,
      });
      expect(run.code).toBe(1);
      expect(lines(run.stdout).at(-1)).toBe('1 added, 0 already there, 2 rejected');
      expect(run.stderr).toMatch(/line 2: rejected: .*phone or email/);
      expect(run.stderr).toMatch(/line 3: rejected: .*not a valid phone number/);
      expect(mock.members(mock.tokens.audience).map((member) => member.first_name)).toEqual(['Good']);
    });
  });

  describe('npx tsx examples/<file>', () => {
    it('runs from a clone before any build: tsx resolves every workspace package to its sources', async ({
      expect,
    }) => {
      // Each code entry point of each package, and the source its `@company-data/source` condition names.
      const expected: Record<string, string> = {};
      for (const folder of readdirSync(join(ROOT, 'packages'))) {
        const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8'));
        for (const [subpath, target] of Object.entries<Record<string, string>>(manifest.exports)) {
          const source = target['@company-data/source'];
          if (source !== undefined)
            expected[`${manifest.name}${subpath.slice(1)}`] = pathToFileURL(
              join(ROOT, 'packages', folder, source),
            ).href;
        }
      }
      expect(Object.keys(expected)).toEqual(
        expect.arrayContaining(['@company-data/sdk', '@company-data/mock-server/msw']),
      );
      // A script in the clone, run the way the README says (`npx tsx <file>` from the clone's root).
      const dir = mkdtempSync(join(ROOT, '.tsx-probe-'));
      try {
        const probe = join(dir, 'probe.mjs');
        writeFileSync(
          probe,
          `console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(Object.keys(expected))}.map((name) => [name, import.meta.resolve(name)]))));`,
        );
        const run = await finish(
          await start(() => spawnNode([join(ROOT, 'node_modules/tsx/dist/cli.mjs'), probe], {})),
        );
        expect(run.code, run.stderr).toBe(0);
        expect(JSON.parse(run.stdout)).toEqual(expected);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('with-mock.mjs', () => {
    it('Ctrl+C stops a server example cleanly and exits 0, even pressed again while it stops', async ({
      expect,
    }) => {
      // A terminal's Ctrl+C sends SIGINT to the whole foreground process group: with-mock, the mock and the
      // example alike. Its own process group (detached) lets the test do the same. A second one while the
      // example stops (pressed again, or passed on late) must not kill it mid-stop.
      const child = spawn(
        process.execPath,
        ['examples/with-mock.mjs', 'examples/lead-form-server.ts', '--port', '0'],
        { cwd: ROOT, env: envWith({}), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
      );
      const exited = finish(child);
      const group = -(child.pid as number);
      const stdout = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      let origin: URL | undefined;
      for await (const line of stdout) {
        const found = /^Lead form on (http:\/\/\S+)/.exec(line)?.[1];
        if (found) {
          origin = new URL(found);
          // A request still arriving (its headers not complete) keeps the server stopping until it ends.
          const socket = connect(Number(origin.port), origin.hostname);
          await once(socket, 'connect');
          socket.write(`POST /leads HTTP/1.1\r\nhost: ${origin.host}\r\n`);
          process.kill(group, 'SIGINT');
          // Stopping: Ctrl+C again; then the request goes away and the example ends.
          for await (const next of stdout) if (next === 'SIGINT received, stopping') break;
          process.kill(group, 'SIGINT');
          socket.destroy();
          break;
        }
      }
      // The example said where it listens (so the stop above ran): its default host, the port the system gave.
      expect(origin?.origin).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      const run = await exited;
      expect({ code: run.code, signal: run.signal }, run.stderr).toEqual({ code: 0, signal: null });
      expect(run.stdout).toMatch(/SIGINT received, stopping\nStopped\n$/);
    });

    it('a SIGINT or SIGTERM sent to with-mock alone reaches the example, which stops and exits 0', async ({
      expect,
    }) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const child = await start(() =>
          spawnNode(['examples/with-mock.mjs', 'examples/lead-form-server.ts', '--port', '0'], {}),
        );
        const exited = finish(child);
        const stdout = createInterface({ input: child.stdout as NodeJS.ReadableStream });
        for await (const line of stdout) if (line.startsWith('Lead form on ')) break;
        child.kill(signal);
        const run = await exited;
        expect({ code: run.code, signal: run.signal }, run.stderr).toEqual({ code: 0, signal: null });
        expect(run.stdout).toMatch(new RegExp(`${signal} received, stopping\nStopped\n$`));
      }
    });

    it('passes --mock-<option>[=<value>] before the example to the mock server, and says when it refuses one', async ({
      expect,
    }) => {
      const run = await finish(
        await start(() =>
          spawnNode(
            ['examples/with-mock.mjs', '--mock-calls=7', '--mock-freeze', 'examples/export-calls-ndjson.ts'],
            {},
          ),
        ),
      );
      expect(run.code, run.stderr).toBe(0);
      expect(lines(run.stdout)).toHaveLength(7);
      expect(run.stderr).toContain('Exported 7 calls to stdout');
      const refused = await finish(
        await start(() =>
          spawnNode(['examples/with-mock.mjs', '--mock-nope=1', 'examples/list-active-users.ts'], {}),
        ),
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('company-data-mock: unknown option --nope');
      expect(refused.stderr).not.toContain('    at ');
    });

    it('--keep keeps one mock across runs: the second import adds none, syncs an hour apart see new, changed and removed calls; --stop stops it', async ({
      expect,
      onTestFinished,
    }) => {
      const dir = mkdtempSync(join(tmpdir(), 'with-mock-keep-'));
      const keptFile = join(dir, 'kept-mock.json');
      onTestFinished(async () => {
        await stopKeptMock(keptFile);
        rmSync(dir, { recursive: true, force: true });
      });
      const withMock = async (...args: string[]) =>
        finish(
          await start(() =>
            spawnNode(['examples/with-mock.mjs', ...args], { COMPANY_DATA_KEPT_MOCK: keptFile }),
          ),
        );
      const mockOptions = ['--mock-calls=240', '--mock-freeze', '--mock-activity=deletions=60/h'];
      const csv = 'examples/contacts.csv';

      const first = await withMock('--keep', ...mockOptions, 'examples/import-contacts.ts', csv);
      expect(first.stdout, first.stderr).toContain('4 added, 1 already there, 0 rejected');
      const kept = JSON.parse(readFileSync(keptFile, 'utf8'));
      expect(first.stderr).toContain(`Kept mock started at ${kept.summary.baseURL}`);
      const second = await withMock('--keep', 'examples/import-contacts.ts', csv);
      expect(second.stdout, second.stderr).toContain('0 added, 5 already there, 0 rejected');
      expect(second.stderr).toContain(`Kept mock (since ${kept.since}) at ${kept.summary.baseURL}`);
      // Other options would not apply to the mock that runs: refused, saying how to go on.
      const other = await withMock('--keep', '--mock-calls=7', 'examples/list-active-users.ts');
      expect(other.code).toBe(2);
      expect(other.stderr).toContain(
        'A kept mock runs with --calls 240 --freeze --activity deletions=60/h, not --calls 7: use it without --mock- options, or stop it first with `node examples/with-mock.mjs --stop`.',
      );

      // The export, then an hour of the company's life before each sync (the clock is frozen: exact counts).
      const copy = join(dir, 'calls.ndjson');
      const exported = await withMock('--keep', 'examples/export-calls-ndjson.ts', copy);
      expect(exported.stderr).toContain('Exported 240 calls');
      const sync = ['--keep', '--advance', '1h', 'examples/sync-calls.ts', copy, '--look-back', '24h'];
      const firstSync = await withMock(...sync);
      expect(firstSync.code, firstSync.stderr).toBe(0);
      expect(firstSync.stderr).toContain('Mock clock moved on 1h, to 2026-06-01T13:00:00.000Z.');
      expect(firstSync.stderr).toContain(`Synced: 319 new calls; ${WINDOW_STARTS_NOW};`);
      const secondSync = await withMock(...sync);
      expect(secondSync.code, secondSync.stderr).toBe(0);
      expect(secondSync.stderr).toContain('Mock clock moved on 1h, to 2026-06-01T14:00:00.000Z.');
      expect(secondSync.stderr).toContain('Synced: 338 new calls; 9 changed and 34 removed within 24h;');

      const stopped = await withMock('--stop');
      expect(stopped.stderr).toBe(`Stopped the kept mock at ${kept.summary.baseURL}.\n`);
      expect(existsSync(keptFile)).toBe(false);
      for (const pid of [kept.keeperPid, kept.summary.pid]) expect(() => process.kill(pid, 0)).toThrow();
      expect((await withMock('--stop')).stderr).toBe('No kept mock runs.\n');
    });

    it('runs an example against a throwaway mock server, as the README shows', async ({ expect }) => {
      const run = await finish(
        await start(() => spawnNode(['examples/with-mock.mjs', 'examples/list-active-users.ts'], {})),
      );
      expect(run.code, run.stderr).toBe(0);
      expect(lines(run.stdout).length).toBeGreaterThan(0);
      expect(run.stderr).toMatch(/\d+ active users/);
    });
  });
});
