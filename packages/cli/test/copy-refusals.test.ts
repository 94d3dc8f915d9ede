// `company-data export|sync` as a person (or cron) meets its failures: the command in a child process, the
// mock server over a real socket. Nothing of the user's is lost, a refused run leaves nothing behind, and
// every failure is one line (no stack trace unless asked for) with the exit code that says what to do.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type MockServer, startMockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sourceBundle } from '../../../scripts/lib/source-bundle.mjs';
import { envFor, runChild, runInProcess } from './support/run.js';

let mock: MockServer;
let dir: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 3, clock: 'frozen' });
});
afterAll(() => mock.close());
beforeEach(({ onTestFinished }) => {
  mock.reset();
  dir = mkdtempSync(join(tmpdir(), 'company-data-refusals-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
});

const child = (argv: readonly string[], env: Record<string, string | undefined> = {}) =>
  runChild(argv, { env: { ...envFor(mock), ...env } });

/** The lines of stderr a failure prints: `company-data: …`, and nothing that looks like a stack. */
function failureLines(stderr: string): string[] {
  expect(stderr).not.toMatch(/^\s+at /m);
  return stderr.split('\n').filter((line) => line.startsWith('company-data: '));
}

describe("the user's own file", () => {
  it('is refused (exit 2) and left byte for byte as it was, its time included, before any request', async () => {
    const file = join(dir, 'precious.ndjson');
    const mine = Buffer.from('{"mine":1}\n');
    writeFileSync(file, mine);
    const then = new Date('2026-01-02T03:04:05Z');
    utimesSync(file, then, then);
    const ran = await child(['export', 'users', '--out', file]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toBe(
      `company-data: ${file} already holds 11 bytes, and no progress file (${file}.checkpoint) says a copy wrote them: it was left untouched. Give another file name, or move it away.\n`,
    );
    expect(readFileSync(file).equals(mine)).toBe(true);
    expect(statSync(file).mtime.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(readdirSync(dir)).toEqual(['precious.ndjson']);
    expect(mock.journal()).toEqual([]);
  });

  it('an empty file is taken', async () => {
    const file = join(dir, 'empty.ndjson');
    writeFileSync(file, '');
    const ran = await child(['export', 'users', '--out', file]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe(`Exported 12 users to ${file}.\n`);
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(12);
  });
});

describe('a refused run leaves nothing behind', () => {
  it('a key the server refuses: exit 2, no file, no progress file, no lock', async () => {
    const ran = await child(['export', 'users', '--out', join(dir, 'typo.ndjson')], {
      COMPANY_DATA_API_KEY: mock.keys.revoked,
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'company-data: The server refused the API key (Invalid API key.): check COMPANY_DATA_API_KEY. Nothing was written.\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a missing folder is named as such, and a folder given as the file gets a file to give', async () => {
    const missing = await child(['export', 'users', '--out', join(dir, 'nodir', 'x.ndjson')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `company-data: the folder ${join(dir, 'nodir')} does not exist: create it, or give a file in a folder that exists.\n`,
    );
    mkdirSync(join(dir, 'adir'));
    const folder = await child(['export', 'users', '--out', join(dir, 'adir')]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(
      `company-data: ${join(dir, 'adir')} is a folder: give a file, e.g. ${join(dir, 'adir', 'users.ndjson')}.\n`,
    );
    expect(readdirSync(dir)).toEqual(['adir']);
    expect(readdirSync(join(dir, 'adir'))).toEqual([]);
    expect(mock.journal()).toEqual([]);
  });

  it('an unknown host: exit 2 at once (no retry mends it), naming --base-url, nothing written', async () => {
    const hosts = fileURLToPath(new URL('./support/unknown-hosts.mjs', import.meta.url));
    const lookups = join(tmpdir(), `unknown-hosts-${process.pid}-${Date.now()}.log`);
    const ran = await child(
      [
        'sync',
        'calls',
        '--out',
        join(dir, 'calls.ndjson'),
        '--base-url',
        'http://api.company-data.invalid/v1',
      ],
      { NODE_OPTIONS: `--import=${pathToFileURL(hosts).href}`, UNKNOWN_HOSTS_LOG: lookups },
    );
    // Asked once: a retry would look the host up again (and wait its backoff first).
    expect(readFileSync(lookups, 'utf8')).toBe('api.company-data.invalid\n');
    rmSync(lookups);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'company-data: Connection failed: the host api.company-data.invalid was not found (ENOTFOUND): check the host of the base URL, set in --base-url (GET http://api.company-data.invalid/v1/calls/?page_size=1&page=1). Nothing was written.\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("the API's quota", () => {
  // Two requests an hour for the key: the count and the first page pass, the second page waits an hour.
  const spendQuota = () => mock.setKeyQuota(mock.keys.valid, { requests: 2, perSeconds: 3_600 });

  it('a wait longer than --max-wait stops the run with exit 75 and the time to run again; the next run goes on', async () => {
    spendQuota();
    // On the mock's clock (frozen at 2026-06-01T12:00:00Z): the time to run again is exact.
    const run = () =>
      runInProcess(['export', 'calls', '--out', 'calls.ndjson', '--max-wait', '10m'], {
        env: envFor(mock),
        cwd: dir,
        clockOf: mock,
      });
    const stopped = await run();
    expect(stopped.code).toBe(75);
    expect(failureLines(stopped.stderr)).toEqual([
      "company-data: the API's quota is spent: it asks to wait 3600 s, longer than --max-wait allows (600 s). Run the same command again after 2026-06-01T13:00:00Z, or allow a longer --max-wait. Every page stored before stays.",
    ]);
    expect(readFileSync(join(dir, 'calls.ndjson'), 'utf8').split('\n').filter(Boolean)).toHaveLength(100);

    mock.setKeyQuota(mock.keys.valid, null);
    const resumed = await run();
    expect(resumed.code, resumed.stderr).toBe(0);
    const ids = readFileSync(join(dir, 'calls.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(new Set(ids).size).toBe(240);
    expect(ids).toHaveLength(240);
  });

  it('in a child process, says the time to run again in UTC; a first page refused leaves nothing', async () => {
    mock.setKeyQuota(mock.keys.valid, { requests: 1, perSeconds: 3_600 });
    const before = Date.now();
    const ran = await child(['sync', 'calls', '--out', join(dir, 'calls.ndjson')]);
    const after = Date.now();
    expect(ran.code).toBe(75);
    const [line] = failureLines(ran.stderr);
    const at =
      /^company-data: the API's quota is spent: it asks to wait 3600 s, longer than --max-wait allows \(300 s\)\. Run the same command again after (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ), or allow a longer --max-wait\.$/.exec(
        line ?? '',
      )?.[1];
    expect(at, ran.stderr).toMatch(/Z$/);
    // An hour from when it ran, to the second.
    expect(Date.parse(at ?? '')).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3_600_000);
    expect(Date.parse(at ?? '')).toBeLessThanOrEqual(Math.ceil(after / 1000) * 1000 + 3_600_000);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a wait within --max-wait is sat out, with a line saying until when', async () => {
    mock.setKeyQuota(mock.keys.valid, { requests: 2, perSeconds: 60 });
    const ran = await runInProcess(['export', 'calls', '--out', 'calls.ndjson', '--max-wait', '2m'], {
      env: envFor(mock),
      cwd: dir,
      clockOf: mock,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain(
      "export: the API's quota is spent (429): waiting 60 s, until 2026-06-01T12:01:00Z\n",
    );
  });
});

describe('a full disk and a folder this user may not write', () => {
  it('a full disk (ENOSPC, from /dev/full): exit 1, one line naming the file, no progress recorded', async () => {
    const file = join(dir, 'full.ndjson');
    symlinkSync('/dev/full', file);
    const ran = await child(['export', 'users', '--out', file]);
    expect(ran.code).toBe(1);
    expect(failureLines(ran.stderr)).toEqual([
      `company-data: the disk holding ${file} is full: free some space (ENOSPC: no space left on device, write). Then run the same command again.`,
    ]);
    expect(readdirSync(dir)).toEqual(['full.ndjson']);
  });

  // As root (CI), a folder's permissions stop nobody: the command runs as the user `nobody` instead, where
  // that user can read this repository (the compiled command and its node_modules).
  const asRoot = process.getuid?.() === 0;
  const nobody = asRoot ? userNamed('nobody') : undefined;
  const reachable =
    !asRoot || (nobody !== undefined && readableBy(nobody, sourceBundle('packages/cli/src/entries/bin.ts')));
  if (!reachable)
    console.warn(
      'company-data-refusals: the user nobody cannot read this repository, so EACCES is tested in-process only (failure-message.test.ts)',
    );

  it.skipIf(!reachable)(
    'a folder it may not write (EACCES): exit 2, one line naming the folder',
    async ({ onTestFinished }) => {
      // npm test's temporary folder is its own user's alone (0700): the folder goes where nobody may pass.
      const base = nobody === undefined || readableBy(nobody, `${tmpdir()}/.`) ? tmpdir() : '/tmp';
      const open = mkdtempSync(join(base, 'company-data-refusals-'));
      onTestFinished(() => rmSync(open, { recursive: true, force: true }));
      const folder = join(open, 'readonly');
      mkdirSync(folder);
      chmodSync(open, 0o755);
      chmodSync(folder, 0o555);
      const ran = await runChild(['export', 'users', '--out', join(folder, 'users.ndjson')], {
        env: envFor(mock),
        user: nobody,
      });
      expect(ran.code).toBe(2);
      expect(failureLines(ran.stderr)).toEqual([
        `company-data: this user may not write in the folder ${folder}: give a file in a folder it may write, or let it write there (EACCES: permission denied, mkdir '${join(folder, 'users.ndjson.lock')}'). Nothing was written.`,
      ]);
      expect(readdirSync(folder)).toEqual([]);
    },
  );
});

describe('the stack of a failure', () => {
  it('is printed with --debug or DEBUG=company-data only', async () => {
    const argv = ['export', 'users', '--out', join(dir, 'users.ndjson')];
    const refused = { COMPANY_DATA_API_KEY: mock.keys.revoked };
    const plain = await child(argv, refused);
    expect(plain.stderr).not.toMatch(/^\s+at /m);
    for (const ran of [
      await child([...argv, '--debug'], refused),
      await child(argv, { ...refused, DEBUG: 'company-data' }),
    ]) {
      expect(ran.code).toBe(2);
      const [line, ...stack] = ran.stderr.split('\n');
      expect(line).toBe(plain.stderr.trimEnd());
      expect(stack[0]).toMatch(/^AuthenticationError: /);
      expect(stack.join('\n')).toMatch(/^\s+at /m);
    }
    expect((await child(argv, { ...refused, DEBUG: 'express:*' })).stderr).toBe(plain.stderr);
    expect(existsSync(join(dir, 'users.ndjson'))).toBe(false);
  });
});

/** A user's ids, from the system's user database. */
function userNamed(name: string): { uid: number; gid: number } | undefined {
  const entry = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  const [, , uid, gid] = entry.stdout.trim().split(':');
  return entry.status === 0 && uid && gid ? { uid: Number(uid), gid: Number(gid) } : undefined;
}

/** Whether `user` can read `file` (and so pass every folder above it). */
function readableBy(user: { uid: number; gid: number }, file: string): boolean {
  const check = spawnSync(
    process.execPath,
    ['-e', `require('node:fs').accessSync(${JSON.stringify(file)})`],
    {
      uid: user.uid,
      gid: user.gid,
    },
  );
  return check.status === 0;
}
