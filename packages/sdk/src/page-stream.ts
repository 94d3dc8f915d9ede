import type { Pagination } from '@company-data/contract';
import { NotFoundError } from './errors.js';

/** The least a page needs for the stream to walk on. */
export interface PageLike {
  data: readonly unknown[];
  pagination: Pagination;
}

/** Fetches one page by number; `signal` aborts it when the consumer stops early. */
export type FetchPage<P> = (page: number, signal: AbortSignal) => Promise<P>;

/** The most pages a list may request ahead. */
export const MAX_CONCURRENCY = 16;

/**
 * Yields the first page, then every following page in order, keeping up to `concurrency` requests in
 * flight (ordered prefetch). At most `concurrency` pages are held at any time. The end is taken from the
 * newest page read (`total_pages` grows when records are added mid-iteration); an empty page, or a 404 for
 * a page that no longer exists after deletions, also ends the walk. Stopping early aborts requests in flight.
 */
export async function* orderedPages<P extends PageLike>(
  first: Promise<P>,
  fetchPage: FetchPage<P>,
  concurrency: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<P, void, undefined> {
  const firstPage = await first;
  yield firstPage;
  const stop = new AbortController();
  const requestSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let lastPage = firstPage.pagination.total_pages;
  let next = firstPage.pagination.page + 1;
  const window: Promise<P>[] = [];
  try {
    for (;;) {
      while (window.length < concurrency && next <= lastPage) {
        const pending = fetchPage(next++, requestSignal);
        // Awaited in order below; until then a rejection must not count as unhandled.
        pending.catch(() => undefined);
        window.push(pending);
      }
      const head = window.shift();
      if (head === undefined) return;
      let page: P;
      try {
        page = await head;
      } catch (error) {
        if (error instanceof NotFoundError) return;
        throw error;
      }
      if (page.data.length === 0) return;
      lastPage = page.pagination.total_pages;
      yield page;
    }
  } finally {
    stop.abort();
  }
}
