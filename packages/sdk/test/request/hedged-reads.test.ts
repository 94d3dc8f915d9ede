import type { MockServer } from '@company-data/mock-server';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  ConfigurationError,
  type RateLimitEvent,
  RequestAbortedError,
  type RetryEvent,
  ServerError,
} from '../../src/index.js';
import { HEDGE_BURST, HEDGE_SHARE } from '../../src/request/hedge-budget.js';
import {
  callPagesRead,
  clientFor,
  clientWithHook,
  type RequestHook,
  type Target,
  targets,
} from '../support/harness.js';
import { until } from '../support/turns.js';

// Hedged reads (the `hedge` option): a GET that waits past its threshold goes out a second time, the
// first answer wins and the other copy is aborted. The hedge's timer is the client's `sleep`, held here
// by hand: a test says when the first copy has waited "too long", and no real time passes.

/** The hedge threshold of these tests: no backoff (500 ms × 0.5 jitter) or pause is as long. */
const AFTER_MS = 321;
/** Long enough to be a hang: the mock holds the answer until the client aborts (which cancels the wait). */
const HUNG = { delayMs: 600_000 };

/**
 * The client's sleep: the hedge's wait (`AFTER_MS`) stays pending until `fire()` (or resolves at once
 * with `instant`); every other wait (backoff, 429 pause, quota) moves the mock's clock and returns.
 */
function hedgeClock(mock: MockServer, instant = false) {
  const timers: { signal: AbortSignal | undefined; resolve: () => void }[] = [];
  const sleeps: number[] = [];
  return {
    timers,
    sleeps,
    sleep: (ms: number, signal?: AbortSignal) => {
      sleeps.push(ms);
      if (ms !== AFTER_MS) {
        mock.clock.advance(ms);
        return Promise.resolve();
      }
      if (instant) return Promise.resolve();
      return new Promise<void>((resolve) => timers.push({ signal, resolve }));
    },
    now: () => mock.clock.now().getTime(),
    /** The first copy has waited long enough: every armed hedge timer fires. */
    fire() {
      for (const timer of timers.splice(0)) timer.resolve();
    },
  };
}

describe.each(targets)('hedged reads ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
  });

  async function setup(options: ClientOptions = {}, instant = false) {
    const mock = await target.start({ clock: 'frozen', sizes: { users: 2, calls: 60 } });
    opened.push(mock);
    const clock = hedgeClock(mock, instant);
    const harness = clientFor(target, mock, {
      sleep: clock.sleep,
      now: clock.now,
      hedge: { afterMs: AFTER_MS },
      ...options,
    });
    opened.push(harness.client);
    const [call] = (await harness.client.calls.list({ page_size: 1 }, { hedge: false })).data;
    mock.clearJournal();
    return { mock, clock, ...harness, id: call?.id as string };
  }

  const requestsTo = (mock: MockServer, path: string) =>
    mock.journal().filter((entry) => entry.path === path);

  /**
   * A mock of 45 calls (9 pages of 5) and a client whose first copy of each page `hung(page)` names is held on its way
   * out (hung) until the test releases it; every hedge timer fires at once. With the ids a plain walk reads.
   */
  async function exportWithHungPages(hung: (page: number) => boolean) {
    // Every page is hedged, all within the client's hedge budget (HEDGE_BURST and a share per read).
    const mock = await target.start({ clock: 'frozen', sizes: { users: 2, calls: 45 } });
    opened.push(mock);
    const plain = clientFor(target, mock).client;
    opened.push(plain);
    const expected = await sequentialIds(plain);
    const firstCopies = new Set<number>();
    const held: (() => void)[] = [];
    const hook: RequestHook = (request) => {
      if (request.path !== '/v1/calls/' || request.page === undefined || firstCopies.has(request.page))
        return;
      firstCopies.add(request.page);
      if (!hung(request.page)) return;
      return new Promise<void>((resolve) => held.push(resolve));
    };
    const clock = hedgeClock(mock, true);
    const { client } = clientWithHook(target, mock, hook, {
      sleep: clock.sleep,
      now: clock.now,
      hedge: { afterMs: AFTER_MS },
    });
    opened.push(client);
    mock.clearJournal();
    return { mock, client, expected, held };
  }

  it('a hung first copy is beaten by the hedge, and is aborted', async () => {
    const { mock, client, clock, id } = await setup();
    const path = `/v1/calls/${id}/`;
    mock.injectFault({ path, ...HUNG });
    const pending = client.calls.retrieve(id).withResponse();
    await until(() => clock.timers.length === 1);
    clock.fire();
    const { data, response } = await pending;
    expect(data.id).toBe(id);
    // In process the first copy surely reaches the mock first; over a socket the two copies race to it,
    // and whichever met the hang lost.
    if (target.name === 'in-process') expect(response.hedge).toEqual({ winner: 'hedge', afterMs: AFTER_MS });
    else expect(response.hedge?.afterMs).toBe(AFTER_MS);
    // Both copies reached the server; the hung one was aborted (the mock's wait cancelled with it).
    await until(() => requestsTo(mock, path).length === 2);
    expect(requestsTo(mock, path).map((entry) => entry.outcome)).toEqual(
      expect.arrayContaining(['served', 'client_aborted']),
    );
  });

  it('a fast first copy sends no hedge, and its timer is released', async () => {
    const { mock, client, clock, id, logger } = await setup();
    const { response } = await client.calls.retrieve(id).withResponse();
    expect(response.hedge).toBeUndefined();
    expect(requestsTo(mock, `/v1/calls/${id}/`)).toHaveLength(1);
    // The hedge's wait was armed with the first copy, and ended (its timer cleared) when it answered.
    expect(clock.sleeps).toEqual([AFTER_MS]);
    expect(clock.timers).toHaveLength(1);
    expect(clock.timers[0]?.signal?.aborted).toBe(true);
    expect(logger.lines.some((line) => String(line.args[0]).includes('hedge'))).toBe(false);
  });

  it("the caller's abort ends both copies at once", async () => {
    const { mock, client, clock, id, logger } = await setup();
    const path = `/v1/calls/${id}/`;
    mock.injectFault({ path, ...HUNG, times: 2 });
    const controller = new AbortController();
    const pending = client.calls.retrieve(id, { signal: controller.signal });
    await until(() => clock.timers.length === 1);
    clock.fire();
    const sent = () => logger.lines.some((line) => String(line.args[0]).includes('sending a second copy'));
    await until(sent);
    controller.abort();
    await expect(pending).rejects.toThrow(RequestAbortedError);
    // In process both copies reached the mock (over a socket the second may be cut before it arrives):
    // every one that did was aborted, none answered.
    const expected = target.name === 'in-process' ? 2 : 1;
    await until(() => requestsTo(mock, path).length >= expected);
    expect(new Set(requestsTo(mock, path).map((entry) => entry.outcome))).toEqual(
      new Set(['client_aborted']),
    );
  });

  it('never hedges a POST: webhooks are sent once, whatever the client says', async () => {
    const { mock, client, clock, logger, id } = await setup({}, true);
    const token = mock.tokens.lead;
    await client.leads.submit(token, { phone_number: '415-555-0100' });
    expect(mock.journal().filter((entry) => entry.method === 'POST')).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(logger.lines.some((line) => String(line.args[0]).includes('hedge'))).toBe(false);
    // The same client hedges a GET at once (its hedge timer here fires immediately): the control.
    const [call] = (await client.calls.list({ page_size: 1 })).data;
    expect(clock.sleeps).toEqual([AFTER_MS]);
    // The newest call, as setup() read it without hedging.
    expect(call?.id).toBe(id);
    // Asking a webhook method to hedge is refused, saying why.
    const refused = client.audiences.addMember(mock.tokens.audience, { phone: '415-555-0190' }, {
      hedge: true,
    } as never);
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(
      /Unknown option for client\.audiences\.addMember\(\): `hedge` \(a webhook is a POST, and only reads \(GET\) are hedged\)/,
    );
  });

  it('the hedge passes the quota like any request: it waits for a slot of the window', async () => {
    const { mock, client, clock, id } = await setup({ quota: { requests: 1, perSeconds: 10 } });
    const path = `/v1/calls/${id}/`;
    mock.injectFault({ path, ...HUNG });
    // setup() spent the window's one slot: the first copy waits for the next window, then hangs.
    const pending = client.calls.retrieve(id);
    await until(() => clock.timers.length === 1);
    expect(clock.sleeps[0]).toBeGreaterThan(9_000);
    clock.fire();
    await pending;
    // The hedge took a slot too: it waited for the window after the first copy's.
    expect(clock.sleeps).toHaveLength(3);
    expect(clock.sleeps[1]).toBe(AFTER_MS);
    expect(clock.sleeps[2]).toBeGreaterThan(9_000);
    await until(() => requestsTo(mock, path).length === 2);
  });

  it('a 429 met by the hedge pauses the gate, decides the attempt, and the retry waits for the pause', async () => {
    const events: RateLimitEvent[] = [];
    const { mock, client, clock, id } = await setup({ onRateLimit: (event) => void events.push(event) });
    const path = `/v1/calls/${id}/`;
    mock.injectFault({ path, ...HUNG });
    mock.injectFault({ path, status: 429, headers: { 'retry-after': '7' } });
    const pending = client.calls.retrieve(id).withResponse();
    await until(() => clock.timers.length === 1);
    clock.fire();
    await until(() => clock.timers.length === 1); // attempt 2's hedge timer: it answers before it fires
    const { response } = await pending;
    expect(response.hedge).toBeUndefined();
    expect(events).toMatchObject([{ attempt: 1, waitMs: 7_000 }]);
    expect(clock.sleeps).toEqual([AFTER_MS, 7_000, AFTER_MS]);
    await until(() => requestsTo(mock, path).length === 3);
    expect(requestsTo(mock, path).map((entry) => entry.status ?? entry.outcome)).toEqual(
      expect.arrayContaining([429, 'client_aborted', 200]),
    );
  });

  describe('when a copy fails, the retries stay honest', () => {
    /**
     * A client whose first request to the call is held on its way out until `releaseFirst()`: the test
     * decides when the first copy reaches the server, after the hedge's answer.
     */
    async function heldFirstCopy() {
      const mock = await target.start({ clock: 'frozen', sizes: { users: 2, calls: 10 } });
      opened.push(mock);
      let id = '';
      let path = '';
      let releaseFirst: () => void = () => undefined;
      let held = false;
      const hook: RequestHook = (request) => {
        if (request.path !== path || held) return;
        held = true;
        return new Promise<void>((resolve) => {
          releaseFirst = resolve;
        });
      };
      const clock = hedgeClock(mock);
      const retries: RetryEvent[] = [];
      const harness = clientWithHook(target, mock, hook, {
        sleep: clock.sleep,
        now: clock.now,
        hedge: { afterMs: AFTER_MS },
        onRetry: (event) => void retries.push(event),
      });
      opened.push(harness.client);
      const [call] = (await harness.client.calls.list({ page_size: 1 }, { hedge: false })).data;
      id = call?.id as string;
      path = `/v1/calls/${id}/`;
      mock.clearJournal();
      return { mock, clock, retries, id, path, client: harness.client, release: () => releaseFirst() };
    }

    it('the hedge fails, the first copy succeeds: no retry', async () => {
      const { mock, clock, retries, id, path, client, release } = await heldFirstCopy();
      const pending = client.calls.retrieve(id).withResponse();
      await until(() => clock.timers.length === 1);
      mock.injectFault({ path, status: 503 });
      clock.fire();
      await until(() => requestsTo(mock, path).length === 1); // the hedge's 503
      release();
      const { response } = await pending;
      expect(response.hedge).toEqual({ winner: 'first', afterMs: AFTER_MS });
      expect(retries).toEqual([]);
      expect(requestsTo(mock, path).map((entry) => entry.status)).toEqual([503, 200]);
    });

    it('both copies fail: one failed attempt, one retry with the first copy’s error', async () => {
      const { mock, clock, retries, id, path, client, release } = await heldFirstCopy();
      const pending = client.calls.retrieve(id, { maxRetries: 1 }).withResponse();
      await until(() => clock.timers.length === 1);
      mock.injectFault({ path, status: 503 });
      clock.fire();
      await until(() => requestsTo(mock, path).length === 1);
      mock.injectFault({ path, status: 500 });
      release();
      await until(() => clock.timers.length === 1); // attempt 2's hedge timer, never fired
      const { response } = await pending;
      expect(response.hedge).toBeUndefined();
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 1 });
      expect(retries[0]?.error).toBeInstanceOf(ServerError);
      expect(retries[0]?.error.status).toBe(500);
      expect(requestsTo(mock, path).map((entry) => entry.status)).toEqual([503, 500, 200]);
    });

    it('the first copy fails before the hedge goes out: a plain retry, no hedge', async () => {
      const { mock, clock, retries, id, path, client, release } = await heldFirstCopy();
      const pending = client.calls.retrieve(id).withResponse();
      await until(() => clock.timers.length === 1);
      mock.injectFault({ path, status: 503 });
      release();
      await until(() => retries.length === 1);
      const { response } = await pending;
      expect(response.hedge).toBeUndefined();
      // Each attempt armed the hedge's timer, and each answer disarmed it before it fired.
      expect(clock.timers.map((timer) => timer.signal?.aborted)).toEqual([true, true]);
      expect(requestsTo(mock, path).map((entry) => entry.status)).toEqual([503, 200]);
    });
  });

  it('an ordered export with hedging yields every id exactly once, in order', async () => {
    // The first request of pages 3, 6 and 9 is held on its way out (hung) until the export is over:
    // their hedges answer them. Every other page is hedged too (the hedge's timer fires at once), so
    // pages arrive twice over, out of order.
    const { mock, client, expected, held } = await exportWithHungPages((page) => page % 3 === 0);
    const ids: string[] = [];
    for await (const call of client.calls.list({ page_size: 5 }, { concurrency: 4 })) ids.push(call.id);
    expect(ids).toEqual(expected);
    expect(held).toHaveLength(3);
    const pages = callPagesRead(mock);
    expect(new Set(pages)).toEqual(new Set(Array.from({ length: 9 }, (_, index) => index + 1)));
    // The held copies were aborted while held: released now (so nothing stays pending), they are not sent.
    for (const release of held) release();
    expect(pages.filter((page) => page % 3 === 0)).toEqual(expect.arrayContaining([3, 6, 9]));
    expect(pages.filter((page) => page % 3 === 0)).toHaveLength(3);
  });

  it('a hedge needs no request slot of the list: with every slot held by a hung page, the hedges go out', async () => {
    // The first copies of pages 2 and 3 are held until the export is over: at concurrency 2 they hold both
    // of the list's slots, so only a second copy sent outside them can answer those pages.
    const { client, expected, held } = await exportWithHungPages((page) => page === 2 || page === 3);
    const ids: string[] = [];
    for await (const call of client.calls.list({ page_size: 5 }, { concurrency: 2 })) ids.push(call.id);
    expect(ids).toEqual(expected);
    expect(held).toHaveLength(2);
    for (const release of held) release();
  });

  it("a client's hedges stay within its budget: a burst, then one per ten reads", async () => {
    // Every read waits past the threshold (the hedge's timer fires at once), so every read would be hedged.
    const { client, logger, id } = await setup({}, true);
    const reads = 40;
    for (let read = 0; read < reads; read++) await client.calls.retrieve(id);
    const said = (text: string) => logger.lines.filter((line) => String(line.args[0]).includes(text)).length;
    const hedges = said('sending a second copy');
    expect(hedges).toBeGreaterThanOrEqual(HEDGE_BURST);
    expect(hedges).toBeLessThanOrEqual(HEDGE_BURST + HEDGE_SHARE * reads);
    expect(said('hedge budget is spent')).toBe(reads - hedges);
    // A derived client shares the budget: its reads do not start a burst of their own.
    const derived = client.withOptions({ maxRetries: 1 });
    for (let read = 0; read < 10; read++) await derived.calls.retrieve(id);
    expect(said('sending a second copy')).toBeLessThanOrEqual(HEDGE_BURST + HEDGE_SHARE * (reads + 10));
  });

  it('the adaptive threshold waits for a response of the operation, then hedges past its peers (≥ 100 ms)', async () => {
    const { client, clock, id } = await setup({ hedge: true });
    await client.calls.retrieve(id);
    expect(clock.sleeps).toEqual([]);
    for (let call = 0; call < 25; call++) await client.calls.retrieve(id);
    expect(clock.sleeps).toHaveLength(25);
    for (const ms of clock.sleeps) expect(ms).toBeGreaterThanOrEqual(100);
    // Another operation has its own times: its first transcript is not hedged.
    await client.calls.transcript(id);
    expect(clock.sleeps).toHaveLength(25);
  });

  it('a call turns hedging off or on for itself', async () => {
    const { mock, client, clock, id } = await setup({ hedge: false }, true);
    await client.calls.retrieve(id);
    expect(clock.sleeps).toEqual([]);
    await client.calls.retrieve(id, { hedge: { afterMs: AFTER_MS } });
    expect(clock.sleeps).toEqual([AFTER_MS]);
    const hedging = client.withOptions({ hedge: { afterMs: AFTER_MS } });
    await hedging.calls.retrieve(id, { hedge: false });
    expect(clock.sleeps).toEqual([AFTER_MS]);
    await hedging.calls.retrieve(id);
    expect(clock.sleeps).toEqual([AFTER_MS, AFTER_MS]);
    expect(mock.journal().length).toBeGreaterThanOrEqual(4);
  });
});

describe('the hedge option is checked like the others', () => {
  it('refuses a wrong value, an unknown field, and a misspelt name, saying how to fix it', async () => {
    const { CompanyData } = await import('../../src/index.js');
    const message = (options: object) => {
      try {
        new CompanyData(options as ClientOptions);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigurationError);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(message({ hedge: 'yes' })).toContain(
      'Invalid input: expected true, false or { afterMs }, received string\n  → at hedge',
    );
    expect(message({ hedge: { after: 5 } })).toContain(
      'Unknown hedge field `after` (did you mean `afterMs`?): expected afterMs\n  → at hedge.after',
    );
    expect(message({ hedge: { afterMs: 0 } })).toContain(
      'Expected a number of milliseconds from 1 to 2147483647\n  → at hedge.afterMs',
    );
    expect(message({ hegde: true })).toContain('`hegde` (did you mean `hedge`?)');
    const client = new CompanyData({ apiKey: 'svc_live_x', baseURL: 'http://127.0.0.1:9/v1' });
    await expect(client.calls.retrieve('x', { hedge: 3 } as never)).rejects.toThrow(
      /Invalid input: expected true, false or \{ afterMs \}, received number\n {2}→ at hedge/,
    );
    await client.close();
  });
});

/** The calls list read page by page, unhedged: the order an export must reproduce. */
async function sequentialIds(client: import('../../src/index.js').CompanyData): Promise<string[]> {
  const all = await client.calls.list({ page_size: 5 }, { hedge: false }).toArray();
  return all.map((call) => call.id);
}
