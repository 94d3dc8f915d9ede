import type { Ordering, Pagination } from '@company-data/contract';
import type { CompanyData } from '@company-data/sdk';
import { shown } from './findings.js';
import type { Answer, Probe } from './probe.js';
import type { AnyListQuery, VerifiedResource } from './resources.js';

/** How much of each list a sample reads. */
export interface ListSampleSize {
  /** Items per page. */
  readonly pageSize: number;
  /** Pages read from the head; the last page is read too. */
  readonly pages: number;
}

/** What a sample of a list's pages saw. */
export interface ListSample {
  /** `count` of page 1. */
  readonly count: number;
  /** Ids in the order listed. */
  readonly ids: string[];
  /** Whether every page was read, so `ids` is the whole list. */
  readonly complete: boolean;
}

interface Item {
  id?: unknown;
  created_at?: unknown;
}

/**
 * Reads one list in one ordering, page 1 to `pages` and the last page, and checks it: every answer against
 * the list schema (check `records`), each page's `pagination` and length against `count` and `page_size`,
 * every id exactly once across the pages (check `pagination`), and the order of `created_at` across page
 * boundaries (check `ordering`).
 *
 * @returns what the sample saw, or `undefined` when page 1 could not be read as a list.
 */
export async function sampleList(
  probe: Probe,
  client: CompanyData,
  resource: VerifiedResource,
  ordering: Ordering,
  size: ListSampleSize,
): Promise<ListSample | undefined> {
  const fetch = (page: number) =>
    probe.call(resource.list.operationId, () =>
      resource.listCall(client, { ordering, page, page_size: size.pageSize } satisfies AnyListQuery),
    );
  const first = readPage(probe, resource, await fetch(1));
  if (first === undefined) return undefined;
  const { count, total_pages: total } = first.pagination;
  const head = Array.from({ length: Math.max(1, Math.min(size.pages, total)) }, (_, index) => index + 1);
  const pageNumbers = [...new Set([...head, total])].filter((number) => number >= 1);
  const seen = new Map<string, number>();
  const ids: string[] = [];
  let previous: { time: number; text: string } | undefined;
  const direction = ordering.startsWith('-') ? -1 : 1;
  for (const page of pageNumbers) {
    const read = page === 1 ? first : readPage(probe, resource, await fetch(page));
    if (read === undefined) continue;
    checkPagination(probe, read, page, size.pageSize, count);
    read.data.forEach((item, index) => {
      const id = typeof item.id === 'string' ? item.id : undefined;
      if (id !== undefined) {
        const earlier = seen.get(id);
        if (earlier !== undefined)
          probe.mismatch(
            'pagination',
            read.answer,
            `data[${index}].id`,
            shown(id),
            `each id once across the pages; this one is also on page ${earlier}`,
          );
        else {
          seen.set(id, page);
          ids.push(id);
        }
      }
      const time = typeof item.created_at === 'string' ? Date.parse(item.created_at) : Number.NaN;
      if (Number.isNaN(time)) return;
      if (previous !== undefined && (time - previous.time) * direction < 0)
        probe.mismatch(
          'ordering',
          read.answer,
          `data[${index}].created_at`,
          shown(item.created_at),
          `${direction < 0 ? 'at or before' : 'at or after'} ${previous.text}, the item listed before it (ordering ${ordering})`,
        );
      previous = { time, text: item.created_at as string };
    });
    probe.findings.checked('ordering', read.data.length);
  }
  const complete = pageNumbers.length >= total;
  if (complete && ids.length !== count)
    probe.mismatch(
      'pagination',
      first.answer,
      'pagination.count',
      shown(count),
      `${ids.length}, the number of distinct ids on all ${total} pages`,
    );
  return { count, ids, complete };
}

interface PageRead {
  readonly answer: Answer;
  readonly data: Item[];
  readonly pagination: Pagination;
}

/** Validates a list answer (check `records`) and returns its parts when it is a list at all. */
function readPage(probe: Probe, resource: VerifiedResource, answer: Answer): PageRead | undefined {
  if (!probe.expectStatus('records', answer, 200)) return undefined;
  probe.expectSchema('records', answer, resource.list.response);
  const body = answer.json as { data?: unknown; pagination?: Partial<Pagination> } | undefined;
  const pagination = body?.pagination;
  if (
    !Array.isArray(body?.data) ||
    typeof pagination?.count !== 'number' ||
    typeof pagination.total_pages !== 'number'
  )
    return undefined;
  probe.findings.checked('records', body.data.length);
  return { answer, data: body.data as Item[], pagination: pagination as Pagination };
}

/** The invariants of one page: its number and size echoed, `total_pages` and its length following `count`. */
function checkPagination(probe: Probe, read: PageRead, page: number, pageSize: number, count: number): void {
  const { answer, pagination, data } = read;
  probe.findings.checked('pagination');
  const mismatch = (field: string, value: string, expected: string) =>
    probe.mismatch('pagination', answer, field, value, expected);
  if (pagination.page !== page)
    mismatch('pagination.page', shown(pagination.page), `${page}, the page asked for`);
  if (pagination.page_size !== pageSize)
    mismatch('pagination.page_size', shown(pagination.page_size), `${pageSize}, the page_size asked for`);
  if (pagination.count !== count)
    mismatch(
      'pagination.count',
      shown(pagination.count),
      `${count}, as on page 1 (rerun if records were being created)`,
    );
  const totalPages = Math.ceil(pagination.count / pageSize);
  if (pagination.total_pages !== totalPages)
    mismatch(
      'pagination.total_pages',
      shown(pagination.total_pages),
      `${totalPages} = ceil(count ${pagination.count} / page_size ${pageSize})`,
    );
  const full = Math.max(0, pagination.total_pages - 1) * pageSize;
  if (page < pagination.total_pages && data.length !== pageSize)
    mismatch(
      'data',
      `${data.length} items`,
      `${pageSize} items: a full page, since page ${page} is not the last`,
    );
  if (page === pagination.total_pages && data.length !== pagination.count - full)
    mismatch(
      'pagination.count',
      shown(pagination.count),
      `${full + data.length}: ${pagination.total_pages - 1} full pages of ${pageSize} and ${data.length} items on the last page ${page}`,
    );
}
