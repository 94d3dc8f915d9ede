/** The deep-page figures' walk over pages and their reader of a full page, one home for figures 4c and 4d. */
import { type Dispatcher, request } from 'undici';

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
