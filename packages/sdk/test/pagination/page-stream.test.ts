import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { type PageLike, type PageSource, pageStream } from '../../src/pagination/page-stream.js';
import { turn } from '../support/turns.js';

interface TestPage extends PageLike {
  data: number[];
}

const page = (number: number, totalPages: number, data = [number]): TestPage => ({
  data,
  pagination: { count: totalPages, page: number, page_size: 1, total_pages: totalPages },
});

/** A fetcher whose responses the test resolves in any order. */
function controlledFetcher(totalPages: number) {
  const requests: {
    page: number;
    signal: AbortSignal;
    resolve: (page: TestPage) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const fetch = (number: number, signal: AbortSignal) =>
    new Promise<TestPage>((resolve, reject) => requests.push({ page: number, signal, resolve, reject }));
  const answer = (number: number, value: TestPage | Error = page(number, totalPages)) => {
    const request = requests.find((r) => r.page === number);
    if (!request) throw new Error(`page ${number} was not requested`);
    if (value instanceof Error) request.reject(value);
    else request.resolve(value);
  };
  return { requests, fetchPage: fetch, answer };
}

/** The stream as a plain window: `concurrency` pages ahead, never more. */
const inWindow = (
  first: Promise<TestPage>,
  source: PageSource<TestPage>,
  concurrency: number,
  signal?: AbortSignal,
) => pageStream(first, source, { concurrency, readAhead: concurrency, ordered: true, signal });

describe('orderedPages', () => {
  it('keeps `concurrency` requests in flight and yields in order whatever order they finish in', async () => {
    const fetcher = controlledFetcher(6);
    const stream = inWindow(Promise.resolve(page(1, 6)), fetcher, 3, undefined);
    expect((await stream.next()).value?.pagination.page).toBe(1);
    const second = stream.next();
    await turn();
    expect(fetcher.requests.map((r) => r.page)).toEqual([2, 3, 4]);
    fetcher.answer(4);
    fetcher.answer(3);
    await turn();
    fetcher.answer(2);
    expect((await second).value?.pagination.page).toBe(2);
    const seen = [2];
    const rest = (async () => {
      for await (const p of stream) seen.push(p.pagination.page);
    })();
    await turn();
    expect(fetcher.requests.map((r) => r.page)).toEqual([2, 3, 4, 5, 6]);
    fetcher.answer(6);
    fetcher.answer(5);
    await rest;
    expect(seen).toEqual([2, 3, 4, 5, 6]);
  });

  it('requests the next page only when asked, with concurrency 1', async () => {
    const fetcher = controlledFetcher(3);
    const stream = inWindow(Promise.resolve(page(1, 3)), fetcher, 1, undefined);
    await stream.next();
    await turn();
    expect(fetcher.requests).toHaveLength(0);
    const next = stream.next();
    await turn();
    expect(fetcher.requests.map((r) => r.page)).toEqual([2]);
    fetcher.answer(2);
    await next;
  });

  it('follows total_pages growing mid-iteration and ends on an empty page or a 404', async () => {
    const grows = controlledFetcher(0);
    const pages: number[] = [];
    const walk = (async () => {
      for await (const p of inWindow(Promise.resolve(page(1, 2)), grows, 1, undefined)) {
        pages.push(p.pagination.page);
      }
    })();
    await turn();
    grows.answer(2, page(2, 4));
    await turn();
    grows.answer(3, page(3, 4, []));
    await walk;
    expect(pages).toEqual([1, 2]);

    const gone = controlledFetcher(3);
    const after404 = (async () => {
      const seen: number[] = [];
      for await (const p of inWindow(Promise.resolve(page(1, 3)), gone, 2, undefined)) {
        seen.push(p.pagination.page);
      }
      return seen;
    })();
    await turn();
    gone.answer(2, new NotFoundError('Invalid page.'));
    await expect(after404).resolves.toEqual([1]);
  });

  it('aborts requests in flight when the consumer stops early, and rethrows other errors', async () => {
    const fetcher = controlledFetcher(5);
    const stream = inWindow(Promise.resolve(page(1, 5)), fetcher, 3, new AbortController().signal);
    await stream.next();
    const pending = stream.next();
    await turn();
    fetcher.answer(2);
    await pending;
    await stream.return(undefined);
    const inFlight = fetcher.requests.filter((r) => r.page !== 2);
    expect(inFlight.map((r) => r.page)).toEqual([3, 4]);
    expect(inFlight.every((r) => r.signal.aborted)).toBe(true);
    fetcher.answer(3, new Error('late failure is ignored'));

    const failing = controlledFetcher(3);
    const walk = (async () => {
      for await (const _ of inWindow(Promise.resolve(page(1, 3)), failing, 1, undefined)) {
        // consume
      }
    })();
    await turn();
    failing.answer(2, new Error('boom'));
    await expect(walk).rejects.toThrow('boom');
  });
});

describe('pageStream past a late page', () => {
  it('reaches up to readAhead pages once the oldest is late, and back to the window after it', async () => {
    const fetcher = controlledFetcher(30);
    let fire: (() => void) | undefined;
    const stream = pageStream(Promise.resolve(page(1, 30)), fetcher, {
      concurrency: 2,
      readAhead: 6,
      ordered: true,
      armTimer: (_ms, late) => {
        fire = late;
        return () => {
          fire = undefined;
        };
      },
    });
    await stream.next();
    const second = stream.next();
    await turn();
    expect(fetcher.requests.map((r) => r.page)).toEqual([2, 3]);
    fetcher.answer(3);
    await turn();
    // Page 2 is not late yet: the window of `concurrency` pages holds.
    expect(fetcher.requests.map((r) => r.page)).toEqual([2, 3]);
    fire?.();
    await turn();
    expect(fetcher.requests.map((r) => r.page)).toEqual([2, 3, 4, 5, 6, 7]);
    fetcher.answer(2);
    expect((await second).value?.pagination.page).toBe(2);
    expect(fire).toBeUndefined();
    // Pages 3–7 are under way or held: nothing new starts until fewer than `concurrency` remain.
    await stream.next();
    await turn();
    expect(fetcher.requests).toHaveLength(6);
    await stream.return(undefined);
  });

  it('yields pages as they arrive with ordered: false, each page once, ending at an empty page', async () => {
    const fetcher = controlledFetcher(5);
    const stream = pageStream(Promise.resolve(page(1, 5)), fetcher, {
      concurrency: 4,
      readAhead: 4,
      ordered: false,
    });
    const seen: number[] = [];
    const walk = (async () => {
      for await (const p of stream) seen.push(p.pagination.page);
    })();
    await turn();
    expect(fetcher.requests.map((r) => r.page)).toEqual([2, 3, 4, 5]);
    fetcher.answer(5, page(5, 5, []));
    fetcher.answer(4);
    await turn();
    fetcher.answer(3);
    await turn();
    fetcher.answer(2);
    await walk;
    expect(seen).toEqual([1, 4, 3, 2]);
  });

  it('reads a page again when it was read before the list grew and before the page yielded last', async () => {
    const fetcher = controlledFetcher(4);
    const counted = (number: number, count: number): TestPage => ({
      data: [number],
      pagination: { count, page: number, page_size: 1, total_pages: 4 },
    });
    const seen: number[] = [];
    const walk = (async () => {
      const options = { concurrency: 2, readAhead: 2, ordered: true };
      for await (const p of pageStream(Promise.resolve(counted(1, 4)), fetcher, options)) {
        seen.push(p.pagination.count);
      }
    })();
    await turn();
    fetcher.answer(3, counted(3, 4)); // read first, before a record was created
    await turn();
    fetcher.answer(2, counted(2, 5)); // read after it: the list grew
    await turn();
    // Page 3 is read again, and its fresh copy is the one yielded.
    expect(fetcher.requests.map((r) => r.page)).toEqual([2, 3, 4, 3]);
    fetcher.requests.splice(1, 1);
    fetcher.answer(3, counted(3, 5));
    fetcher.answer(4, counted(4, 5));
    await walk;
    expect(seen).toEqual([4, 5, 5, 5]);
  });

  it('stops at lastPage', async () => {
    const fetcher = controlledFetcher(10);
    const walk = (async () => {
      const seen: number[] = [];
      const options = { concurrency: 3, readAhead: 3, ordered: true, lastPage: 3 };
      for await (const p of pageStream(Promise.resolve(page(1, 10)), fetcher, options)) {
        seen.push(p.pagination.page);
      }
      return seen;
    })();
    await turn();
    expect(fetcher.requests.map((r) => r.page)).toEqual([2, 3]);
    fetcher.answer(2);
    fetcher.answer(3);
    await expect(walk).resolves.toEqual([1, 2, 3]);
  });
});
