import { AudienceMember, endpoints, LeadReceived } from '@company-data/contract';
import { type CompanyData, ValidationError } from '@company-data/sdk';
import { UsageError } from '../errors.js';
import { shown } from './findings.js';
import type { Answer, Probe } from './probe.js';

/** The member the audience check adds (or finds, from an earlier run): fictional, and the same every time. */
export const VERIFY_MEMBER = {
  first_name: 'Company Data',
  last_name: 'Verify',
  email: 'company-data-verify@example.com',
  custom_fields: { source: 'company-data verify' },
} as const;

/** The lead the lead check submits: a fictional number (555-01xx is reserved for fiction). */
export const VERIFY_LEAD = {
  phone_number: '+12025550142',
  customer_name: 'Company Data Verify',
  email: 'company-data-verify@example.com',
  notes: 'Conformance check by company-data verify; fictional contact, safe to delete.',
} as const;

/** Which webhooks to check, by token or full URL; each is left out unless given. */
export interface WebhookTargets {
  /** The audience webhook's token or URL. */
  readonly audience?: string | undefined;
  /** The lead webhook's token or URL. */
  readonly lead?: string | undefined;
}

/**
 * Check `webhooks`, the only one that writes, and only for the webhooks given: the audience webhook adds
 * {@link VERIFY_MEMBER} twice (the second answer must be the same member: idempotency) and its answers
 * must match the contract; the lead webhook gets {@link VERIFY_LEAD} once and must answer
 * `{received: true}`.
 *
 * @returns what was created, in words, for the report.
 * @throws UsageError when a token or URL is malformed (nothing is sent then).
 */
export async function checkWebhooks(
  probe: Probe,
  client: CompanyData,
  targets: WebhookTargets,
): Promise<string[]> {
  const created: string[] = [];
  if (targets.audience === undefined && targets.lead === undefined) {
    probe.findings.skip('webhooks', 'not run: it writes, so only with --audience-webhook or --lead-webhook');
    return created;
  }
  const audience = targets.audience;
  if (audience !== undefined) {
    const add = () =>
      probe.call(endpoints.addAudienceMember.operationId, () =>
        client.audiences.addMember(audience, VERIFY_MEMBER),
      );
    const first = refuseMalformed(await add(), '--audience-webhook');
    if (checkAnswer(probe, first, [200, 201], AudienceMember)) {
      created.push(
        `audience member ${VERIFY_MEMBER.email} (${VERIFY_MEMBER.first_name} ${VERIFY_MEMBER.last_name}): ${first.status === 201 ? 'added' : 'already there from an earlier run'}`,
      );
      const again = await add();
      if (checkAnswer(probe, again, [200], AudienceMember)) {
        const id = (first.json as { id: string }).id;
        const same = (again.json as { id: string }).id;
        if (same !== id)
          probe.mismatch(
            'webhooks',
            again,
            'id',
            shown(same),
            `${JSON.stringify(id)}: the member added before (the webhook is idempotent by e-mail)`,
          );
      }
    }
  }
  const lead = targets.lead;
  if (lead !== undefined) {
    const answer = refuseMalformed(
      await probe.call(endpoints.submitLead.operationId, () => client.leads.submit(lead, VERIFY_LEAD)),
      '--lead-webhook',
    );
    if (checkAnswer(probe, answer, [200], LeadReceived))
      created.push(
        `lead from ${VERIFY_LEAD.phone_number} (${VERIFY_LEAD.customer_name}, fictional): the messaging agent may try to text it`,
      );
  }
  return created;
}

function checkAnswer(
  probe: Probe,
  answer: Answer,
  statuses: readonly number[],
  schema: Parameters<Probe['expectSchema']>[2],
): boolean {
  probe.findings.checked('webhooks');
  const [expected = 200] = statuses;
  if (!statuses.includes(answer.status ?? 0) && !probe.expectStatus('webhooks', answer, expected))
    return false;
  return probe.expectSchema('webhooks', answer, schema);
}

function refuseMalformed(answer: Answer, flag: string): Answer {
  if (answer.error instanceof ValidationError) throw new UsageError(`${flag}: ${answer.error.message}`);
  return answer;
}
