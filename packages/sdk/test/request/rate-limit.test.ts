import { throttleDetail } from '@company-data/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ClientOptions,
  CompanyData,
  ConfigurationError,
  RateGate,
  type RateGateContext,
  RateLimitError,
  type RateLimitEvent,
} from '../../src/index.js';
import { clientFor, DEFAULT_MOCK, manualTime, type Target, targets, wholeList } from '../support/harness.js';
import { turn } from '../support/turns.js';

const THROTTLED = (seconds: number) => ({ error: { detail: throttleDetail(seconds) } });
const at = (entry: { at: string } | undefined) => Date.parse(entry?.at ?? '');

// The mock's clock is frozen here: these tests check waits to the millisecond, and the client's sleep
// moves the mock's clock. The running clock with real waits is tested in over-time.realtime.test.ts.
const FROZEN = { clock: 'frozen' } as const;

describe.each(targets)('rate limits ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  async function setup(options: ClientOptions = {}, quota?: { requests: number; perSeconds: number }) {
    const mock = await target.start(quota ? { ...FROZEN, quota } : FROZEN);
    const harness = clientFor(target, mock, options);
    opened.push(harness.client, mock);
    return { mock, ...harness };
  }
  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
  });

  it('waits for Retry-After (seconds) and retries; the server sees the wait elapse', async () => {
    const { mock, client, sleeps } = await setup();
    mock.injectFault({
      path: '/v1/users/',
      status: 429,
      headers: { 'Retry-After': '7' },
      body: THROTTLED(7),
    });
    await expect(client.users.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.users));
    expect(sleeps).toEqual([7_000]);
    const [throttled, retried] = mock.journal();
    expect([throttled?.status, retried?.status]).toEqual([429, 200]);
    expect(at(retried) - at(throttled)).toBe(7_000);
  });

  it('honours a Retry-After HTTP date', async () => {
    const { mock, client, sleeps } = await setup();
    const date = new Date(mock.clock.now().getTime() + 9_000).toUTCString();
    mock.injectFault({
      path: '/v1/users/',
      status: 429,
      headers: { 'Retry-After': date },
      body: THROTTLED(9),
    });
    await client.users.list();
    expect(sleeps).toEqual([9_000]);
  });

  it('reads the wait from the detail text when the header is missing, singular or plural', async () => {
    const { mock, client, sleeps } = await setup();
    mock.injectFault({ path: '/v1/teams/', status: 429, body: THROTTLED(1) });
    mock.injectFault({ path: '/v1/teams/', status: 429, body: THROTTLED(12) });
    await client.teams.list({}, { maxRetries: 2 });
    expect(sleeps).toEqual([1_000, 12_000]);
  });

  it('backs off with jitter when the server names no wait at all', async () => {
    const { mock, client, sleeps } = await setup();
    mock.injectFault({ path: '/v1/teams/', status: 429, body: { error: { detail: 'Slow down.' } } });
    await client.teams.list();
    expect(sleeps).toEqual([250]);
  });

  it('retries a real throttle of the mock, whose quota window the wait lets pass', async () => {
    const { mock, client, sleeps } = await setup({}, { requests: 2, perSeconds: 30 });
    for (let index = 0; index < 3; index++) await client.teams.list();
    expect(sleeps).toEqual([30_000]);
    expect(mock.journal().map((entry) => entry.status)).toEqual([200, 200, 429, 200]);
  });

  it('throws at once, with the wait on the error, when the server asks for more than maxRetryWait', async () => {
    const { mock, client, sleeps } = await setup({ maxRetryWait: 60_000 });
    mock.injectFault({
      path: '/v1/users/',
      status: 429,
      headers: { 'Retry-After': '600' },
      body: THROTTLED(600),
    });
    const error = await client.users.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      retryAfter: 600,
      status: 429,
      code: 'rate_limited',
      detail: throttleDetail(600),
    });
    expect((error as Error).message).toContain('maxRetryWait');
    expect(sleeps).toEqual([]);
    expect(mock.journal()).toHaveLength(1);
  });

  it('throws the RateLimitError once the retries are spent', async () => {
    const { mock, client } = await setup();
    mock.injectFault({ path: '/v1/users/', status: 429, headers: { 'Retry-After': '1' }, times: 5 });
    await expect(client.users.list({}, { maxRetries: 1 })).rejects.toMatchObject({ retryAfter: 1 });
    expect(mock.journal()).toHaveLength(2);
  });

  it('lets onRateLimit observe every wait and veto one', async () => {
    const events: RateLimitEvent[] = [];
    const { mock, client } = await setup({
      onRateLimit: (event) => {
        events.push(event);
        return events.length < 2;
      },
    });
    mock.injectFault({ path: '/v1/users/', status: 429, headers: { 'Retry-After': '2' }, times: 2 });
    await expect(client.users.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(
      events.map(({ operation, attempt, waitMs, retryAfter }) => ({
        operation,
        attempt,
        waitMs,
        retryAfter,
      })),
    ).toEqual([
      { operation: 'GET /users/', attempt: 1, waitMs: 2_000, retryAfter: 2 },
      { operation: 'GET /users/', attempt: 2, waitMs: 2_000, retryAfter: 2 },
    ]);
    expect(mock.journal()).toHaveLength(2);
  });

  it('one 429 pauses every request of the client: nothing is sent until the wait has passed', async () => {
    const mock = await target.start(FROZEN);
    opened.push(mock);
    const time = manualTime(mock);
    const { client } = clientFor(target, mock, { sleep: time.sleep, now: time.now });
    opened.push(client);
    mock.injectFault({
      path: '/v1/users/',
      status: 429,
      headers: { 'Retry-After': '5' },
      body: THROTTLED(5),
    });
    const first = client.users.list();
    await vi.waitFor(() => expect(time.pending).toHaveLength(1));
    const pausedAt = mock.clock.now().getTime();
    // Requests started during the pause queue behind the gate instead of hitting the server.
    const others = [client.teams.list(), client.calls.list(), client.recordings.list()];
    for (let index = 0; index < 5; index++) await turn();
    expect(mock.journal()).toHaveLength(1);
    time.release();
    await Promise.all([first, ...others]);
    const journal = mock.journal();
    expect(journal).toHaveLength(5);
    expect(journal.slice(1).every((entry) => at(entry) >= pausedAt + 5_000 && entry.status === 200)).toBe(
      true,
    );
  });

  it('concurrent requests hitting a real quota pause together: one sleep per window, no stampede', async () => {
    const mock = await target.start({ ...FROZEN, quota: { requests: 3, perSeconds: 60 } });
    opened.push(mock);
    const time = manualTime(mock);
    let throttled = 0;
    const { client } = clientFor(target, mock, {
      sleep: time.sleep,
      now: time.now,
      onRateLimit: () => {
        throttled++;
      },
    });
    opened.push(client);
    const calls = Array.from({ length: 8 }, () => client.teams.list());
    await vi.waitFor(() => expect(throttled).toBe(5));
    // Five 429s at the same instant asked for the same wait: a single pause.
    expect(time.pending.map(({ ms }) => ms)).toEqual([60_000]);
    expect(mock.journal()).toHaveLength(8);
    time.release();
    await vi.waitFor(() => expect(throttled).toBe(7));
    expect(mock.journal()).toHaveLength(13);
    time.release();
    const pages = await Promise.all(calls);
    expect(pages.every((page) => page.data.length > 0)).toBe(true);
    expect(mock.journal().map((entry) => entry.status)).toEqual([
      ...[200, 200, 200, 429, 429, 429, 429, 429],
      ...[200, 200, 200, 429, 429],
      ...[200, 200],
    ]);
  });

  it('prefetching pages never outruns the gate', async () => {
    const mock = await target.start({
      ...FROZEN,
      sizes: { users: 2, calls: 100 },
      quota: { requests: 4, perSeconds: 10 },
    });
    opened.push(mock);
    const { client, sleeps } = clientFor(target, mock, { maxRetries: 5 });
    opened.push(client);
    const calls = await client.calls.list({ page_size: 5 }, { concurrency: 4 }).toArray();
    expect(calls).toHaveLength(100);
    expect(new Set(calls.map((call) => call.id)).size).toBe(100);
    // Each window allows four requests; every throttled burst cost one shared pause.
    const journal = mock.journal();
    expect(journal.filter((entry) => entry.status === 200)).toHaveLength(20);
    expect(sleeps.every((ms) => ms <= 10_000)).toBe(true);
    // Only requests already in flight when a 429 arrived (at most `concurrency`) can be throttled per pause.
    const throttledCount = journal.filter((entry) => entry.status === 429).length;
    expect(throttledCount).toBeLessThanOrEqual(sleeps.length * 4);
  });

  it("a quota keeps the client under the server's: a sliding window, so no 429 at all", async () => {
    const { mock, client, sleeps } = await setup(
      { quota: { requests: 4, perSeconds: 10 } },
      { requests: 4, perSeconds: 10 },
    );
    const calls = await client.calls.list({ page_size: 5 }).toArray({ limit: 60 });
    expect(calls).toHaveLength(60);
    const journal = mock.journal();
    expect(journal.map((entry) => entry.status)).toEqual(Array(12).fill(200));
    // One window and the default 100 ms margin between a request and the one four places before it.
    expect(sleeps).toEqual([10_100, 10_100]);
    for (let index = 4; index < journal.length; index++) {
      expect(at(journal[index]) - at(journal[index - 4])).toBeGreaterThanOrEqual(10_000);
    }
  });

  it('a gate given in `gate` is shared by two clients, adopted by each, and left open by close()', async () => {
    const mock = await target.start({ ...FROZEN, quota: { requests: 2, perSeconds: 30 } });
    opened.push(mock);
    const time = manualTime(mock);
    const attached: RateGateContext[] = [];
    const gate = new RateGate({ sleep: time.sleep, now: time.now });
    const shared = Object.assign(gate, { attach: (context: RateGateContext) => attached.push(context) });
    const first = clientFor(target, mock, { gate: shared });
    const second = clientFor(target, mock, { gate: shared, sleep: undefined, now: undefined });
    opened.push(first.client, second.client);
    expect(attached.map((context) => context.apiKey)).toEqual([mock.keys.valid, mock.keys.valid]);
    await first.client.teams.list();
    await second.client.teams.list();
    // The first client's 429 pauses the second: it sends nothing until the shared pause ends.
    const throttled = first.client.teams.list();
    await vi.waitFor(() => expect(time.pending).toHaveLength(1));
    const other = second.client.users.list();
    for (let index = 0; index < 5; index++) await turn();
    expect(mock.journal()).toHaveLength(3);
    await first.client.close();
    expect(gate.paused).toBe(true);
    time.release();
    await expect(throttled).rejects.toMatchObject({ code: 'client_closed' });
    await expect(other).resolves.toMatchObject({ data: expect.any(Array) });
  });

  it('refuses a quota beside a gate, a malformed quota, and either in withOptions()', () => {
    const gate = new RateGate();
    const quota = { requests: 10, perSeconds: 1 };
    expect(() => new CompanyData({ gate, quota })).toThrow(ConfigurationError);
    expect(() => new CompanyData({ gate, quota })).toThrow('pass the quota to the gate you share');
    const bad = () => new CompanyData({ quota: { requests: 0, perSeconds: -1, every: 5 } as never });
    expect(bad).toThrow(/requests[\s\S]*perSeconds[\s\S]*every|every[\s\S]*requests/);
    expect(() => new CompanyData({ gate: {} as never })).toThrow('Expected a rate gate');
    const client = new CompanyData({ quota });
    expect(() => client.withOptions({ quota } as never)).toThrow('shared with the parent client');
    expect(() => client.withOptions({ gate } as never)).toThrow('shared with the parent client');
  });
});
