import { afterEach, describe, expect, it } from 'vitest';
import { CompanyData, TimeoutError } from '../../src/index.js';
import { type MockCli, startMockCli } from '../support/cli.js';
import { recordingLogger } from '../support/harness.js';

// The SDK with its default options (real timers, real clock) against the real `company-data-mock`
// process, as a user runs them: the mock's clock runs with real time, so what the SDK waits for comes true.

interface JournalEntry {
  readonly status: number | null;
}

describe('the SDK against company-data-mock over time', () => {
  const opened: { stop?(): Promise<void>; close?(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const resource of opened.splice(0)) await (resource.close ?? resource.stop)?.call(resource);
  });

  async function start(
    args: string[],
  ): Promise<{ cli: MockCli; client: CompanyData; logger: ReturnType<typeof recordingLogger> }> {
    const cli = await startMockCli(args);
    opened.push(cli);
    const logger = recordingLogger();
    const client = new CompanyData({ apiKey: cli.summary.keys.valid, baseURL: cli.summary.baseURL, logger });
    opened.push(client);
    return { cli, client, logger };
  }

  it('waits out a real 429 with default options and then succeeds', async () => {
    const { cli, client, logger } = await start(['--throttle', '3/1']);
    const startedAt = Date.now();
    for (let index = 0; index < 5; index++)
      expect((await client.teams.list()).data.length).toBeGreaterThan(0);
    const journal = ((await cli.admin('GET', 'journal')) as { data: JournalEntry[] }).data;
    expect(journal.map((entry) => entry.status)).toEqual([200, 200, 200, 429, 200, 200]);
    // The one pause was the server's Retry-After (1 s), really waited.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('exports 2,000 pages from a default mock without meeting a rate limit', async () => {
    const { cli, client, logger } = await start(['--calls', '50000']);
    let count = 0;
    for await (const _call of client.calls.list({ page_size: 25 }, { concurrency: 4 })) count++;
    expect(count).toBe(50_000);
    const journal = ((await cli.admin('GET', 'journal')) as { data: JournalEntry[] }).data;
    expect(journal).toHaveLength(2000);
    expect(journal.every((entry) => entry.status === 200)).toBe(true);
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('keeps a long time limit against a slow answer and a trickling body; the server hears the attempt abandoned', async () => {
    // Limits of 10 s and more: one coarse check shared by the attempts in flight, beside undici's own
    // timers (up to about a second late), not a timer per request. A body dripping a byte every 2 s never
    // trips undici's inactivity timer: the shared check ends that attempt.
    const { cli, client } = await start([]);
    await cli.admin('POST', 'faults', { path: '/v1/users/', delayMs: 30_000 });
    await cli.admin('POST', 'faults', { path: '/v1/teams/', drip: { bytes: 1, everyMs: 2_000 } });
    const options = { timeout: 10_000, maxRetries: 0 };
    const timed = async (call: PromiseLike<unknown>) => {
      const startedAt = Date.now();
      const error = await Promise.resolve(call).then(undefined, (caught: unknown) => caught);
      return { error, elapsed: Date.now() - startedAt };
    };
    const attempts = await Promise.all([
      timed(client.users.list({}, options)),
      timed(client.teams.list({}, options)),
    ]);
    for (const { error, elapsed } of attempts) {
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ code: 'timeout', message: expect.stringContaining('after 10000 ms') });
      expect(elapsed).toBeGreaterThanOrEqual(10_000);
      // The documented tolerance is a second (DEADLINE_TOLERANCE_MS); the rest is room for a loaded machine.
      expect(elapsed).toBeLessThan(12_500);
    }
    await expect
      .poll(
        async () =>
          ((await cli.admin('GET', 'journal')) as { data: { path: string; outcome: string }[] }).data,
      )
      .toContainEqual(expect.objectContaining({ path: '/v1/users/', outcome: 'client_aborted' }));
  }, 20_000);
});
