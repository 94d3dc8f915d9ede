import { z } from 'zod';
import { ERROR_DETAILS } from '../error-details.js';
import { openObject } from './open-object.js';
import { CustomFieldsMap, DateTime, E164Phone, Uuid } from './primitives.js';

/** The audience member states (closed). */
export const AUDIENCE_MEMBER_STATUSES = ['active', 'opted_out', 'do_not_contact'] as const;

/**
 * An audience member's state. Closed: the spec lists exactly these three.
 *
 * @example
 * ```ts
 * AudienceMemberStatus.parse('opted_out');
 * ```
 */
export const AudienceMemberStatus = z.enum(AUDIENCE_MEMBER_STATUSES);
/** An audience member's state. */
export type AudienceMemberStatus = z.infer<typeof AudienceMemberStatus>;

/**
 * The audience member returned by the add-member webhook.
 *
 * @example
 * ```ts
 * const member = AudienceMember.parse(await response.json());
 * console.log(member.phone); // E.164, e.g. '+14155550123' ('' for a member added by e-mail only)
 * ```
 */
export const AudienceMember = openObject({
  id: Uuid,
  created_at: DateTime,
  first_name: z.string(),
  last_name: z.string(),
  // A member added with only an e-mail has no phone, and vice versa: the missing one is ''.
  phone: z.union([E164Phone, z.literal('')]),
  email: z.union([z.email(), z.literal('')]),
  custom_fields: CustomFieldsMap,
  status: AudienceMemberStatus,
});
/** The audience member returned by the add-member webhook. */
export interface AudienceMember extends z.output<typeof AudienceMember> {}

/**
 * The body of the add-audience-member webhook. Every field is optional, but at least one of
 * `phone` or `email` is required. `phone` may be in any common format (the server normalises
 * it to E.164).
 *
 * @example
 * ```ts
 * AudienceMemberInput.parse({ first_name: 'Ada', phone: '(415) 555-0123' });
 * ```
 */
export const AudienceMemberInput = z
  .looseObject({
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    // The pattern says in JSON Schema what trim().min(1) says here: something besides white space.
    phone: z
      .string()
      .regex(/\S/, 'phone must not be empty')
      .trim()
      .min(1, 'phone must not be empty')
      .optional(),
    email: z.email().optional(),
    custom_fields: CustomFieldsMap.optional(),
  })
  .refine((body) => body.phone !== undefined || body.email !== undefined, {
    message: ERROR_DETAILS.audienceContactRequired,
    path: ['phone'],
  })
  .meta({ anyOf: [{ required: ['phone'] }, { required: ['email'] }] });
/** The body of the add-audience-member webhook. */
export interface AudienceMemberInput extends z.input<typeof AudienceMemberInput> {}

/**
 * The body of the submit-lead webhook. Only `phone_number` is required.
 *
 * @example
 * ```ts
 * LeadInput.parse({ phone_number: '415-555-0123', customer_name: 'Ada Lovelace', zip: '94103' });
 * ```
 */
export const LeadInput = openObject({
  phone_number: z
    .string({ error: ERROR_DETAILS.leadPhoneRequired })
    .regex(/\S/, ERROR_DETAILS.leadPhoneRequired)
    .trim()
    .min(1, ERROR_DETAILS.leadPhoneRequired),
  customer_name: z.string().optional(),
  email: z.string().optional(),
  address: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
  notes: z.string().optional(),
  service_type: z.string().optional(),
  page_url: z.string().optional(),
  utm_source: z.string().optional(),
  utm_medium: z.string().optional(),
  utm_campaign: z.string().optional(),
  custom_fields: CustomFieldsMap.optional(),
});
/** The body of the submit-lead webhook. */
export interface LeadInput extends z.input<typeof LeadInput> {}

/**
 * The submit-lead webhook's success body.
 *
 * @example
 * ```ts
 * LeadReceived.parse({ received: true });
 * ```
 */
export const LeadReceived = openObject({ received: z.literal(true) });
/** The submit-lead webhook's success body. */
export interface LeadReceived extends z.output<typeof LeadReceived> {}
