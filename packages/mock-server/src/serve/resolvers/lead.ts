import { ERROR_DETAILS, LeadInput, type LeadReceived } from '@company-data/contract';
import { isDeleted, type Lead, type LeadSource } from '../../data/store/leads.js';
import { normalizePhone } from '../../data/store/phone.js';
import { isObject, readJsonBody } from '../http/body.js';
import { errorResponse, json, notFound, unmatched } from '../http/responses.js';
import { UNMATCHED } from '../http/unmatched.js';
import type { ResolveContext } from './context.js';
import { describeIssue } from './describe-issue.js';
import type { WebhookResolver } from './types.js';

const RECEIVED = json(200, { received: true } satisfies LeadReceived);

/**
 * `POST {api_root}/messaging-agent/webhook/{webhook_token}/`: 200 `{received:true}` (also when
 * processing fails, which is recorded), 400 `{error:'phone_number is required'}`, 404
 * `{error:'Not found'}` for an unknown token or a deleted lead source.
 */
export const submitLead: WebhookResolver = (context, request, token, shape) => {
  const source = context.store.leadSources.get(token);
  if (!source || isDeleted(source, context.clock.nowMs()))
    return unmatched(notFound(shape), UNMATCHED.unknownLeadSource);
  const body = readJsonBody(request, context.maxBodyBytes);
  if (!body.ok) return errorResponse(shape, body.status, body.message);
  if (!isObject(body.value)) return errorResponse(shape, 400, 'Expected a JSON object');
  const parsed = LeadInput.safeParse(body.value);
  if (!parsed.success) {
    const missingPhone = parsed.error.issues.some((issue) => issue.path[0] === 'phone_number');
    return errorResponse(
      shape,
      400,
      missingPhone ? ERROR_DETAILS.leadPhoneRequired : describeIssue(parsed.error),
    );
  }
  const lead = processLead(context, source, parsed.data.phone_number, body.value);
  const outcome =
    lead.status === 'failed' ? 'lead_failed' : lead.deduplicated ? 'lead_deduplicated' : 'lead_queued';
  return { response: RECEIVED, outcome };
};

/**
 * Queues a lead. Any failure here is recorded on the lead and never reaches the sender: the
 * webhook answers 200 so that senders do not retry and duplicate leads.
 */
function processLead(
  context: ResolveContext,
  source: LeadSource,
  phoneNumber: string,
  body: Record<string, unknown>,
): Lead {
  const { store, clock } = context;
  const receivedAt = clock.now().toISOString();
  const base = { leadSourceId: source.id, receivedAt, phoneNumber, body };
  const fail = (error: string): Lead => {
    const lead: Lead = {
      ...base,
      id: store.newId(),
      phone: null,
      status: 'failed',
      error,
      deduplicated: false,
      conversationId: null,
    };
    store.leads.fail(lead);
    return lead;
  };
  try {
    if (context.takeLeadFailure()) return fail('Injected processing failure');
    const phone = normalizePhone(phoneNumber);
    if (phone === undefined) return fail(`Could not normalise phone number "${phoneNumber}"`);
    return store.leads.file(
      source,
      phone,
      clock.nowMs(),
      () => store.newId(),
      (conversationId, deduplicated) => ({
        ...base,
        id: store.newId(),
        phone,
        status: 'queued',
        error: null,
        deduplicated,
        conversationId,
      }),
    );
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}
