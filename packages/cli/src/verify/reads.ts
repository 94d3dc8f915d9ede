import type { CompanyData } from '@company-data/sdk';
import { shown } from './findings.js';
import type { Probe } from './probe.js';
import type { VerifiedResource } from './resources.js';

/**
 * Retrieves some records of a resource by id, and their transcripts where the API has them, and checks
 * each answer against the contract (check `records`): the schema, and that it is about the id asked for.
 *
 * @param ids - ids listed by the resource's list endpoint.
 */
export async function checkReads(
  probe: Probe,
  client: CompanyData,
  resource: VerifiedResource,
  ids: readonly string[],
): Promise<void> {
  for (const id of ids) {
    for (const { endpoint, call } of resource.reads) {
      const answer = await probe.call(endpoint.operationId, () => call(client, id));
      if (!probe.expectStatus('records', answer, 200)) continue;
      probe.findings.checked('records');
      probe.expectSchema('records', answer, endpoint.response);
      const answered = (answer.json as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (typeof answered === 'string' && answered.toLowerCase() !== id.toLowerCase())
        probe.mismatch(
          'records',
          answer,
          'data.id',
          shown(answered),
          `${JSON.stringify(id)}, the id asked for`,
        );
    }
  }
}
