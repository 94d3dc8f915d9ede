import type { CompanyData } from '@company-data/sdk';
import { shown } from './findings.js';
import type { Answer, Probe } from './probe.js';
import type { VerifiedResource } from './resources.js';

/**
 * Checks a list filter (`is_active` on users, `source` on calls): page 1 for each value lists only records
 * with that value, and the counts of all the values add up to the unfiltered `count` (check `filters`).
 *
 * @param total - the unfiltered list's `count`.
 */
export async function checkFilter(
  probe: Probe,
  client: CompanyData,
  resource: VerifiedResource,
  total: number,
  pageSize: number,
): Promise<void> {
  const { filter } = resource;
  if (filter === undefined) return;
  let sum = 0;
  let first: Answer | undefined;
  for (const value of filter.values) {
    const answer = await probe.call(resource.list.operationId, () =>
      resource.listCall(client, { [filter.param]: value, page_size: pageSize }),
    );
    first ??= answer;
    if (!probe.expectStatus('filters', answer, 200)) return;
    probe.expectSchema('records', answer, resource.list.response);
    const body = answer.json as
      | { data?: Record<string, unknown>[]; pagination?: { count?: unknown } }
      | undefined;
    const items = Array.isArray(body?.data) ? body.data : [];
    probe.findings.checked('records', items.length);
    probe.findings.checked('filters', items.length);
    items.forEach((item, index) => {
      if (item[filter.param] !== value)
        probe.mismatch(
          'filters',
          answer,
          `data[${index}].${filter.param}`,
          shown(item[filter.param]),
          `${JSON.stringify(value)}, the value filtered on`,
        );
    });
    sum += typeof body?.pagination?.count === 'number' ? body.pagination.count : 0;
  }
  if (first !== undefined && sum !== total)
    probe.mismatch(
      'filters',
      first,
      'pagination.count',
      `${sum} in all (${filter.values.map((value) => `${filter.param}=${value}`).join(', ')})`,
      `${total}, the count of the unfiltered list`,
    );
}
