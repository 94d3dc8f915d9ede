import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { DEFAULT_CLI_PORT, parseMockCliArgs } from '../../../src/entries/cli/args.js';
import { type MockCliOutcome, runMockCli } from '../../../src/entries/cli/run.js';
import {
  createMockServer,
  DEFAULT_ACTIVITY,
  fixtureJsonSchema,
  MOCK_SERVER_VERSION,
  type MockServer,
  THROTTLED_KEY_QUOTA,
} from '../../../src/index.js';
import { sampleFixture } from '../../support/fixture-sample.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (text: string) => out.push(text), err: (text: string) => err.push(text) } };
}

function serving(outcome: MockCliOutcome): MockServer {
  if (outcome.kind !== 'serving') throw new Error(`expected a running server, got exit ${outcome.code}`);
  return outcome.server;
}

async function firstPage(baseURL: string, key: string) {
  const response = await request(`${baseURL}/calls/?page_size=5`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.statusCode, json: (await response.body.json()) as { data: unknown[] } };
}

/** A folder for the current test, removed when it ends. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'company-data-mock-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('CLI arguments', () => {
  it('has defaults', () => {
    expect(parseMockCliArgs([])).toEqual({
      options: { port: DEFAULT_CLI_PORT, host: '127.0.0.1', sizes: {} },
      fixturePath: undefined,
      keyQuotas: [],
      log: 'off',
      onUnmatched: 'ignore',
      json: false,
      exitOnStdinClose: false,
      parentPid: undefined,
      help: false,
      version: false,
      fixtureSchema: false,
    });
  });

  it('reads every option', () => {
    const request = parseMockCliArgs([
      '--port=0',
      '--host',
      '0.0.0.0',
      '--seed',
      '7',
      '--users',
      '3',
      '--teams=2',
      '--recordings=1',
      '--calls',
      '1000000',
      '--now',
      '2027-01-01T00:00:00Z',
      '--freeze',
      '--throttle',
      '10/1.5',
      '--throttle-key',
      'valid=2/10',
      '--throttle-key=svc_live_x=y=off',
      '--max-body-bytes',
      '2048',
      '--admin-token',
      'tok',
      '--journal-limit',
      '500',
      '--fixture',
      'f.json',
      '--json',
      '--log',
      'json',
      '--on-unmatched',
      'warn',
      '--exit-on-stdin-close',
      '--parent-pid',
      '4242',
    ]);
    expect(request.options).toEqual({
      port: 0,
      host: '0.0.0.0',
      seed: 7,
      sizes: { users: 3, teams: 2, recordings: 1, calls: 1_000_000 },
      now: '2027-01-01T00:00:00Z',
      clock: 'frozen',
      quota: { requests: 10, perSeconds: 1.5 },
      maxBodyBytes: 2048,
      adminToken: 'tok',
      journalLimit: 500,
    });
    expect(request).toMatchObject({
      fixturePath: 'f.json',
      json: true,
      log: 'json',
      onUnmatched: 'warn',
      exitOnStdinClose: true,
      parentPid: 4242,
      keyQuotas: [
        { key: 'valid', quota: { requests: 2, perSeconds: 10 } },
        { key: 'svc_live_x=y', quota: false },
      ],
    });
    expect(parseMockCliArgs(['--throttle', 'off']).options.quota).toBe(false);
    expect(parseMockCliArgs(['--journal-limit', 'all']).options.journalLimit).toBe(Number.POSITIVE_INFINITY);
    expect(parseMockCliArgs(['--journal-limit', '0']).options.journalLimit).toBe(0);
    expect(parseMockCliArgs(['--max-sessions', '8']).options.maxSessions).toBe(8);
    expect(parseMockCliArgs(['--session-idle', '90s']).options.sessionIdleMs).toBe(90_000);
    expect(parseMockCliArgs(['--session-idle', '2h']).options.sessionIdleMs).toBe(7_200_000);
    expect(parseMockCliArgs(['--session-idle', 'never']).options.sessionIdleMs).toBe(false);
    expect(parseMockCliArgs(['-h']).help).toBe(true);
    expect(parseMockCliArgs(['-v']).version).toBe(true);
    expect(parseMockCliArgs(['--fixture-schema']).fixtureSchema).toBe(true);
  });

  it('reads the activity: a bare --activity is the preset, off is none, keys go over the defaults', () => {
    expect(parseMockCliArgs(['--activity']).options.activity).toEqual(DEFAULT_ACTIVITY);
    expect(parseMockCliArgs(['--activity', '--freeze']).options).toMatchObject({
      activity: DEFAULT_ACTIVITY,
      clock: 'frozen',
    });
    expect(parseMockCliArgs(['--activity', 'off']).options.activity).toBe(false);
    expect(parseMockCliArgs(['--activity=calls=20/s,deletions=0']).options.activity).toEqual({
      ...DEFAULT_ACTIVITY,
      callsPerMinute: 1200,
      callDeletionsPerHour: 0,
    });
    expect(() => parseMockCliArgs(['--activity', 'calls=fast'])).toThrow(
      '--activity expects calls=<n>/<unit> with a unit of s, m, h or d (e.g. calls=20/s, or 0 for none), got "fast"',
    );
    expect(() => parseMockCliArgs(['--activity', 'call=1/s'])).toThrow(
      '--activity has no key "call" (did you mean "calls"?)',
    );
  });

  it('reads the latency profile and the fault rate', () => {
    const request = parseMockCliArgs([
      '--latency',
      'lognormal:median=30,p99=400',
      '--fault-rate',
      '0.05',
      '--fault-mix',
      '503*2,cut:10',
      '--fault-max',
      '9',
    ]);
    expect(request.options.latency).toEqual({ medianMs: 30, p99Ms: 400 });
    expect(request.options.faultRate).toEqual({
      rate: 0.05,
      mix: [{ status: 503, weight: 2 }, { cutAfterBytes: 10 }],
      max: 9,
    });
    expect(parseMockCliArgs(['--latency', '10..80', '--fault-rate', '1']).options).toMatchObject({
      latency: { minMs: 10, maxMs: 80 },
      faultRate: { rate: 1 },
    });
  });

  it.each([
    [['--port', 'eighty'], /--port expects a whole number from 0 to 65535, got "eighty"/],
    [['--port', '99999'], /--port expects a whole number from 0 to 65535, got "99999"/],
    [['--calls=-5'], /--calls expects a whole number from 0/],
    [['--parent-pid', '0'], /--parent-pid expects a whole number from 1/],
    [['--now', 'yesterday'], /--now expects an ISO 8601 time such as 2026-06-01T12:00:00Z, got "yesterday"/],
    [
      ['--throttle', 'lots'],
      /--throttle expects <requests>\/<seconds> with both above 0 \(e.g. 100\/60\) or "off"/,
    ],
    [['--throttle', '0/60'], /--throttle expects/],
    [['--throttle-key', 'valid'], /--throttle-key expects <key>=<requests>\/<seconds> or <key>=off/],
    [['--throttle-key', 'valid=fast'], /--throttle-key valid expects <requests>\/<seconds>/],
    [['--log', 'loud'], /--log expects off, text or json, got "loud"/],
    [['--on-unmatched', 'fail'], /--on-unmatched expects ignore, warn, error, got "fail"/],
    [['--latency', 'fast'], /--latency expects <ms> \(e\.g\. 20\), <min>\.\.<max>/],
    [['--latency', '80..10'], /--latency latency: minMs must not exceed maxMs/],
    [['--fault-rate', '5%'], /--fault-rate expects a share from 0 to 1 \(e\.g\. 0\.05\), got "5%"/],
    [['--fault-rate', '1.5'], /--fault-rate expects a share from 0 to 1/],
    [['--fault-rate', '0.1', '--fault-mix', 'boom'], /--fault-mix cannot read "boom": use a status/],
    [['--fault-mix', '503'], /--fault-mix and --fault-max need --fault-rate <share>/],
    [['--fault-rate', '0.1', '--fault-max', '0'], /--fault-max expects a whole number from 1/],
    [
      ['--journal-limit=-1'],
      /--journal-limit expects a whole number from 0 \(none kept\), or all to keep every entry, got "-1"/,
    ],
    [['--journal-limit', 'lots'], /--journal-limit expects a whole number from 0 \(none kept\), or all/],
    [['--max-sessions', 'many'], /--max-sessions/],
    [
      ['--session-idle', '30'],
      /--session-idle expects a time such as 90s, 30m or 2h \(at least 1s\), or never; got "30"/,
    ],
    [['--session-idle', '0m'], /--session-idle expects a time such as 90s, 30m or 2h \(at least 1s\)/],
    [['--nope'], /Unknown option/],
    [['positional'], /positional/],
  ])('rejects %j with how to fix it', (argv, message) => {
    expect(() => parseMockCliArgs(argv)).toThrow(message);
  });
});

describe('runMockCli', () => {
  it('prints one JSON line with everything a harness needs', async () => {
    const { out, io } = capture();
    const server = serving(await runMockCli(['--port', '0', '--json', '--seed', '3'], io));
    try {
      expect(out).toHaveLength(1);
      const printed = JSON.parse(out[0] as string);
      expect(printed).toEqual({
        pid: process.pid,
        version: MOCK_SERVER_VERSION,
        id: 'default',
        baseURL: server.baseURL,
        apiRoot: server.apiRoot,
        openapiURL: `${server.apiRoot}/openapi.json`,
        adminURL: `${server.apiRoot}/__admin/`,
        uiURL: `${server.apiRoot}/__admin/ui`,
        keys: server.keys,
        tokens: server.tokens,
        now: expect.stringMatching(/^2026-06-01T12:00:0\d\.\d{3}Z$/),
        clock: 'running',
        activity: false,
        webhooks: server.webhooks(),
        records: server.recordCounts(),
        journals: {
          requests: { limit: 10_000, held: 0, dropped: 0, lastSeq: 0 },
          changes: { limit: 10_000, held: 0, dropped: 0, lastSeq: 0 },
        },
        memory: {
          rss: expect.any(Number),
          heapUsed: expect.any(Number),
          heapTotal: expect.any(Number),
          external: expect.any(Number),
          arrayBuffers: expect.any(Number),
        },
        quota: { default: false, keys: { throttled: THROTTLED_KEY_QUOTA } },
        adminToken: server.adminToken,
      });
      expect(printed.records[0]).toMatchObject({
        users: 12,
        teams: 4,
        recordings: 60,
        calls: 240,
        arrived: 0,
      });
      expect(printed.memory.rss).toBeGreaterThan(printed.memory.heapUsed);
      expect(printed.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const { audiences, leadSources } = printed.webhooks;
      expect(audiences.map((audience: { token: string }) => audience.token)).toContain(
        server.tokens.audience,
      );
      const tokens = leadSources.map((source: { token: string }) => source.token);
      expect(tokens).toEqual(expect.arrayContaining([server.tokens.lead, server.tokens.deletedLead]));
      expect(leadSources.some((source: { deleted: boolean }) => source.deleted)).toBe(true);
      expect((await firstPage(printed.baseURL, printed.keys.valid)).json.data).toHaveLength(5);
    } finally {
      await server.close();
    }
  });

  it('prints the addresses, keys, webhooks and clock in words', async () => {
    const { out, io } = capture();
    const server = serving(await runMockCli(['--port', '0', '--host', '0.0.0.0', '--freeze'], io));
    try {
      const text = out.join('');
      for (const value of [
        server.baseURL,
        server.apiRoot,
        server.adminToken,
        `${server.apiRoot}/openapi.json`,
        ...Object.values(server.keys),
        ...server.webhooks().audiences.map((audience) => audience.url),
        ...server.webhooks().leadSources.map((source) => source.url),
      ]) {
        expect(text).toContain(value);
      }
      expect(text).toMatch(/limited +svc_live_\S+ +\(users and teams only\)/);
      expect(text).toMatch(/throttled +svc_live_\S+ +\(429 after 5 requests in 5 s\)/);
      expect(text).toMatch(/Clock +2026-06-01T12:00:00.000Z, frozen/);
      expect(text).toMatch(/Quota +none per key by default; own quotas: throttled 5\/5 s\n/);
      expect(text).toMatch(/Activity +none \(--activity: /);
      expect(text).toContain(
        '  Journals   the newest 10000 requests and the newest 10000 changes (--journal-limit); 0 dropped so far (GET /__admin/: journals)\n',
      );
      expect(text).toContain(
        '  Sessions   a world of its own per test worker: POST /__admin/sessions, then its keys (up to 500, each ending after 30 minutes unused; --max-sessions, --session-idle)\n',
      );
      expect(text).toMatch(
        /\n {2}Memory {5}rss \d+ MB, heap \d+ MB; 240 calls, 60 recordings, 12 users, 4 teams \(GET \/__admin\/: memory, records\)\n/,
      );
      expect(text).toContain(`pid ${process.pid}`);
      expect(text).toContain('--log text');
    } finally {
      await server.close();
    }
  });

  it('shows the activity in force in the banner and in --json, as --activity reads it back', async () => {
    const spec = 'calls=20/s,excused=25%,excused-after=1..30,recordings=4/h,deactivations=2/d,deletions=1/m';
    const words = capture();
    const server = serving(await runMockCli(['--port', '0', '--freeze', '--activity', spec], words.io));
    const json = capture();
    const other = serving(await runMockCli(['--port', '0', '--json', '--activity'], json.io));
    try {
      expect(words.out.join('')).toContain(
        `  Activity   ${spec} (seeded by --seed; comes as the clock is moved)\n`,
      );
      expect(server.activity()).toEqual(parseMockCliArgs(['--activity', spec]).options.activity);
      expect(JSON.parse(json.out[0] as string).activity).toEqual(DEFAULT_ACTIVITY);
    } finally {
      await server.close();
      await other.close();
    }
  });

  it('gives the keys named by --throttle-key their own quota, and refuses an unknown key', async () => {
    const { out, io } = capture();
    const server = serving(
      await runMockCli(
        [
          '--port',
          '0',
          '--throttle',
          '9/9',
          '--throttle-key',
          'valid=1/30',
          '--throttle-key',
          'throttled=off',
        ],
        io,
      ),
    );
    try {
      expect(out.join('')).toMatch(
        /Quota +9 requests per 9 s per key by default; own quotas: throttled off, valid 1\/30 s\n/,
      );
      const quotas = Object.fromEntries(server.apiKeys().map((key) => [key.name, key.quota]));
      expect(quotas['Full access']).toEqual({ requests: 1, perSeconds: 30 });
      expect(quotas.Throttled).toBe(false);
      expect(quotas.Limited ?? null).toBeNull();
      expect((await firstPage(server.baseURL, server.keys.valid)).status).toBe(200);
      expect((await firstPage(server.baseURL, server.keys.valid)).status).toBe(429);
    } finally {
      await server.close();
    }
    // The same quotas in the --json line.
    const json = capture();
    const jsonServer = serving(
      await runMockCli(
        ['--port', '0', '--json', '--throttle', '9/9', '--throttle-key', 'valid=1/30'],
        json.io,
      ),
    );
    await jsonServer.close();
    expect(JSON.parse(json.out.join('')).quota).toEqual({
      default: { requests: 9, perSeconds: 9 },
      keys: { throttled: THROTTLED_KEY_QUOTA, valid: { requests: 1, perSeconds: 30 } },
    });
    const failed = capture();
    expect(await runMockCli(['--port', '0', '--throttle-key', 'nobody=1/1'], failed.io)).toEqual({
      kind: 'exit',
      code: 2,
    });
    expect(failed.err.join('')).toMatch(
      /no key "nobody"\. Use a well-known key's name \(valid, expired, .*throttled\)/,
    );
  });

  it('logs each request on stderr as text or JSON, naming the key, hiding webhook tokens and saying why a request was refused', async () => {
    // The logged duration is real time (performance.now), frozen here so that it is exactly 0.
    vi.useFakeTimers({ toFake: ['performance'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    for (const format of ['text', 'json'] as const) {
      const { err, io } = capture();
      const server = serving(await runMockCli(['--port', '0', '--log', format], io));
      try {
        await firstPage(server.baseURL, server.keys.valid);
        await request(`${server.apiRoot}/messaging-agent/webhook/${server.tokens.lead}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ phone_number: '415-555-0100' }),
        });
        const refused = await request(`${server.baseURL}/calls/?colour=red`, {
          headers: { authorization: `Bearer ${server.keys.valid}` },
        });
        const why = ((await refused.body.json()) as { error: { detail: string } }).error.detail;
        expect(why).toContain('colour');
        const lines = err.join('').trimEnd().split('\n');
        expect(lines).toHaveLength(3);
        const all = lines.join('\n');
        expect(all).not.toContain(server.keys.valid);
        expect(all).not.toContain(server.tokens.lead);
        if (format === 'json') {
          const [list, lead] = lines.map((line) => JSON.parse(line));
          expect(list).toMatchObject({
            method: 'GET',
            path: '/v1/calls/',
            query: 'page_size=5',
            status: 200,
          });
          expect(list).toMatchObject({ outcome: 'served', keyName: 'Full access', fault: null });
          expect(list).toMatchObject({ durationMs: 0, latencyMs: 0 });
          expect(lead).toMatchObject({ path: '/messaging-agent/webhook/{token}/', outcome: 'lead_queued' });
          expect(list.detail).toBeNull();
          expect(JSON.parse(lines[2] as string)).toMatchObject({
            status: 400,
            outcome: 'invalid_request',
            detail: why,
          });
        } else {
          expect(lines[0]).toMatch(
            /^\S+Z GET \/v1\/calls\/\?page_size=5 200 served 0\.0ms key="Full access"$/,
          );
          expect(lines[1]).toMatch(/POST \/messaging-agent\/webhook\/\{token\}\/ 200 lead_queued/);
          expect(lines[2]).toMatch(/ 400 invalid_request /);
          expect(lines[2]?.endsWith(` detail=${JSON.stringify(why)}`)).toBe(true);
        }
      } finally {
        await server.close();
      }
    }
  });

  it('serves with a latency profile and a fault rate, and logs what each request met', async () => {
    const { out, err, io } = capture();
    const args = [
      '--port',
      '0',
      '--log',
      'text',
      '--latency',
      '20',
      '--fault-rate',
      '1',
      '--fault-mix',
      '503',
    ];
    const server = serving(await runMockCli([...args, '--fault-max', '1'], io));
    try {
      expect(out.join('')).toMatch(
        /Trouble +latency 20 ms; 100% of requests fail \(at most 1\) \(seeded by --seed\)\n/,
      );
      expect((await firstPage(server.baseURL, server.keys.valid)).status).toBe(503);
      expect((await firstPage(server.baseURL, server.keys.valid)).status).toBe(200);
      const lines = err.join('').trimEnd().split('\n');
      expect(lines[0]).toMatch(
        / 503 fault_injected \d+\.\dms latency=20ms fault=\{"status":503,"fromRate":true\} detail="Injected fault\."$/,
      );
      expect(lines[1]).toMatch(/ 200 served \d+\.\dms latency=20ms key="Full access"$/);
    } finally {
      await server.close();
    }
  });

  it('prints the version, the usage and the fixture JSON Schema', async () => {
    const version = capture();
    expect(await runMockCli(['--version'], version.io)).toEqual({ kind: 'exit', code: 0 });
    expect(version.out.join('')).toBe(`${MOCK_SERVER_VERSION}\n`);
    const help = capture();
    expect(await runMockCli(['--help'], help.io)).toEqual({ kind: 'exit', code: 0 });
    expect(help.out.join('')).toMatch(/Usage: company-data-mock/);
    const schema = capture();
    expect(await runMockCli(['--fixture-schema'], schema.io)).toEqual({ kind: 'exit', code: 0 });
    expect(JSON.parse(schema.out.join(''))).toEqual(fixtureJsonSchema());
    const bad = capture();
    expect(await runMockCli(['--port', 'x'], bad.io)).toEqual({ kind: 'exit', code: 2 });
    expect(bad.err.join('')).not.toContain('Usage:');
  });
});

describe('runMockCli with a fixture file', () => {
  async function fails(args: string[], cwd?: string): Promise<string> {
    const failed = capture();
    expect(await runMockCli(['--port', '0', ...args], failed.io, cwd)).toEqual({ kind: 'exit', code: 1 });
    return failed.err.join('');
  }

  it('loads a fixture file given relative to the working directory', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'good.json'), JSON.stringify(sampleFixture()));
    const { out, io } = capture();
    const server = serving(await runMockCli(['--port', '0', '--fixture', 'good.json'], io, dir));
    try {
      expect((await firstPage(server.baseURL, 'svc_live_fixture_key')).json.data).toHaveLength(2);
      // The banner lists the fixture's own keys, which a test copies from it.
      const banner = out.join('');
      expect(banner).toMatch(/Your fixture's keys\n {4}svc_live_fixture_key {3}\S.*\n/);
      expect(banner).toMatch(/ {4}svc_live_fixture_users_only {3}.*reads users/);
    } finally {
      await server.close();
    }
  });

  it("shows each fixture key's own quota in the banner's quota line and in --json's quota.keys", async () => {
    const dir = tempDir();
    const fixture = sampleFixture();
    const company = fixture.companies[0] as (typeof fixture.companies)[number];
    company.keys = [
      ...(company.keys ?? []),
      { value: 'svc_live_slow', quota: { requests: 2, per_seconds: 10 } },
      { value: 'svc_live_unlimited', quota: false },
      { value: 'svc_live_overridden', quota: { requests: 3, per_seconds: 3 } },
    ];
    writeFileSync(join(dir, 'quotas.json'), JSON.stringify(fixture));
    const args = ['--port', '0', '--fixture', 'quotas.json', '--throttle-key', 'svc_live_overridden=7/7'];
    const { out, io } = capture();
    const server = serving(await runMockCli(args, io, dir));
    try {
      expect(out.join('')).toMatch(
        /Quota +none per key by default; own quotas: throttled 5\/5 s, svc_live_slow 2\/10 s, svc_live_unlimited off, svc_live_overridden 7\/7 s\n/,
      );
      expect(out.join('')).toMatch(/ {4}svc_live_slow {3}API key \(.*; own quota 2\/10 s\)/);
    } finally {
      await server.close();
    }
    const json = capture();
    await serving(await runMockCli([...args, '--json'], json.io, dir)).close();
    expect(JSON.parse(json.out.join('')).quota.keys).toEqual({
      throttled: THROTTLED_KEY_QUOTA,
      svc_live_slow: { requests: 2, perSeconds: 10 },
      svc_live_unlimited: false,
      svc_live_overridden: { requests: 7, perSeconds: 7 },
    });
  });

  it('names the absolute path of a missing file, a directory or an unreadable file, and what to do', async () => {
    const dir = tempDir();
    expect(await fails(['--fixture', 'missing.json'], dir)).toBe(
      `company-data-mock: Fixture file not found: ${join(dir, 'missing.json')} ("missing.json" from ${dir}). Check the path, or leave out --fixture to serve generated data.\n`,
    );
    mkdirSync(join(dir, 'folder'));
    expect(await fails(['--fixture', 'folder'], dir)).toMatch(
      /is a directory: .*folder\. Give the JSON file inside it/,
    );
    if (process.getuid?.() !== 0) {
      writeFileSync(join(dir, 'secret.json'), '{}');
      chmodSync(join(dir, 'secret.json'), 0o000);
      expect(await fails(['--fixture', join(dir, 'secret.json')])).toMatch(
        /permission denied\. Make it readable/,
      );
    }
  });

  it('points at the line and column of a syntax error', async () => {
    const dir = tempDir();
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{\n  "companies": [\n    { "name": "A" }\n    { "name": "B" }\n  ]\n}\n');
    expect(await fails(['--fixture', file])).toMatch(
      new RegExp(`^company-data-mock: ${file}:4:5: not valid JSON: comma expected\\. Fix the file`),
    );
    writeFileSync(file, '{"companies": [');
    expect(await fails(['--fixture', file])).toMatch(new RegExp(`${file}:1:16: not valid JSON`));
  });

  it('lists every schema problem with its line and column, up to a cap', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ companies: [{ name: 'A', users: [{ id: 1 }], lead_source: [] }] }, null, 2),
    );
    const message = await fails(['--fixture', file]);
    expect(message).toMatch(
      /^company-data-mock: The fixture .*bad\.json is not valid \(\d+ problems; nothing was loaded\):\n/,
    );
    expect(message).toContain(
      `${file}:7:17  companies[0].users[0].id: Invalid input: expected string, received number`,
    );
    expect(message).toContain(`${file}:6:9  companies[0].users[0].email:`);
    expect(message).toMatch(new RegExp(`${file}:3:\\d+  companies\\[0\\]: Unrecognized key: "lead_source"`));
    expect(message).toContain('--fixture-schema');

    const many = { companies: [{ name: 'A', users: Array.from({ length: 30 }, () => ({ id: 'x' })) }] };
    writeFileSync(file, JSON.stringify(many));
    const capped = await fails(['--fixture', file]);
    // 240 problems (8 for each of the 30 users): the first 20 listed, then how many more.
    expect(capped.match(/companies\[0\]\.users\[\d+\]/g)?.length).toBe(20);
    expect(capped).toContain('\n  … and 220 more\n');
  });
});

describe('runMockCli refusing a command line', () => {
  it.each([
    [['--prot', '4010'], 'unknown option --prot (did you mean --port?)'],
    [['--fixtures=test/fixture.json'], 'unknown option --fixtures (did you mean --fixture?)'],
    [['--colour'], 'unknown option --colour'],
    [['--port', 'eighty'], '--port expects a whole number from 0 to 65535, got "eighty"'],
  ])(
    '%j: one line saying what is wrong, then where the help is (not the whole usage)',
    async (argv, problem) => {
      const failed = capture();
      expect(await runMockCli(argv, failed.io)).toEqual({ kind: 'exit', code: 2 });
      expect(failed.err.join('')).toBe(
        `company-data-mock: ${problem}\nRun company-data-mock --help for every option.\n`,
      );
      expect(failed.out).toEqual([]);
    },
  );
});

describe('runMockCli listen errors', () => {
  it('says the port is busy and how to choose another', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const failed = capture();
      expect(await runMockCli(['--port', String(port)], failed.io)).toEqual({ kind: 'exit', code: 1 });
      expect(failed.err.join('')).toBe(
        `company-data-mock: port ${port} on 127.0.0.1 is already in use (another company-data-mock?). Stop that process, or choose another port: --port <n>, or --port 0 for any free one.\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('says a host is not an address of this machine', async () => {
    const failed = capture();
    expect(await runMockCli(['--port', '0', '--host', '192.0.2.1'], failed.io)).toEqual({
      kind: 'exit',
      code: 1,
    });
    expect(failed.err.join('')).toMatch(
      /cannot listen on host "192\.0\.2\.1": it is not an address of this machine/,
    );
  });
});

describe('runMockCli --state', () => {
  /** A world with changes and activity on a frozen clock, saved into a file of the test's folder. */
  async function savedWorld(dir: string) {
    const world = createMockServer({ clock: 'frozen', activity: { callsPerMinute: 30 } });
    const created = world.records.create('calls', { summary: 'Saved with the world.' });
    world.clock.advance(20 * 60_000);
    const state = world.saveState();
    writeFileSync(join(dir, 'world.json'), JSON.stringify(state, null, 2));
    return { world, state, createdId: created.id };
  }

  it('starts from a saved state: the same clock, keys and lists', async () => {
    const dir = tempDir();
    const { world, createdId } = await savedWorld(dir);
    const { out, io } = capture();
    const server = serving(await runMockCli(['--port', '0', '--json', '--state', 'world.json'], io, dir));
    try {
      const printed = JSON.parse(out[0] as string);
      expect(printed.now).toBe('2026-06-01T12:20:00.000Z');
      expect(printed.keys).toEqual(world.keys);
      const body = async (mock: MockServer, path: string, search = '') => {
        const headers = { authorization: `Bearer ${mock.keys.valid}` };
        const result = await mock.handle({ method: 'GET', path, search, headers });
        return result.drop ? '' : result.response.body;
      };
      const page = '?page_size=50';
      expect(await body(server, '/v1/calls/', page)).toBe(await body(world, '/v1/calls/', page));
      const detail = await body(server, `/v1/calls/${createdId}/`);
      expect(detail).toBe(await body(world, `/v1/calls/${createdId}/`));
      expect(detail).toContain('"summary":"Saved with the world."');
    } finally {
      await server.close();
    }
  });

  it("names a state's bad field at its line and column, a missing file, and the flags a state holds", async () => {
    const dir = tempDir();
    const { state } = await savedWorld(dir);
    const bad = JSON.parse(JSON.stringify(state));
    delete bad.clock.nowMs;
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad, null, 2));
    const failed = capture();
    expect(await runMockCli(['--port', '0', '--state', 'bad.json'], failed.io, dir)).toEqual({
      kind: 'exit',
      code: 1,
    });
    expect(failed.err.join('')).toMatch(
      new RegExp(
        `^company-data-mock: ${join(dir, 'bad.json').replace(/[.]/g, '\\.')}:\\d+:\\d+: Invalid mock state at clock\\.nowMs: `,
      ),
    );
    const missing = capture();
    expect(await runMockCli(['--port', '0', '--state', 'gone.json'], missing.io, dir)).toEqual({
      kind: 'exit',
      code: 1,
    });
    expect(missing.err.join('')).toBe(
      `company-data-mock: State file not found: ${join(dir, 'gone.json')} ("gone.json" from ${dir}). Check the path, or leave out --state to start from the options.\n`,
    );
    expect(() => parseMockCliArgs(['--state', 'world.json', '--seed', '3', '--freeze'])).toThrow(
      "--state holds the data, the clock, the quota, the latency, the fault rate, the activity and the journals' limit: give it without --seed, --freeze",
    );
  });
});
