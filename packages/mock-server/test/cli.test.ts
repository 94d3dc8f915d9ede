import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLI_PORT, parseCliArgs } from '../src/cli/args.js';
import { runCli } from '../src/cli/run.js';
import type { MockServer } from '../src/index.js';
import { sampleFixture } from './support/fixture-sample.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (text: string) => out.push(text), err: (text: string) => err.push(text) } };
}

async function firstPage(baseURL: string, key: string) {
  const response = await request(`${baseURL}/calls/?page_size=5`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.statusCode, json: (await response.body.json()) as { data: unknown[] } };
}

describe('CLI arguments', () => {
  it('has defaults', () => {
    expect(parseCliArgs([])).toEqual({
      options: { port: DEFAULT_CLI_PORT, host: '127.0.0.1', sizes: {} },
      fixturePath: undefined,
      json: false,
      help: false,
    });
  });

  it('reads every option', () => {
    const { options, fixturePath, json } = parseCliArgs([
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
      '--throttle',
      '10/1.5',
      '--max-body-bytes',
      '2048',
      '--admin-token',
      'tok',
      '--fixture',
      'f.json',
      '--json',
    ]);
    expect(options).toEqual({
      port: 0,
      host: '0.0.0.0',
      seed: 7,
      sizes: { users: 3, teams: 2, recordings: 1, calls: 1_000_000 },
      now: '2027-01-01T00:00:00Z',
      throttle: { limit: 10, windowSeconds: 1.5 },
      maxBodyBytes: 2048,
      adminToken: 'tok',
    });
    expect(fixturePath).toBe('f.json');
    expect(json).toBe(true);
    expect(parseCliArgs(['--throttle', 'off']).options.throttle).toBe(false);
    expect(parseCliArgs(['-h']).help).toBe(true);
  });

  it.each([
    [['--port', 'eighty'], /--port expects a whole number/],
    [['--throttle', 'lots'], /--throttle expects/],
    [['--nope'], /Unknown option/],
    [['positional'], /positional/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});

describe('runCli', () => {
  it('prints JSON with the addresses, keys, tokens and admin token', async () => {
    const { out, io } = capture();
    const server = (await runCli(['--port', '0', '--json', '--seed', '3'], io)) as MockServer;
    try {
      const printed = JSON.parse(out.join(''));
      expect(printed).toMatchObject({
        baseURL: server.baseURL,
        apiRoot: server.apiRoot,
        keys: server.keys,
        tokens: server.tokens,
      });
      expect(printed.adminToken).toBe(server.adminToken);
      expect(printed.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect((await firstPage(printed.baseURL, printed.keys.valid)).json.data).toHaveLength(5);
    } finally {
      await server.close();
    }
  });

  it('prints the addresses, keys and tokens in words', async () => {
    const { out, io } = capture();
    const server = (await runCli(['--port', '0', '--host', '0.0.0.0'], io)) as MockServer;
    try {
      const text = out.join('');
      for (const value of [
        server.baseURL,
        server.apiRoot,
        server.adminToken,
        ...Object.values(server.keys),
        ...Object.values(server.tokens),
      ]) {
        expect(text).toContain(value);
      }
      expect(text).toMatch(/limited +svc_live_\S+ +\(users and teams only\)/);
    } finally {
      await server.close();
    }
  });

  it('loads a fixture file and reports a bad one with the path of the bad field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'company-data-mock-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(sampleFixture()));
    const server = (await runCli(['--port', '0', '--fixture', good, '--json'], capture().io)) as MockServer;
    expect((await firstPage(server.baseURL, 'svc_live_fixture_key')).json.data).toHaveLength(2);
    await server.close();

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ companies: [{ name: 'A', users: [{ id: 1 }] }] }));
    const failed = capture();
    expect(await runCli(['--fixture', bad], failed.io)).toBe(1);
    expect(failed.err.join('')).toMatch(/companies\[0\]\.users\[0\]\.id/);

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{');
    const unparsable = capture();
    expect(await runCli(['--fixture', broken], unparsable.io)).toBe(1);
    expect(unparsable.err.join('')).toMatch(/not valid JSON/);
  });

  it('shows the usage for --help and for bad arguments', async () => {
    const help = capture();
    expect(await runCli(['--help'], help.io)).toBeUndefined();
    expect(help.out.join('')).toMatch(/Usage: company-data-mock/);
    const bad = capture();
    expect(await runCli(['--port', 'x'], bad.io)).toBe(2);
    expect(bad.err.join('')).toMatch(/--port expects/);
  });
});

describe('company-data-mock process', () => {
  const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves a page to a printed key and stops cleanly on %s',
    async (signal) => {
      const child = spawn(
        process.execPath,
        ['--conditions=@company-data/source', '--import', 'tsx', bin, '--port', '0', '--json'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let stdout = '';
      const printed = await new Promise<{ baseURL: string; keys: { valid: string } }>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const line = stdout.split('\n')[0];
          if (stdout.includes('\n') && line) resolve(JSON.parse(line));
        });
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      const page = await firstPage(printed.baseURL, printed.keys.valid);
      expect(page.status).toBe(200);
      expect(page.json.data).toHaveLength(5);
      child.kill(signal);
      expect(await exited).toBe(0);
    },
  );
});
