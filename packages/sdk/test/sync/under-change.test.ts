import type { MockServer } from '@company-data/mock-server';
import { afterEach, describe, expect, it } from 'vitest';
import type { Call, SyncChange, SyncRun } from '../../src/index.js';
import {
  callPagesRead,
  caught,
  clientFor,
  clientWithHook,
  type RequestHook,
  type Target,
  targets,
  untilCallPagesRead,
} from '../support/harness.js';

// `sync()` while the mock's data changes under it: calls created and deleted between two page requests
// (a request hook makes each change as a page request goes out, so the interleaving is exact), runs
// interrupted and resumed, and the look-back window.

const PAGE_SIZE = 10;

/** The calls of a mock newest first, kept in step with the changes a test makes. */
class Calls {
  alive: string[];
  readonly #mock: MockServer;

  constructor(mock: MockServer, ids: string[]) {
    this.#mock = mock;
    this.alive = ids;
  }

  /** A call created a second after the last (so none shares an instant with another). */
  create(): string {
    this.#mock.clock.advance(1_000);
    const { id } = this.#mock.records.create('calls');
    this.alive.unshift(id);
    return id;
  }

  /** Deletes the call at this place of the list (0 = newest). */
  deleteAt(place: number): string {
    const [id] = this.alive.splice(place, 1);
    if (id === undefined) throw new Error(`no call at ${place}`);
    this.#mock.records.delete('calls', id);
    return id;
  }
}

/** Counts how often each id was delivered as created, over runs. */
class Deliveries {
  readonly times = new Map<string, number>();

  async take(run: SyncRun<Call>, stopAfter = Number.POSITIVE_INFINITY): Promise<SyncChange<Call>[]> {
    const changes: SyncChange<Call>[] = [];
    for await (const change of run) {
      changes.push(change);
      if (change.type === 'created')
        this.times.set(change.record.id, (this.times.get(change.record.id) ?? 0) + 1);
      if (changes.length >= stopAfter) break;
    }
    return changes;
  }

  /** Every id of `alive` delivered once, and no id twice. */
  check(alive: readonly string[]): void {
    const twice = [...this.times].filter(([, times]) => times > 1).map(([id]) => id);
    const missing = alive.filter((id) => !this.times.has(id));
    expect({ twice, missing }).toEqual({ twice: [], missing: [] });
  }
}

/** Waits (a bounded number of turns) until pages 3 and 4 of the calls were read; the pages read by then. */
async function pagesReadOnce3And4(mock: MockServer): Promise<number[]> {
  await untilCallPagesRead(mock, [3, 4]);
  return callPagesRead(mock);
}

describe.each(targets)('sync while the list changes ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  async function setup(count: number, hook: RequestHook = () => undefined) {
    const mock = await target.start({ clock: 'frozen', sizes: { users: 4, calls: count } });
    opened.push(mock);
    const { client: reader } = clientFor(target, mock);
    opened.push(reader);
    const calls = new Calls(
      mock,
      (await reader.calls.list({ page_size: 100 }).toArray()).map((call) => call.id),
    );
    let active: RequestHook = () => undefined;
    const { client } = clientWithHook(target, mock, (request) =>
      request.path === '/v1/calls/' ? active(request) : hook(request),
    );
    opened.push(client);
    mock.clearJournal();
    return { mock, client, calls, during: (next: RequestHook) => (active = next) };
  }

  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
  });

  it('deletions of records already read shift the pages back: the walk steps back, and misses nothing', async () => {
    const { mock, client, calls, during } = await setup(100);
    const deliveries = new Deliveries();
    // As pages 3 and 6 go out, two calls already read are deleted (every later page starts two items
    // later) and one call arrives at the head.
    const fired = new Set<number>();
    during(({ page }) => {
      if ((page === 3 || page === 6) && !fired.has(page)) {
        fired.add(page);
        calls.deleteAt(2);
        calls.deleteAt(2);
        calls.create();
      }
      return undefined;
    });
    const run = client.calls.sync({ params: { page_size: PAGE_SIZE } });
    await deliveries.take(run);
    const read = callPagesRead(mock);
    // After each fall of count the walk read the page before again.
    expect(read.slice(0, 4)).toEqual([1, 2, 3, 2]);
    during(() => undefined);
    const next = client.calls.sync({ checkpoint: run.checkpoint, params: { page_size: PAGE_SIZE } });
    const created = await deliveries.take(next);
    // The next run brings exactly the two calls that arrived during the first.
    expect(created).toHaveLength(2);
    deliveries.check(calls.alive);
  });

  it('creations and deletions at every page, sync after sync: every call once', async () => {
    const { client, calls, during } = await setup(120);
    const deliveries = new Deliveries();
    let step = 0;
    during(({ page }) => {
      step++;
      if (page === 1) return undefined;
      calls.create();
      calls.deleteAt(step % 3 === 0 ? calls.alive.length - 1 : (step * 7) % Math.min(30, calls.alive.length));
      return undefined;
    });
    let checkpoint: string | undefined;
    for (let round = 0; round < 4; round++) {
      const run = client.calls.sync({ checkpoint, params: { page_size: PAGE_SIZE } });
      await deliveries.take(run);
      checkpoint = run.checkpoint;
      calls.create();
    }
    during(() => undefined);
    await deliveries.take(client.calls.sync({ checkpoint, params: { page_size: PAGE_SIZE } }));
    deliveries.check(calls.alive);
  });

  it('resumes an interrupted run after calls were created and deleted meanwhile: no duplicate, no gap', async () => {
    const { client, calls, mock } = await setup(150);
    const deliveries = new Deliveries();
    const controller = new AbortController();
    const run = client.calls.sync({ params: { page_size: PAGE_SIZE } }, { signal: controller.signal });
    const failure = await caught(
      (async () => {
        let taken = 0;
        for await (const change of run) {
          if (change.type === 'created') deliveries.times.set(change.record.id, 1);
          if (++taken === 64) controller.abort();
        }
      })(),
    );
    expect(failure.code).toBe('request_aborted');
    expect(deliveries.times.size).toBe(64);
    expect(JSON.parse(run.checkpoint).walk).toMatchObject({ passed: 64 });
    // Meanwhile: 25 arrivals (the cursor is now 25 places further down) and deletions on both sides of it.
    for (let n = 0; n < 25; n++) calls.create();
    for (const place of [30, 31, 40, 100, 120]) calls.deleteAt(place);
    mock.clearJournal();
    const resumed = client.calls.sync({ checkpoint: run.checkpoint, params: { page_size: PAGE_SIZE } });
    const rest = await deliveries.take(resumed);
    // It read the page where it stopped (7), found it wholly above its cursor, and jumped by the change of
    // count to page 9 (64 + 25 − 5 = 84), which holds the cursor; it yielded only the calls below it (the
    // two deleted there are gone), and left the 25 arrivals to the next run.
    expect(callPagesRead(mock).slice(0, 2)).toEqual([7, 9]);
    expect(rest.length).toBe(150 - 64 - 2);
    const next = await deliveries.take(
      client.calls.sync({ checkpoint: resumed.checkpoint, params: { page_size: PAGE_SIZE } }),
    );
    expect(next).toHaveLength(25);
    deliveries.check(calls.alive);
  });

  it('with read-ahead, a fall of count makes the walk step back and read one page at a time: nothing missed', async () => {
    const { mock, client, calls, during } = await setup(100);
    const deliveries = new Deliveries();
    let fired = false;
    during(({ page }) => {
      if (page === 4 && !fired) {
        fired = true;
        for (let n = 0; n < 3; n++) calls.deleteAt(1);
      }
      return undefined;
    });
    const run = client.calls.sync({ params: { page_size: PAGE_SIZE } }, { concurrency: 4 });
    await deliveries.take(run);
    deliveries.check(calls.alive);
    const read = callPagesRead(mock);
    // Every page from 2 to the end was read, and one page was read again after the fall.
    expect(new Set(read)).toEqual(new Set(Array.from({ length: 10 }, (_, index) => index + 1)));
    expect(read.length).toBeGreaterThan(10);
  });

  it('with read-ahead, pages read before arrivals and yielded after are read again: nothing missed', async () => {
    const { mock, client, calls, during } = await setup(100);
    const deliveries = new Deliveries();
    const before = [...calls.alive];
    // Page 2 goes out late: pages 3 and 4 are read first, then three calls arrive, then page 2 is read.
    let held = false;
    /** The pages read when the calls arrived: 3 and 4 among them, or the case did not happen. */
    let readBeforeArrivals: number[] = [];
    during(({ page }) => {
      if (page !== 2 || held) return undefined;
      held = true;
      return (async () => {
        // Bounded, and never silent: a poll that gave up fails the test below, with the pages it saw.
        readBeforeArrivals = await pagesReadOnce3And4(mock);
        for (let n = 0; n < 3; n++) calls.create();
      })();
    });
    const run = client.calls.sync({ params: { page_size: PAGE_SIZE } }, { concurrency: 3, readAhead: 3 });
    const created = await deliveries.take(run);
    expect(readBeforeArrivals).toEqual(expect.arrayContaining([3, 4]));
    expect(created.map((change) => (change.type === 'created' ? change.record.id : ''))).toEqual(before);
    expect(callPagesRead(mock).filter((page) => page === 3)).toHaveLength(2);
    during(() => undefined);
    await deliveries.take(
      client.calls.sync({ checkpoint: run.checkpoint, params: { page_size: PAGE_SIZE } }),
    );
    deliveries.check(calls.alive);
  });

  it('with read-ahead, a creation and a deletion below the boundary while page 2 is held hide a call (the limit the docs state)', async () => {
    const { mock, client, calls, during } = await setup(100);
    const deliveries = new Deliveries();
    const before = [...calls.alive];
    // Page 2 goes out late: pages 3 and 4 are read first, then a call arrives and the oldest is deleted
    // (`count` stays 100), then page 2 is read, one item further down than pages 3 and 4 expect.
    let held = false;
    during(({ page }) => {
      if (page !== 2 || held) return undefined;
      held = true;
      return (async () => {
        await pagesReadOnce3And4(mock);
        calls.create();
        calls.deleteAt(calls.alive.length - 1);
      })();
    });
    const run = client.calls.sync({ params: { page_size: PAGE_SIZE } }, { concurrency: 3, readAhead: 3 });
    const created = await deliveries.take(run);
    const crossed = before[2 * PAGE_SIZE - 1];
    expect(created.map((change) => (change.type === 'created' ? change.record.id : ''))).toEqual(
      before.filter((id) => id !== crossed && id !== before.at(-1)),
    );
    expect(calls.alive).toContain(crossed);
    // Read once each: nothing told the walk to read a page again.
    expect(callPagesRead(mock).filter((page) => page === 3)).toHaveLength(1);
  });

  it('records created in the same instant as the checkpoint are told apart by id', async () => {
    const { mock, client, calls } = await setup(30);
    const deliveries = new Deliveries();
    mock.clock.advance(60_000);
    const first = [0, 1, 2].map(() => mock.records.create('calls').id);
    calls.alive.unshift(...first);
    const run = client.calls.sync({ params: { page_size: 2 } });
    await deliveries.take(run);
    expect(JSON.parse(run.checkpoint).mark.ids).toHaveLength(3);
    // Three more in that very instant (the clock has not moved), sorting anywhere among the first three.
    const more = [0, 1, 2].map(() => mock.records.create('calls').id);
    calls.alive.unshift(...more);
    const next = await deliveries.take(
      client.calls.sync({ checkpoint: run.checkpoint, params: { page_size: 2 } }),
    );
    expect(next.map((change) => (change.type === 'created' ? change.record.id : '')).sort()).toEqual(
      [...more].sort(),
    );
    deliveries.check(calls.alive);
  });
});
