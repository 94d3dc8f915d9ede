// How to test against the mock server running in another process, as a harness in any language does:
// start the company-data-mock command on a free port, read the JSON line it prints, talk HTTP to it,
// and stop it by closing its standard input. The SDK's waits advance the mock's clock through the admin
// API, so a 60-second Retry-After takes no real time.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { CompanyData } from '@company-data/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bookingRates } from './my-app.js';

/** What `company-data-mock --json` prints (the fields this test uses). */
interface MockSummary {
  baseURL: string;
  adminURL: string;
  adminToken: string;
  keys: { valid: string };
}

let child: ChildProcessByStdio<Writable, Readable, null>;
let mock: MockSummary;

beforeAll(async () => {
  // --freeze: the clock moves only when told, so the test can check the exact wait.
  // --exit-on-stdin-close: the mock stops with the pipe, even if this process dies first.
  const args = [
    'company-data-mock',
    '--port',
    '0',
    '--json',
    '--freeze',
    '--throttle',
    '2/60',
    '--exit-on-stdin-close',
  ];
  child = spawn('npx', args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  mock = JSON.parse(line);
});

afterAll(async () => {
  child.stdin.end();
  if (child.exitCode === null) await once(child, 'exit');
});

/** Calls the mock's admin API. */
async function admin(path: string, body?: unknown): Promise<{ now: string }> {
  const response = await fetch(`${mock.adminURL}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json() as Promise<{ now: string }>;
}

it('waits out the mock’s quota in mock time, not real time', async () => {
  const client = new CompanyData({
    apiKey: mock.keys.valid,
    baseURL: mock.baseURL,
    sleep: async (ms) => {
      await admin('clock/advance', { ms }); // the wait passes on the mock's clock, at once
    },
    logLevel: 'error', // the SDK warns when it pauses for a 429
  });
  const before = Date.parse((await admin('clock')).now);
  // 240 calls are three pages of 100; the quota allows two requests a minute.
  const rates = await bookingRates(client);
  await client.close();
  expect(rates.reduce((sum, rep) => sum + rep.calls, 0)).toBe(240);
  expect(Date.parse((await admin('clock')).now) - before).toBe(60_000);
});
