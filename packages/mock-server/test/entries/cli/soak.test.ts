import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerSummary } from '../../../src/index.js';
import { type CliProcess, startCli } from '../../support/cli-process.js';

// The soak, short: the real CLI with activity at 100 calls a second over 100,000 seeded calls, its frozen
// clock moved through the admin API (no test waits for time to pass). The long run (24 hours of mock time,
// 8.6 million calls) is bench figure 11b; its bound, scaled down here: the process grows by under 64 bytes
// per arrived call, plus 32 MB for the swings of the heap a run of seconds cannot average out. Keeping each
// arrived call whole (as before: about 2 KB with its transcript) would grow it by some 180 MB.

const MINUTE = 60_000;
const BYTES_PER_CALL = 64;
const ALLOWANCE = 32 * 2 ** 20;

let cli: CliProcess;

async function admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ServerSummary> {
  const response = await request(`${cli.summary.adminURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${cli.summary.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.statusCode).toBe(200);
  return (await response.body.json()) as ServerSummary;
}

/** Moves the clock, applies what it brought (the summary is a request) and reads a page of the newest calls. */
async function live(minutes: number): Promise<ServerSummary> {
  await admin('POST', 'clock/advance', { ms: minutes * MINUTE });
  const summary = await admin('GET', '');
  const page = await request(`${cli.summary.baseURL}/calls/?page_size=100`, {
    headers: { authorization: `Bearer ${cli.summary.keys.valid}` },
  });
  expect(page.statusCode).toBe(200);
  await page.body.dump();
  return summary;
}

beforeAll(async () => {
  cli = await startCli([
    '--calls',
    '100000',
    '--freeze',
    '--activity',
    'calls=100/s,excused=10%,deletions=2/s',
  ]);
});
afterAll(async () => {
  await cli?.stop();
});

describe('a mock whose activity runs for hours', () => {
  it('grows by under 64 bytes per arrived call, its journals bounded', { timeout: 120_000 }, async () => {
    // Warm up: the heap's young generation grows to its size under the activity's first minutes.
    const start = await live(5);
    let end = start;
    for (let step = 0; step < 3; step++) end = await live(5);
    const [first, last] = [start.records[0], end.records[0]];
    const arrived = (last?.arrived ?? 0) - (first?.arrived ?? 0);
    // 15 minutes at 100 a second, less the calls deleted (2 a second, picked among 150,000 or more).
    expect(arrived).toBeGreaterThan(85_000);
    expect(arrived).toBeLessThan(91_000);
    expect(end.memory.rss - start.memory.rss).toBeLessThan(ALLOWANCE + BYTES_PER_CALL * arrived);
    // Each journal holds its newest 10,000 entries, and counts the others.
    const { changes } = end.journals;
    expect(changes).toEqual({
      limit: 10_000,
      held: 10_000,
      dropped: changes.lastSeq - 10_000,
      lastSeq: changes.lastSeq,
    });
    expect(changes.lastSeq).toBeGreaterThan(110_000);
  });
});
