import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@company-data/mock-server';
import { CompanyData } from '@company-data/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copyList } from '../src/copy/copy-list.js';
import { NdjsonCopy } from '../src/copy/ndjson-copy.js';
import { WINDOW_STARTS_NOW, windowStartsNow } from '../src/copy/window-starts-now.js';
import { ProgressBar } from '../src/progress-bar.js';
import { heldIds } from './support/held.js';
import { envFor, runInProcess } from './support/run.js';

let mock: MockServer;
let dir: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 3, clock: 'frozen' });
});
afterAll(() => mock.close());
beforeEach(async ({ onTestFinished }) => {
  mock.reset();
  dir = await mkdtemp(join(tmpdir(), 'company-data-copy-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
});

const copy = (argv: readonly string[], options: { signal?: AbortSignal; tty?: boolean } = {}) =>
  runInProcess(argv, { env: envFor(mock), cwd: dir, ...options });

const ids = async (file: string) =>
  (await readFile(join(dir, file), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);

/** The ids of a list, newest first, as the mock serves them. */
const held = (list: 'calls' | 'users') => heldIds(mock, list);

describe('company-data export', () => {
  it('copies every record into the file with a line of progress per tenth, then says so', async () => {
    const ran = await copy(['export', 'calls', '--out', 'calls.ndjson']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('Exported 240 calls to calls.ndjson.\n');
    expect(ran.stderr.split('\n')[0]).toBe('export: calls 0/240 (0%)');
    expect(ran.stderr).toMatch(/export: calls 240\/240 \(100%\)\n$/);
    expect(await ids('calls.ndjson')).toEqual(await held('calls'));
    // The lock is gone with the run; the progress stays, marked complete.
    expect(existsSync(join(dir, 'calls.ndjson.lock'))).toBe(false);
    expect(existsSync(join(dir, 'calls.ndjson.lock.json'))).toBe(false);
    expect(JSON.parse(await readFile(join(dir, 'calls.ndjson.checkpoint'), 'utf8'))).toMatchObject({
      records: 240,
      complete: true,
    });
  });

  it('leaves a complete export as it is, and says how to go on', async () => {
    await copy(['export', 'users', '--out', 'users.ndjson']);
    const again = await copy(['export', 'users', '--out', 'users.ndjson', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      command: 'export',
      list: 'users',
      destination: 'users.ndjson',
      outcome: 'already-complete',
      resumed: false,
      caughtUp: false,
      created: 0,
      changed: 0,
      removed: 0,
      records: 12,
      appliesChanges: false,
      lookBackMs: 0,
    });
    const text = await copy(['export', 'users', '--out', 'users.ndjson']);
    expect(text.stdout).toBe(
      'users.ndjson is already a complete export (12 users). To add what was created since, run company-data sync users with the same destination; to export everything again, delete (or move away) users.ndjson and users.ndjson.checkpoint.\n',
    );
  });

  it('stops after the page in hand on an interrupt, exits 130, and the next run resumes exactly', async () => {
    const controller = new AbortController();
    let pages = 0;
    const interrupted = await runInProcess(['export', 'calls', '--out', 'calls.ndjson'], {
      env: envFor(mock),
      cwd: dir,
      signal: controller.signal,
      onStderr: (text) => {
        if (/calls [1-9]\d*\/240/.test(text) && ++pages === 1) controller.abort();
      },
    });
    expect(interrupted.code, interrupted.stderr).toBe(130);
    expect(interrupted.stdout).toBe(
      'Interrupted: 100 calls are safely in calls.ndjson. Run the same command again to go on.\n',
    );
    const before = await held('calls');
    expect(await ids('calls.ndjson')).toEqual(before.slice(0, 100));
    // A call arrives between the runs: the resumed run finishes the old walk, then goes on to the present.
    mock.clock.advance(60_000);
    const arrived = mock.records.create('calls', {}) as { id: string };
    const resumed = await copy(['export', 'calls', '--out', 'calls.ndjson']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(
      /^export: resuming an interrupted run: 100 calls already in calls\.ndjson\n/,
    );
    expect(resumed.stdout).toBe(
      'Exported 241 calls to calls.ndjson, finishing the interrupted run, then going on to the present.\n',
    );
    expect(await ids('calls.ndjson')).toEqual([...before, arrived.id]);
  });
});

describe('company-data sync', () => {
  it('takes only what is new, and lists what changed or left within the window (a file applies neither)', async () => {
    // The first run with a window keeps what the window holds, to compare with next time.
    expect((await copy(['sync', 'calls', '--out', 'calls.ndjson', '--look-back', '400d'])).stdout).toBe(
      `Synced calls into calls.ndjson: 240 new; ${WINDOW_STARTS_NOW}; 240 in the copy.\n`,
    );
    const [newest, second] = (await held('calls')) as [string, string];
    mock.records.update('calls', newest, { is_excused: true });
    mock.records.delete('calls', second);
    const arrived = mock.records.create('calls', {}) as { id: string };
    const ran = await copy(['sync', 'calls', '--out', 'calls.ndjson', '--look-back', '400d']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe(
      'Synced calls into calls.ndjson: 1 new; 1 changed and 1 removed within the look-back window (listed above; a file is append-only, so they are not applied); 241 in the copy.\n',
    );
    expect(ran.stderr).toMatch(new RegExp(`^sync: changed ${newest} \\(created \\S+\\)$`, 'm'));
    expect(ran.stderr).toMatch(new RegExp(`^sync: removed ${second}$`, 'm'));
    expect((await ids('calls.ndjson')).at(-1)).toBe(arrived.id);
  });

  it('after an export (no window kept), says the look-back window starts now instead of counting 0 changes', async () => {
    expect((await copy(['export', 'calls', '--out', 'calls.ndjson'])).code).toBe(0);
    const checkpoint = JSON.parse(await readFile(join(dir, 'calls.ndjson.checkpoint'), 'utf8')).checkpoint;
    expect(JSON.parse(checkpoint).window).toBe(null);
    const first = await copy(['sync', 'calls', '--out', 'calls.ndjson', '--look-back', '400d']);
    expect(first.stdout).toBe(
      'Synced calls into calls.ndjson: 0 new; the look-back window starts now: the next sync reports what changed or left it; 240 in the copy.\n',
    );
    // The next one has a window to compare with.
    const second = await copy(['sync', 'calls', '--out', 'calls.ndjson', '--look-back', '400d']);
    expect(second.stdout).toBe(
      'Synced calls into calls.ndjson: 0 new; 0 changed and 0 removed within the look-back window (listed above; a file is append-only, so they are not applied); 240 in the copy.\n',
    );
  });

  it('refuses bad arguments with exit 2 and the fix, before any request', async () => {
    const before = mock.journal().length;
    const cases: [string[], string][] = [
      [['sync'], 'sync needs the list to copy (calls, users, teams, recordings)'],
      [['sync', 'leads', '--out', 'x'], 'Unknown list "leads": use one of calls, users, teams, recordings.'],
      [['sync', 'calls', 'users', '--out', 'x'], 'sync copies one list; unexpected "users".'],
      [
        ['sync', 'calls'],
        'sync needs one destination: --out <file> (NDJSON) or --to postgres://user@host/database.',
      ],
      [['sync', 'calls', '--out', 'x', '--to', 'postgres://h/d'], 'sync needs one destination'],
      [['sync', 'calls', '--to', 'mysql://h/d'], '--to expects a PostgreSQL connection string'],
      [
        ['sync', 'calls', '--out', 'x', '--schema', 's'],
        '--schema goes with --to postgres://…: a file has no schema.',
      ],
      [
        ['sync', 'calls', '--out', 'x', '--look-back', '1.5h'],
        '--look-back expects a whole number and a unit',
      ],
      [['sync', 'calls', '--out', 'x', '--wait', 'soon'], '--wait expects a whole number and a unit'],
      [
        ['sync', 'calls', '--out', 'x', '--concurrency', '0'],
        '--concurrency expects a whole number from 1 to 16',
      ],
      [
        ['export', 'calls', '--out', 'x', '--look-back', '1h'],
        '--look-back belongs to sync (company-data sync calls … --look-back 1h), not export.',
      ],
    ];
    for (const [argv, message] of cases) {
      const ran = await copy(argv);
      expect(ran.code, argv.join(' ')).toBe(2);
      expect(ran.stderr, argv.join(' ')).toContain(message);
    }
    expect(mock.journal().length).toBe(before);
  });
});

describe('windowStartsNow', () => {
  it('is true with no checkpoint and with one that kept no window, false with a window or a foreign text', () => {
    const base = {
      checkpoint: 'company-data sync checkpoint',
      version: 1,
      list: 'calls',
      filters: {},
      mark: null,
      walk: null,
    };
    expect(windowStartsNow(undefined)).toBe(true);
    expect(windowStartsNow(JSON.stringify({ ...base, window: null }))).toBe(true);
    expect(
      windowStartsNow(
        JSON.stringify({ ...base, window: { from: '2026-05-31T12:00:00.000Z', fingerprints: {} } }),
      ),
    ).toBe(false);
    expect(windowStartsNow('not json')).toBe(false);
  });
});

describe('the end of a copy', () => {
  it('an interrupt that lands on the last batch (no request left) completes the copy', async () => {
    const controller = new AbortController();
    const destination = await NdjsonCopy.open(join(dir, 'calls.ndjson'));
    const client = new CompanyData({ apiKey: mock.keys.valid, baseURL: mock.baseURL });
    let pages = 0;
    try {
      const result = await copyList({
        client,
        list: 'calls',
        destination,
        mode: 'export',
        signal: controller.signal,
        // 240 calls: three pages of records, then the batch that completes the walk, on which Ctrl+C lands.
        onPage: () => {
          if (++pages === 4) controller.abort();
        },
      });
      expect(result).toEqual({
        outcome: 'done',
        resumed: false,
        caughtUp: false,
        created: 240,
        changed: 0,
        removed: 0,
        records: 240,
      });
    } finally {
      await destination.close();
      await client.close();
    }
    expect(pages).toBe(4);
    expect(JSON.parse(await readFile(join(dir, 'calls.ndjson.checkpoint'), 'utf8'))).toMatchObject({
      records: 240,
      complete: true,
    });
  });

  it('a complete copy shows its final count as 100 %, also when records left the list meanwhile', () => {
    let written = '';
    const progress = new ProgressBar({ write: (text: string) => (written += text) }, 'export');
    progress.start('calls', 240);
    progress.update(238);
    progress.complete(238);
    progress.complete(238);
    expect(written.split('\n').filter(Boolean).slice(-2)).toEqual([
      'export: calls 238/240 (99%)',
      'export: calls 238/238 (100%)',
    ]);
  });
});
