import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '@company-data/contract';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_SERVER_VERSION } from '../../../src/index.js';
import { type CliProcess, runCliToEnd, startCli } from '../../support/cli-process.js';
import { sampleFixture } from '../../support/fixture-sample.js';

// Each test starts the real CLI in a child process (a harness in any language does the same) and talks
// to it over a loopback socket. No test waits for time to pass: the child's clock is moved through the
// admin API, as a harness would move it. The time rules themselves are the engine's (test/serve/engine/).

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

async function get(cli: CliProcess, path: string, key: string) {
  const response = await request(`${cli.summary.baseURL}${path}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    json: (await response.body.json()) as Loose,
  };
}

async function admin(cli: CliProcess, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await request(`${cli.summary.adminURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${cli.summary.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.body.json()) as Loose;
}

async function postLead(cli: CliProcess, phone: string) {
  const response = await request(
    `${cli.summary.apiRoot}/messaging-agent/webhook/${cli.summary.tokens.lead}/`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone_number: phone }),
    },
  );
  await response.body.dump();
  return response.statusCode;
}

/** Stops the process with a signal, as a harness would, and checks it stopped cleanly, saying why. */
async function stopsCleanlyOn(cli: CliProcess, signal: 'SIGTERM' | 'SIGINT'): Promise<void> {
  cli.child.kill(signal);
  expect(await cli.exited).toBe(0);
  expect(cli.stderr.join('\n')).toContain(`received ${signal}, stopping`);
}

// Concurrent: each test waits mostly on a process starting, and on a shared machine processes started
// together get more of it than one after the other. Each process costs over a second of CPU to start,
// so tests share one where their flags allow, and a loaded machine gets more than the default 20 s.
describe.concurrent('company-data-mock in a child process', { timeout: 60_000 }, () => {
  it('serves its printed key with its clock running by default, clears a 429 once its Retry-After has passed, and stops cleanly on SIGTERM', async ({
    expect,
  }) => {
    const cli = await startCli(['--throttle', '3/1']);
    try {
      expect(cli.summary.pid).toBe(cli.child.pid);
      expect(cli.summary.version).toBe(MOCK_SERVER_VERSION);
      expect(cli.summary.clock).toBe('running');
      expect((await admin(cli, 'GET', 'clock')).frozen).toBe(false);
      const key = cli.summary.keys.valid;
      for (let i = 0; i < 3; i++) expect((await get(cli, '/teams/', key)).status).toBe(200);
      const throttled = await get(cli, '/teams/', key);
      expect(throttled.status).toBe(429);
      expect(throttled.headers['retry-after']).toBe('1');
      expect(throttled.json.error.detail).toBe('Request was throttled. Expected available in 1 second.');
      await admin(cli, 'POST', 'clock/advance', { ms: Number(throttled.headers['retry-after']) * 1000 });
      expect((await get(cli, '/teams/', key)).status).toBe(200);
      const page = await get(cli, '/calls/?page_size=5', key);
      expect(page.status).toBe(200);
      expect(page.json.data).toHaveLength(5);
      await stopsCleanlyOn(cli, 'SIGTERM');
    } finally {
      await cli.stop();
    }
  });

  it('keeps its clock still with --freeze: a window passes only when the clock is moved; stops cleanly on SIGINT', async ({
    expect,
  }) => {
    const now = '2026-03-01T08:00:00.000Z';
    const cli = await startCli(['--throttle', '1/1', '--freeze', '--now', now]);
    try {
      const key = cli.summary.keys.valid;
      expect((await get(cli, '/teams/', key)).status).toBe(200);
      expect((await get(cli, '/teams/', key)).status).toBe(429);
      // Real time has passed since the process started (milliseconds at least); a frozen clock shows none.
      expect(await admin(cli, 'GET', 'clock')).toEqual({ now, frozen: true });
      await admin(cli, 'POST', 'clock/advance', { ms: 999 });
      expect((await get(cli, '/teams/', key)).status).toBe(429);
      await admin(cli, 'POST', 'clock/advance', { ms: 1 });
      expect((await get(cli, '/teams/', key)).status).toBe(200);
      expect(cli.summary.clock).toBe('frozen');
      await stopsCleanlyOn(cli, 'SIGINT');
    } finally {
      await cli.stop();
    }
  });

  // The test's own onTestFinished: the tests run concurrently, and the imported one may hook another test.
  it('throttles only the key whose fixture entry has a quota', async ({ expect, onTestFinished }) => {
    const dir = mkdtempSync(join(tmpdir(), 'company-data-mock-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const fixture = sampleFixture();
    const company = fixture.companies[0] as Loose;
    company.keys = [
      { value: 'svc_live_fixture_key' },
      { value: 'svc_live_slow_key', name: 'Slow', quota: { requests: 2, per_seconds: 60 } },
    ];
    writeFileSync(join(dir, 'fixture.json'), JSON.stringify(fixture));
    // Frozen: on a running clock a slow machine lets a second pass between the requests, and Retry-After says 59.
    const cli = await startCli(['--fixture', join(dir, 'fixture.json'), '--freeze']);
    try {
      for (let i = 0; i < 2; i++) expect((await get(cli, '/users/', 'svc_live_slow_key')).status).toBe(200);
      const throttled = await get(cli, '/users/', 'svc_live_slow_key');
      expect(throttled.status).toBe(429);
      expect(throttled.headers['retry-after']).toBe('60');
      for (let i = 0; i < 10; i++)
        expect((await get(cli, '/users/', 'svc_live_fixture_key')).status).toBe(200);
      const listed = (await admin(cli, 'GET', 'keys')).data.find((key: Loose) => key.name === 'Slow');
      expect(listed.quota).toEqual({ requests: 2, perSeconds: 60 });
    } finally {
      await cli.stop();
    }
  });

  describe('one running mock', () => {
    let cli: CliProcess;
    beforeAll(async () => {
      cli = await startCli(['--log', 'json']);
    }, 60_000);
    afterAll(() => cli.stop());

    it('serves the OpenAPI document with its own address as the server', async ({ expect }) => {
      const response = await request(cli.summary.openapiURL);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const served = await response.body.json();
      expect(served).toEqual({
        ...buildOpenApiDocument(),
        servers: [{ url: cli.summary.apiRoot, description: 'This Company Data mock server.' }],
      });
      expect(cli.summary.openapiURL).toBe(`${cli.summary.apiRoot}/openapi.json`);
      const journal = (await admin(cli, 'GET', 'journal')).data;
      expect(journal.some((entry: Loose) => entry.path === '/openapi.json')).toBe(false);
    });

    it('logs every request as a JSON line that never holds a key or a token', async ({ expect }) => {
      const { keys, tokens } = cli.summary;
      await get(cli, '/users/?page_size=2', keys.valid);
      await get(cli, '/calls/', keys.limited);
      expect(await postLead(cli, '415-555-0177')).toBe(200);
      // The log line of the last request may reach this process after its answer did.
      await cli.stderrUntil((lines) => lines.some((line) => line.includes('"outcome":"lead_queued"')));
      const lines = cli.stderr.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
      expect(lines.length).toBeGreaterThanOrEqual(3);
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ method: 'GET', path: '/v1/users/', status: 200, keyName: 'Full access' }),
          expect.objectContaining({ path: '/v1/calls/', status: 403, outcome: 'forbidden' }),
          expect.objectContaining({ path: '/messaging-agent/webhook/{token}/', outcome: 'lead_queued' }),
        ]),
      );
      const text = cli.stderr.join('\n');
      for (const secret of [...Object.values(keys), ...Object.values(tokens), cli.summary.adminToken])
        expect(text).not.toContain(secret);
    });
  });

  it('prints the fix for a busy port and exits 1', async ({ expect }) => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = await runCliToEnd(['--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(run.stderr).toContain('--port 0 for any free one');
    } finally {
      blocker.close();
    }
  });

  it('prints the fix for a bad flag value and exits 2', async ({ expect }) => {
    const run = await runCliToEnd(['--port', '99999']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^company-data-mock: --port expects a whole number from 0 to 65535, got "99999"/,
    );
    expect(run.stderr).not.toMatch(/ERR_|RangeError|at .*\.js/);
  });

  it('prints its version', async ({ expect }) => {
    const run = await runCliToEnd(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${MOCK_SERVER_VERSION}\n`, stderr: '' });
  });

  it('stops when its standard input closes (--exit-on-stdin-close)', async ({ expect }) => {
    const cli = await startCli(['--exit-on-stdin-close'], 'pipe');
    expect((await get(cli, '/teams/', cli.summary.keys.valid)).status).toBe(200);
    cli.child.stdin?.end();
    expect(await cli.exited).toBe(0);
    expect(cli.stderr.join('\n')).toContain('standard input closed, stopping');
  });

  it('stops when the process named by --parent-pid is gone', async ({ expect }) => {
    const parent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const cli = await startCli(['--parent-pid', String(parent.pid)]);
    try {
      expect((await get(cli, '/teams/', cli.summary.keys.valid)).status).toBe(200);
      parent.kill('SIGKILL');
      expect(await cli.exited).toBe(0);
      expect(cli.stderr.join('\n')).toContain(`process ${parent.pid} is gone, stopping`);
    } finally {
      parent.kill('SIGKILL');
      await cli.stop();
    }
  });
});
