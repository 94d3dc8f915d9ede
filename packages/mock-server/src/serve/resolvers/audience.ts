import { AudienceMemberInput } from '@company-data/contract';
import { upsertMember } from '../../data/store/audiences.js';
import { normalizePhone } from '../../data/store/phone.js';
import { isObject, readJsonBody } from '../http/body.js';
import { errorResponse, json, notFound, unmatched } from '../http/responses.js';
import { UNMATCHED } from '../http/unmatched.js';
import { describeIssue } from './describe-issue.js';
import type { WebhookResolver } from './types.js';

/**
 * `POST {base_url}/outbound-campaigns/webhook/{webhook_token}/`: 201 with a new member, 200 with
 * the existing member of the same phone (any format) or e-mail (any case); 400/404/413/415 as
 * `{error:{detail}}`.
 */
export const addAudienceMember: WebhookResolver = (context, request, token, shape) => {
  const audience = context.store.audiences.get(token);
  if (!audience) return unmatched(notFound(shape), UNMATCHED.unknownAudience);
  const body = readJsonBody(request, context.maxBodyBytes);
  if (!body.ok) return errorResponse(shape, body.status, body.message);
  if (!isObject(body.value)) return errorResponse(shape, 400, 'Expected a JSON object.');
  const parsed = AudienceMemberInput.safeParse(body.value);
  if (!parsed.success) return errorResponse(shape, 400, describeIssue(parsed.error));
  let phone = '';
  if (parsed.data.phone !== undefined) {
    const normalized = normalizePhone(parsed.data.phone);
    if (normalized === undefined)
      return errorResponse(shape, 400, `phone: "${parsed.data.phone}" is not a valid phone number`);
    phone = normalized;
  }
  const { member, created } = upsertMember(
    audience,
    {
      first_name: parsed.data.first_name ?? '',
      last_name: parsed.data.last_name ?? '',
      phone,
      email: parsed.data.email ?? '',
      // From the body as read, not as zod returns it: zod's record drops a key named `__proto__`, which
      // JSON allows and the lead webhook keeps (an own property, never the prototype).
      custom_fields: ownCopy((body.value as { custom_fields?: Record<string, unknown> }).custom_fields),
    },
    context.store.newId(),
    context.clock.now().toISOString(),
  );
  return created
    ? { response: json(201, member), outcome: 'member_created' }
    : { response: json(200, member), outcome: 'member_existing' };
};

/** The custom fields as own properties of a fresh object (a `__proto__` key included), or `{}`. */
function ownCopy(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  return fields === undefined ? {} : Object.fromEntries(Object.entries(fields));
}
