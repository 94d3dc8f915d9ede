import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Call, RecordingDetail } from '@company-data/contract';
import { type MockServer, startMockServer } from '@company-data/mock-server';
import { CompanyData } from '@company-data/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { snapshot, UsageError } from '../src/index.js';
import { checkpointPath } from '../src/snapshot/checkpoint.js';
import { envFor, runInProcess } from './support/run.js';

let source: MockServer;
let dir: string;

beforeAll(async () => {
  source = await startMockServer({ port: 0, seed: 9, sizes: { recordings: 30, calls: 150 } });
  dir = await mkdtemp(join(tmpdir(), 'company-data-options-'));
});
afterAll(async () => {
  await source.close();
  await rm(dir, { recursive: true, force: true });
});

async function company(file: string) {
  const fixture = JSON.parse(await readFile(join(dir, file), 'utf8'));
  return fixture.companies[0] as { calls: Call[]; recordings: RecordingDetail[] };
}

async function newestCalls(count: number): Promise<Call[]> {
  const client = new CompanyData({ apiKey: source.keys.valid, baseURL: source.baseURL });
  try {
    return await client.calls.list({ page_size: 100 }).toArray({ limit: count });
  } finally {
    await client.close();
  }
}

describe('company-data snapshot: bounds', () => {
  it('reads the newest calls and recordings up to --max-calls and --max-recordings', async () => {
    const ran = await runInProcess(['snapshot', 'newest.json', '--max-calls', '7', '--max-recordings', '0'], {
      env: envFor(source),
      cwd: dir,
    });
    expect(ran.code).toBe(0);
    const { calls, recordings } = await company('newest.json');
    expect(calls.map((call) => call.id)).toEqual((await newestCalls(7)).map((call) => call.id));
    expect(recordings).toEqual([]);
    expect(ran.stderr).toMatch(/recordings: 0\n/);
  });

  it('reads only what was created at or after --since', async () => {
    const calls = await newestCalls(150);
    const since = (calls[120] as Call).created_at;
    const ran = await runInProcess(['snapshot', 'since.json', '--since', since, '--max-calls', 'all'], {
      env: envFor(source),
      cwd: dir,
    });
    expect(ran.code).toBe(0);
    const expected = calls.filter((call) => call.created_at >= since).map((call) => call.id);
    expect(expected.length).toBeGreaterThan(100);
    expect((await company('since.json')).calls.map((call) => call.id)).toEqual(expected);
    expect(ran.stderr).toMatch(/calls: 100\/\d+\n/);
  });

  it('waits out 429s under the rate gate and counts them in the summary', async () => {
    source.setKeyQuota(source.keys.valid, { requests: 10, perSeconds: 30 });
    try {
      const ran = await runInProcess(
        ['snapshot', 'throttled.json', '--max-calls', '30', '--max-recordings', '5'],
        {
          env: envFor(source),
          cwd: dir,
          clockOf: source,
        },
      );
      expect(ran.code).toBe(0);
      const throttled = source.journal().filter((entry) => entry.outcome === 'throttled').length;
      expect(throttled).toBeGreaterThan(0);
      expect(ran.stdout).toContain(`${throttled} answer${throttled === 1 ? '' : 's'} 429 (requests paused`);
      expect(ran.stderr).toMatch(/rate limited \(429\): every request waits 30 s/);
      expect((await company('throttled.json')).calls).toHaveLength(30);
    } finally {
      source.setKeyQuota(source.keys.valid, null);
      source.clearJournal();
    }
  });

  it('draws a bar in a terminal and plain lines in a log', async () => {
    const args = ['snapshot', 'progress.json', '--max-calls', '20', '--max-recordings', '2'];
    const tty = await runInProcess(args, { env: envFor(source), cwd: dir, tty: true });
    // Redrawn in place: the cursor goes back to column 1 (ESC [1G) before each drawing.
    const esc = String.fromCharCode(27);
    expect(tty.stderr).toContain(
      `${esc}[1Gsnapshot: transcripts and custom fields [${'='.repeat(40)}] 22/22 100%`,
    );
    const log = await runInProcess(args, { env: envFor(source), cwd: dir });
    expect(log.stderr).not.toContain(esc);
    expect(
      log.stderr.split('\n').filter((line) => line.startsWith('snapshot: transcripts and custom fields')),
    ).toHaveLength(11);
  });
});

describe('company-data snapshot: mistakes get the fix, and nothing is written', () => {
  it.each([
    [['snapshot'], /needs the file to write/],
    [['snapshot', 'a.json', 'b.json'], /writes one file; unexpected "b.json"/],
    [
      ['snapshot', 'x.json', '--max-calls', 'many'],
      /--max-calls expects a whole number or "all", got "many"/,
    ],
    [
      ['snapshot', 'x.json', '--concurrency', '40'],
      /concurrency expects a whole number from 1 to 16; got 40/,
    ],
    [['snapshot', 'x.json', '--since', 'yesterday'], /since expects a date such as 2026-01-31/],
    [['snapshot', 'x.json', '--since', '2026-01-31T09:00'], /since expects a date/],
    [['snapshot', 'x.json', '--colour'], /^company-data: Unknown option --colour for snapshot\.$/m],
    [
      ['snapshot', 'missing/dir/x.json'],
      /directory of .*missing\/dir\/x\.json does not exist: create it first/,
    ],
    [['snapshot', '.'], /is a directory: give the path of the fixture file/],
    [
      ['exprot'],
      /^company-data: Unknown command "exprot" \(did you mean "export"\?\): use snapshot, verify, export, sync or check\.$/m,
    ],
    [
      ['verfy'],
      /^company-data: Unknown command "verfy" \(did you mean "verify"\?\): use snapshot, verify, export, sync or check\.$/m,
    ],
    [['deploy'], /^company-data: Unknown command "deploy": use snapshot, verify, export, sync or check\.$/m],
    [['verify', '--pages', 'two'], /--pages expects a whole number, got "two"/],
    [['verify', '--page-size', '500'], /pageSize expects a whole number from 1 to 100; got 500/],
  ])('%j', async (args, message) => {
    const empty = await mkdtemp(join(dir, 'mistake-'));
    const ran = await runInProcess(args, { env: envFor(source), cwd: empty });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr).toMatch(/company-data --help/);
    expect(await readdir(empty)).toEqual([]);
  });

  it('needs a key and a base URL, from the environment or flags', async () => {
    const noKey = await runInProcess(['snapshot', 'x.json'], {
      env: { COMPANY_DATA_BASE_URL: source.baseURL },
      cwd: dir,
    });
    expect(noKey.stderr).toMatch(/No API key: set COMPANY_DATA_API_KEY \(or pass --api-key\)/);
    const noURL = await runInProcess(['verify'], { env: { COMPANY_DATA_API_KEY: 'k' }, cwd: dir });
    expect(noURL.stderr).toMatch(/No base URL: set COMPANY_DATA_BASE_URL \(or pass --base-url\)/);
    const badURL = await runInProcess(['verify', '--base-url', 'api.example.com', '--api-key', 'k'], {
      env: {},
      cwd: dir,
    });
    expect(badURL.stderr).toMatch(/The base URL "api.example.com" is not a URL/);
    // The SDK's own rules, reported with the flag or variable the user set.
    const apiRoot = await runInProcess(['verify', '--base-url', source.apiRoot, '--api-key', 'k'], {
      env: {},
      cwd: dir,
    });
    expect(apiRoot.stderr).toContain(`--base-url must be the API's base URL, whose path ends in /v1`);
    expect(apiRoot.stderr).toContain(`use ${source.baseURL}`);
    const bearer = await runInProcess(['verify'], {
      env: { COMPANY_DATA_BASE_URL: source.baseURL, COMPANY_DATA_API_KEY: `Bearer ${source.keys.valid}` },
      cwd: dir,
    });
    expect(bearer.stderr).toMatch(/^company-data: COMPANY_DATA_API_KEY starts with "Bearer "/m);
    expect(bearer.stderr).not.toContain(source.keys.valid);
    expect([noKey.code, noURL.code, badURL.code, apiRoot.code, bearer.code]).toEqual([2, 2, 2, 2, 2]);
    const flags = await runInProcess(
      [
        'snapshot',
        'flags.json',
        '--base-url',
        source.baseURL,
        '--api-key',
        source.keys.valid,
        '--max-calls',
        '1',
        '--timeout',
        '5000',
      ],
      { env: {}, cwd: dir },
    );
    expect(flags.code).toBe(0);
  });

  it('reports an API failure with exit 1 and keeps what it fetched', async () => {
    source.injectFault({ path: /\/calls\/[^/]+\/transcript\/$/, status: 404, times: 1 });
    const ran = await runInProcess(['snapshot', 'failed.json', '--max-calls', '5'], {
      env: envFor(source),
      cwd: dir,
    });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/404 Injected fault.*Nothing was written; a snapshot keeps what it fetched/);
    await expect(readFile(join(dir, 'failed.json'))).rejects.toThrow(/ENOENT/);
    // What it fetched (recordings, read before the calls' transcripts) is kept for the next run: removed
    // here, as --fresh would, so that the test leaves nothing in the temp dir.
    const kept = checkpointPath(join(dir, 'failed.json'));
    const [header, ...entries] = (await readFile(kept, 'utf8')).trim().split('\n');
    expect(JSON.parse(header ?? '')).toEqual({ company_data_snapshot: 1, baseURL: source.baseURL });
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((line) => (JSON.parse(line) as { kind: string }).kind)).toContain('recording');
    await rm(kept);
  });

  it('leaves nothing in the temporary folder once the snapshot is written: no checkpoint, no folder of them', async ({
    onTestFinished,
  }) => {
    const temp = await mkdtemp(join(dir, 'tmp-'));
    vi.stubEnv('TMPDIR', temp);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const ran = await runInProcess(['snapshot', 'clean.json', '--max-calls', '3', '--max-recordings', '2'], {
      env: envFor(source),
      cwd: dir,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect((await company('clean.json')).calls).toHaveLength(3);
    expect(await readdir(temp)).toEqual([]);
  });

  it('prints its help and version', async () => {
    const help = await runInProcess(['--help'], { env: {}, cwd: dir });
    expect(help.stdout).toMatch(/Usage: company-data <command>[\s\S]*--anonymize[\s\S]*--audience-webhook/);
    expect((await runInProcess(['verify', '-h'], { env: {}, cwd: dir })).stdout).toBe(help.stdout);
    expect((await runInProcess([], { env: {}, cwd: dir })).stdout).toBe(help.stdout);
    expect((await runInProcess(['--version'], { env: {}, cwd: dir })).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('throws a UsageError from code, before any request', async () => {
    const before = source.journal().length;
    await expect(
      snapshot({ output: join(dir, 'code.json'), maxRecordings: -1, apiKey: 'k', baseURL: source.baseURL }),
    ).rejects.toThrow(UsageError);
    expect(source.journal()).toHaveLength(before);
  });
});

describe('company-data snapshot: a key the server refuses', () => {
  it('exits 2 (bad configuration, like verify), names the variable or flag to fix and writes nothing', async () => {
    const fromVariable = await runInProcess(['snapshot', 'refused.json'], {
      env: { ...envFor(source), COMPANY_DATA_API_KEY: source.keys.revoked },
      cwd: dir,
    });
    expect(fromVariable.code).toBe(2);
    expect(fromVariable.stderr).toBe(
      'company-data: The server refused the API key (Invalid API key.): check COMPANY_DATA_API_KEY. Nothing was written.\n',
    );
    const fromFlag = await runInProcess(['snapshot', 'refused.json', '--api-key', source.keys.expired], {
      env: envFor(source),
      cwd: dir,
    });
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toMatch(
      /The server refused the API key \(.*\): check --api-key\. Nothing was written\.\n$/,
    );
    expect(fromFlag.stderr).not.toContain('resume');
    expect((await readdir(dir)).filter((name) => name.includes('refused'))).toEqual([]);
    // Nor in the temp dir: a checkpoint with nothing fetched has nothing to resume.
    expect(existsSync(checkpointPath(join(dir, 'refused.json')))).toBe(false);
  });
});
