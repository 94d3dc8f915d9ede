import { LIST_LIMITS } from '@company-data/contract';
import type { ListOptions, ListQuery, PagePromise } from '@company-data/sdk';

/** How much of a newest-first list to read. */
export interface ListBounds {
  /** The most items to read; `undefined` reads them all. */
  readonly max?: number | undefined;
  /** Only items created at or after this time (epoch ms). */
  readonly since?: number | undefined;
}

/** A list method of the SDK, e.g. `client.calls.list` bound to its resource. */
export type ListMethod<Item> = (params: ListQuery, options: ListOptions) => PagePromise<Item>;

const MAX_PAGE_SIZE = LIST_LIMITS.maxPageSize;

/**
 * Reads a list newest first, up to its bounds, with the SDK's ordered prefetch: up to `concurrency` pages
 * in flight, every request through the client's rate gate. Leaving early aborts the pages still in flight.
 *
 * @param list - the SDK's list method.
 * @param bounds - how many items, and from when.
 * @param options - prefetch depth, a signal, and a callback per page read.
 * @returns the items, newest first.
 */
export async function readNewest<Item extends { created_at: string }>(
  list: ListMethod<Item>,
  bounds: ListBounds,
  options: {
    concurrency: number;
    signal?: AbortSignal | undefined;
    onPage?: (read: number, count: number) => void;
  },
): Promise<Item[]> {
  const { max, since } = bounds;
  const items: Item[] = [];
  if (max === 0) return items;
  const page_size = Math.min(MAX_PAGE_SIZE, max ?? MAX_PAGE_SIZE);
  const pages = list({ page_size }, { concurrency: options.concurrency, signal: options.signal }).pages();
  for await (const page of pages) {
    for (const item of page.data) {
      if (since !== undefined && Date.parse(item.created_at) < since) return items;
      items.push(item);
      if (items.length === max) return items;
    }
    options.onPage?.(items.length, Math.min(page.pagination.count, max ?? Number.POSITIVE_INFINITY));
  }
  return items;
}
