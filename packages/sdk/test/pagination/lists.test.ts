import { ORDERINGS } from '@company-data/contract';
import type { MockServer } from '@company-data/mock-server';
import { afterEach, describe, expect, it } from 'vitest';
import { type Call, CompanyDataError, type CountChangeEvent, type Page } from '../../src/index.js';
import { clientFor, clientWithHook, type Target, targets } from '../support/harness.js';

/**
 * Lists of each size around the default page of 25: its pages (an empty list still has its page 1, of
 * none), what the first page holds and whether more follow, worked out by hand.
 */
const SIZES = [
  { size: 0, totalPages: 0, pagesRead: ['1'], onFirstPage: 0, more: false },
  { size: 1, totalPages: 1, pagesRead: ['1'], onFirstPage: 1, more: false },
  { size: 25, totalPages: 1, pagesRead: ['1'], onFirstPage: 25, more: false },
  { size: 26, totalPages: 2, pagesRead: ['1', '2'], onFirstPage: 25, more: true },
  { size: 100, totalPages: 4, pagesRead: ['1', '2', '3', '4'], onFirstPage: 25, more: true },
  { size: 101, totalPages: 5, pagesRead: ['1', '2', '3', '4', '5'], onFirstPage: 25, more: true },
] as const;

function isSorted(items: readonly Call[], ordering: string): boolean {
  // Each step's difference in the ordering's direction is >= 0: equal times are in order either way.
  const direction = ordering.startsWith('-') ? -1 : 1;
  return items.every(
    (item, index) =>
      index === 0 ||
      direction * (Date.parse(item.created_at) - Date.parse(items[index - 1]?.created_at ?? '')) >= 0,
  );
}

describe.each(targets)('pagination ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  async function setup(calls: number) {
    const mock = await target.start({ sizes: { users: 3, calls } });
    const harness = clientFor(target, mock);
    opened.push(harness.client, mock);
    return { mock, ...harness };
  }
  /** The calls as they stand, read by a client of their own; the mock's journal is then emptied. */
  async function readAll(mock: MockServer): Promise<Call[]> {
    const { client } = clientFor(target, mock);
    opened.push(client);
    const calls = await client.calls.list({ page_size: 100 }).toArray();
    mock.clearJournal();
    return calls;
  }
  const listRequests = (mock: MockServer) => mock.journal().filter((entry) => entry.path === '/v1/calls/');

  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
  });

  describe.each(ORDERINGS)('ordering %s', (ordering) => {
    it.each(SIZES)(
      'iterates all $size items once, in order, one request per page',
      async ({ size, pagesRead }) => {
        const { mock, client } = await setup(size);
        const items: Call[] = [];
        for await (const call of client.calls.list({ ordering })) items.push(call);
        expect(items).toHaveLength(size);
        expect(new Set(items.map((call) => call.id)).size).toBe(size);
        expect(isSorted(items, ordering)).toBe(true);
        const requests = listRequests(mock);
        expect(requests.map((entry) => entry.query.page)).toEqual(pagesRead);
        expect(requests.every((entry) => entry.query.ordering === ordering)).toBe(true);
      },
    );
  });

  it.each(SIZES)(
    'the first page of $size items says whether more follow',
    async ({ size, totalPages, onFirstPage, more }) => {
      const { client } = await setup(size);
      const page = await client.calls.list();
      expect(page.data).toHaveLength(onFirstPage);
      expect(page.pagination).toEqual({ count: size, page: 1, page_size: 25, total_pages: totalPages });
      expect(page.hasNextPage()).toBe(more);
      if (page.hasNextPage()) {
        const next = await page.getNextPage();
        expect(next.pagination.page).toBe(2);
        expect(next.data[0]?.id).not.toBe(page.data[0]?.id);
      } else {
        await expect(page.getNextPage()).rejects.toMatchObject({ code: 'no_next_page' });
        await expect(page.getNextPage()).rejects.toBeInstanceOf(CompanyDataError);
      }
    },
  );

  it('ordered prefetch yields exactly the sequential order, with pages requested ahead', async () => {
    const { mock, client } = await setup(101);
    const sequential = await client.calls.list({ page_size: 10 }).toArray();
    const before = listRequests(mock).length;
    const prefetched: Call[] = [];
    for await (const call of client.calls.list({ page_size: 10 }, { concurrency: 4 })) prefetched.push(call);
    expect(prefetched.map((call) => call.id)).toEqual(sequential.map((call) => call.id));
    expect(listRequests(mock).length - before).toBe(11);
  });

  it('pages() yields every page, and starts where params.page says', async () => {
    const { client } = await setup(60);
    const pages: Page<Call>[] = [];
    for await (const page of client.calls.list({ page_size: 25 }).pages()) pages.push(page);
    expect(pages.map((page) => [page.pagination.page, page.data.length])).toEqual([
      [1, 25],
      [2, 25],
      [3, 10],
    ]);
    const fromTwo = await client.calls.list({ page: 2 }).toArray();
    expect(fromTwo).toHaveLength(35);
  });

  it('toArray({ limit }) stops fetching once it has enough, also with prefetch', async () => {
    const { mock, client } = await setup(101);
    expect(await client.calls.list().toArray({ limit: 30 })).toHaveLength(30);
    expect(listRequests(mock)).toHaveLength(2);
    expect(await client.calls.list().toArray({ limit: 0 })).toEqual([]);
    const withPrefetch = await client.calls
      .list({ page_size: 10 }, { concurrency: 3 })
      .toArray({ limit: 15 });
    expect(withPrefetch).toHaveLength(15);
  });

  it('rejects an invalid concurrency before iterating', async () => {
    const { client } = await setup(1);
    await expect(client.calls.list({}, { concurrency: 0 }).toArray()).rejects.toMatchObject({
      code: 'invalid_option',
    });
  });

  it('never yields an item twice when head inserts shift the pages of a descending list, and reports the count change', async () => {
    const mock = await target.start({ clock: 'frozen', sizes: { users: 3, calls: 60 } });
    opened.push(mock);
    // Three calls are created at the head as page 2 goes out: every later page repeats the last three of
    // the one before.
    const { client, logger } = clientWithHook(target, mock, ({ path, page }) => {
      if (path === '/v1/calls/' && page === 2) for (let n = 0; n < 3; n++) mock.records.create('calls');
    });
    opened.push(client);
    const snapshot = await readAll(mock);
    const changes: CountChangeEvent[] = [];
    const all = await client.calls
      .list({ page_size: 20 }, { onCountChange: (event) => changes.push(event) })
      .toArray();
    expect(all.map((call) => call.id)).toEqual(snapshot.map((call) => call.id));
    expect(changes).toEqual([{ previous: 60, current: 63, page: 2 }]);
    expect(
      logger.lines.some((line) => line.level === 'warn' && String(line.args[0]).includes('count changed')),
    ).toBe(true);
    // Pages 2–4 of the grown list were read (63 calls: four pages), the repeats dropped.
    expect(listRequests(mock).map((entry) => entry.query.page)).toEqual(['1', '2', '3', '4']);
  });

  it('reports a fall of count when records are deleted mid-iteration, and says items may be missed', async () => {
    const mock = await target.start({ clock: 'frozen', sizes: { users: 3, calls: 60 } });
    opened.push(mock);
    const snapshot = (await readAll(mock)).map((call) => call.id);
    // As page 2 goes out, two calls of page 1 are deleted: page 2 starts two items later.
    const { client, logger } = clientWithHook(target, mock, ({ path, page }) => {
      if (path === '/v1/calls/' && page === 2)
        for (const id of snapshot.slice(0, 2)) mock.records.delete('calls', id);
    });
    opened.push(client);
    const changes: CountChangeEvent[] = [];
    const ids = (
      await client.calls.list({ page_size: 20 }, { onCountChange: (event) => changes.push(event) }).toArray()
    ).map((call) => call.id);
    expect(changes).toEqual([{ previous: 60, current: 58, page: 2 }]);
    expect(logger.lines.some((line) => String(line.args[0]).includes('items may be missed'))).toBe(true);
    // What a plain list cannot help (sync() steps back instead; see sync.test.ts): the two items that
    // moved from page 2 to page 1 were never seen, and none came twice.
    expect(ids).toEqual(snapshot.filter((_, index) => index !== 20 && index !== 21));
  });

  it('stops requests in flight when the consumer breaks out early', async () => {
    const { mock, client } = await setup(101);
    let seen = 0;
    for await (const _call of client.calls.list({ page_size: 10 }, { concurrency: 4 })) {
      if (++seen === 12) break;
    }
    expect(seen).toBe(12);
    // Page 1, then pages 2–5 at most; never the whole list.
    expect(listRequests(mock).length).toBeLessThanOrEqual(6);
  });
});
