import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from '../../support/cli-process.js';

// Two real CLI processes with the same seed, a frozen clock and the same activity, moved through the admin
// API by the same steps, as a harness in any language would: every list and detail body must be the same
// bytes in both. No real time passes; the clocks move only through the admin API.

const ACTIVITY =
  'calls=2/s,excused=50%,excused-after=1..3,recordings=120/h,deactivations=300/d,deletions=2/m';
const ARGS = ['--seed', '5', '--freeze', '--activity', ACTIVITY];

async function body(cli: CliProcess, path: string): Promise<string> {
  const response = await request(`${cli.summary.baseURL}${path}`, {
    headers: { authorization: `Bearer ${cli.summary.keys.valid}` },
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${text}`);
  return text;
}

async function admin(cli: CliProcess, path: string, payload: unknown): Promise<void> {
  const response = await request(`${cli.summary.adminURL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cli.summary.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  if (response.statusCode !== 200)
    throw new Error(`${path}: ${response.statusCode} ${await response.body.text()}`);
  await response.body.dump();
}

/** Every list a client reads, and the detail of the newest and oldest call and recording. */
async function bodies(cli: CliProcess): Promise<string[]> {
  const lists = [
    '/calls/?page_size=100',
    '/calls/?page_size=100&page=2&ordering=created_at',
    '/calls/?source=voice_agent&page_size=100',
    '/recordings/?page_size=100',
    '/users/?is_active=false',
    '/users/?is_active=true',
  ];
  const texts = await Promise.all(lists.map((path) => body(cli, path)));
  const newestCall = JSON.parse(texts[0] as string).data[0].id as string;
  const newestRecording = JSON.parse(texts[3] as string).data[0].id as string;
  const details = await Promise.all(
    [`/calls/${newestCall}/`, `/calls/${newestCall}/transcript/`, `/recordings/${newestRecording}/`].map(
      (path) => body(cli, path),
    ),
  );
  return [...texts, ...details];
}

describe('the same seed and the same clock moves over HTTP', () => {
  let one: CliProcess;
  let two: CliProcess;
  beforeAll(async () => {
    [one, two] = await Promise.all([startCli(ARGS), startCli(ARGS)]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  });

  it('give byte-identical list and detail bodies, in which the activity shows', async () => {
    const count = async (cli: CliProcess) =>
      JSON.parse(await body(cli, '/calls/?page_size=1')).pagination.count;
    const before = await count(one);
    const moves: [string, unknown][] = [
      ['clock/advance', { ms: 90_000 }],
      ['clock/advance', { ms: 4 * 60_000 }],
      // Back in time: nothing is undone, and the events resume after the furthest time applied.
      ['clock/set', { time: '2026-06-01T12:02:00Z' }],
      ['clock/advance', { ms: 10 * 60_000 }],
    ];
    for (const [path, payload] of moves) {
      await Promise.all([admin(one, path, payload), admin(two, path, payload)]);
      const [a, b] = await Promise.all([bodies(one), bodies(two)]);
      expect(a).toEqual(b);
    }
    // About 2 a second for 12.5 minutes, less a few deleted: the activity did run.
    expect((await count(one)) - before).toBeGreaterThan(1000);
    expect(await count(two)).toBe(await count(one));
  });
});
