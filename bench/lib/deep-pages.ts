/** The deep-page figures' walk over pages and their reader of a full page, one home for figures 4c and 4d. */
import { type Dispatcher, request } from 'undici';

/**
 * The calls a deep-page figure's mock holds (a million, a tenth of it with --quick) and its last page at 25
 * a page, the deep one.
 */
export function deepPageSizes(quick: boolean): { total: number; deep: number } {
  const total = quick ? 100_000 : 1_000_000;
  return { total, deep: total / 25 };
}

/** Pages each variant cycles through: more than the mock's page cache keeps (at most 1,000), so none is a hit. */
export const SPREAD = 2_000;

/** The next page of `from`, `from + 1`, … `from + SPREAD - 1`, then `from` again. */
export function pageCycle(from: number): () => number {
  let offset = 0;
  return () => {
    const page = from + offset;
    offset = (offset + 1) % SPREAD;
    return page;
  };
}

/** A list page as the deep-page figures read it. */
export interface ListPage {
  data: unknown[];
  pagination: { page: number; count: number; total_pages: number };
}

/**
 * Reads pages of 25 from `listURL` (a list URL ending in `?page_size=25`) with `query` appended; throws on
 * anything but a full page, so a figure never times an error.
 */
export function pageReader(listURL: string, apiKey: string, dispatcher: Dispatcher) {
  const headers = { authorization: `Bearer ${apiKey}` };
  return async (query: string): Promise<ListPage> => {
    const res = await request(`${listURL}${query}`, { headers, dispatcher });
    const body = JSON.parse(await res.body.text()) as ListPage;
    if (res.statusCode !== 200 || body.data.length !== 25)
      throw new Error(`unexpected answer for ${query}: ${res.statusCode}`);
    return body;
  };
}

/**
 * Reads the deep page once (so the mock builds its lists before any timing) and checks the mock holds exactly
 * that many pages: a figure over fewer would time a shallow page and call it deep.
 */
export async function probeDeepPage(get: (query: string) => Promise<ListPage>, deep: number): Promise<void> {
  const probe = await get(`&page=${deep}`);
  if (probe.pagination.total_pages !== deep)
    throw new Error(`expected ${deep} pages, got ${probe.pagination.total_pages}`);
}
