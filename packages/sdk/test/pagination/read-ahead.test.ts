import type { MockServer } from '@company-data/mock-server';
import { afterEach, describe, expect, it } from 'vitest';
import type { Call } from '../../src/index.js';
import {
  callPagesRead,
  clientFor,
  clientWithHook,
  inFakeTime,
  lateSecondPageAfterArrivals,
  manualTime,
  type Target,
  targets,
} from '../support/harness.js';
import { turns, until } from '../support/turns.js';

// Exports that keep moving while one page fails or hangs: the oldest page's trouble must not stop the
// other requests from fetching ahead (within `readAhead`), in order or as pages arrive.

const PAGES = 40;
const PAGE_SIZE = 5;

describe.each(targets)('read-ahead past a failing page ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  /** A mock with the list, a client of it, and the list's ids read one page at a time. */
  async function setup(waits: 'instant' | 'by hand' = 'instant') {
    const mock = await target.start({ clock: 'frozen', sizes: { users: 2, calls: PAGES * PAGE_SIZE } });
    opened.push(mock);
    const time = manualTime(mock);
    const byHand = waits === 'by hand' ? { sleep: time.sleep, now: time.now } : {};
    const { client } = clientFor(target, mock, byHand);
    opened.push(client);
    const all = await client.calls.list({ page_size: PAGE_SIZE }).toArray();
    mock.clearJournal();
    return { mock, client, time, sequential: all.map((call) => call.id) };
  }

  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
  });

  it('keeps fetching ahead, up to readAhead pages, while the oldest page waits to retry', async () => {
    const { mock, client, time, sequential } = await setup('by hand');
    // One request at a time, so the fault surely meets page 2; ten pages under way or held at most.
    const pages = client.calls.list({ page_size: PAGE_SIZE }, { concurrency: 1, readAhead: 10 }).pages();
    const items: Call[] = [...((await pages.next()).value?.data ?? [])];
    mock.clearJournal();
    mock.injectFault({ path: '/v1/calls/', status: 503 });
    const rest = (async () => {
      for (let step = await pages.next(); !step.done; step = await pages.next())
        items.push(...step.value.data);
    })();
    await until(() => time.pending.length === 1 && callPagesRead(mock).length === 10);
    // Page 2 failed and waits for its backoff, holding no request slot: pages 3–11 were fetched
    // meanwhile, one at a time, and no further (ten pages under way or held is the budget).
    await settle();
    expect(callPagesRead(mock)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    time.release();
    await rest;
    expect(items.map((call) => call.id)).toEqual(sequential);
    expect(callPagesRead(mock).filter((page) => page === 2)).toHaveLength(2);
  });

  it('a page held by a long delay stops nothing but its own turn, in order', async () => {
    const { mock, client, sequential } = await setup();
    const ids = await inFakeTime(async () => {
      const list = client.calls.list({ page_size: PAGE_SIZE }, { concurrency: 2, readAhead: 12 });
      const all = [...(await list).data];
      mock.injectFault({ path: '/v1/calls/', delayMs: 5_000 }); // page 2 or 3, whichever arrives first
      for await (const page of list.pages()) if (page.pagination.page > 1) all.push(...page.data);
      return all.map((call) => call.id);
    });
    expect(ids).toEqual(sequential);
    // While the delayed page d was held, the other slot fetched every page up to d + 11 (the budget of
    // twelve pages under way or held), and none further.
    const answered = answeredPages(mock);
    const delayed = answered.find((entry) => entry.delayed)?.page ?? 0;
    const before = answered
      .slice(
        0,
        answered.findIndex((entry) => entry.delayed),
      )
      .map((entry) => entry.page);
    for (let page = delayed + 1; page <= delayed + 11; page++) expect(before).toContain(page);
    expect(before).not.toContain(delayed + 12);
  });

  it('with ordered: false, every page arrives as it comes and the hung one last', async () => {
    const { mock, client, sequential } = await setup();
    const order = await inFakeTime(async () => {
      const list = client.calls.list({ page_size: PAGE_SIZE }, { concurrency: 4, ordered: false });
      await list;
      mock.injectFault({ path: '/v1/calls/', delayMs: 5_000 });
      const seen: { page: number; ids: string[] }[] = [];
      for await (const page of list.pages())
        seen.push({ page: page.pagination.page, ids: page.data.map((call) => call.id) });
      return seen;
    });
    const delayed = answeredPages(mock).find((entry) => entry.delayed)?.page;
    expect(order.map((entry) => entry.page).at(-1)).toBe(delayed);
    const ids = order.flatMap((entry) => entry.ids);
    expect(ids).toHaveLength(sequential.length);
    expect(new Set(ids)).toEqual(new Set(sequential));
    const byPage = [...order].sort((a, b) => a.page - b.page).flatMap((entry) => entry.ids);
    expect(byPage).toEqual(sequential);
  });

  it.each([true, false])(
    'an export under a steady latency and fault rate, ordered: %s, brings every item once',
    async (ordered) => {
      const { mock, client, sequential } = await setup();
      mock.setLatency({ minMs: 0, maxMs: 3 });
      mock.setFaultRate({ path: '/v1/calls/', rate: 0.25 }); // 500, 503, an HTML 502, drops, cut bodies
      const ids: string[] = [];
      const list = client.calls.list({ page_size: PAGE_SIZE }, { concurrency: 4, ordered, maxRetries: 8 });
      for await (const call of list) ids.push(call.id);
      expect(ordered ? ids : [...ids].sort()).toEqual(ordered ? sequential : [...sequential].sort());
      expect(mock.journal().filter((entry) => entry.fault?.fromRate).length).toBeGreaterThan(3);
    },
  );

  it('reads again a page fetched before records arrived once the pages before it were read after: no gap', async () => {
    const mock = await target.start({ clock: 'frozen', sizes: { users: 2, calls: PAGES * PAGE_SIZE } });
    opened.push(mock);
    const { client: reader } = clientFor(target, mock);
    opened.push(reader);
    const sequential = (await reader.calls.list({ page_size: 100 }).toArray()).map((call) => call.id);
    mock.clearJournal();
    // Page 2 goes out late: pages 3 and 4 are read first, then three calls arrive at the head, then page 2
    // is read. Pages 3 and 4 are stale by the time their turn comes (the list grew since they were read),
    // and read again.
    const { client } = clientWithHook(target, mock, lateSecondPageAfterArrivals(mock));
    opened.push(client);
    const ids = (
      await client.calls.list({ page_size: PAGE_SIZE }, { concurrency: 3, readAhead: 3 }).toArray()
    ).map((call) => call.id);
    expect(ids).toEqual(sequential);
    expect(callPagesRead(mock).filter((page) => page === 3)).toHaveLength(2);
  });

  it('reads a part of a list: page … lastPage, and nothing past it', async () => {
    const { mock, client, sequential } = await setup();
    const part = await client.calls
      .list({ page: 7, page_size: PAGE_SIZE }, { concurrency: 3, lastPage: 12 })
      .toArray();
    expect(part.map((call) => call.id)).toEqual(sequential.slice(6 * PAGE_SIZE, 12 * PAGE_SIZE));
    expect(callPagesRead(mock).sort((a, b) => a - b)).toEqual([7, 8, 9, 10, 11, 12]);
  });

  it('refuses list options that contradict each other, sending nothing, and so does toArray()', async () => {
    const { mock, client } = await setup();
    await expect(client.calls.list({}, { concurrency: 4, readAhead: 2 }).toArray()).rejects.toThrow(
      /`readAhead` \(2\) of client\.calls\.list\(\) is smaller than `concurrency` \(4\).*at least 4/,
    );
    await expect(client.calls.list({ page: 5 }, { lastPage: 3 }).toArray()).rejects.toThrow(
      /`lastPage` \(3\) .*comes before the page the list starts at \(5\)/,
    );
    await expect(client.calls.list({}, { ordered: 'no' as never }).toArray()).rejects.toMatchObject({
      code: 'invalid_option',
    });
    await expect(client.calls.list({ page_size: PAGE_SIZE }).toArray({ limt: 5 } as never)).rejects.toThrow(
      /limt/,
    );
    // A request sent after them all is answered; none of theirs ever reached the server.
    await client.teams.list();
    await settle();
    expect(mock.journal().map((entry) => entry.path)).toEqual(['/v1/teams/']);
  });
});

/** The list's pages in the order the mock answered them, and whether an injected delay held each. */
function answeredPages(mock: MockServer): { page: number; delayed: boolean }[] {
  return mock
    .journal()
    .filter((entry) => entry.path === '/v1/calls/')
    .map((entry) => ({ page: Number(entry.query.page), delayed: entry.fault?.delayMs !== undefined }));
}

/** A few turns of the event loop, for anything still to happen to show. */
const settle = () => turns(20);
