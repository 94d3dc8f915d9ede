import type { AudienceMember, AudienceMemberStatus } from '@company-data/contract';

/** An outbound-campaign audience with its webhook token and members. */
export interface Audience {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  /** The secret webhook token (uuid). */
  readonly token: string;
  /** Creation time, epoch ms. */
  readonly createdAt: number;
  /** Members, in the order they were added. */
  readonly members: AudienceMember[];
  /** Members by E.164 phone. */
  readonly byPhone: Map<string, AudienceMember>;
  /** Members by lower-case e-mail. */
  readonly byEmail: Map<string, AudienceMember>;
}

/** A validated, normalised request to add a member. */
export interface MemberCandidate {
  /** First name ('' when not given). */
  first_name: string;
  /** Last name ('' when not given). */
  last_name: string;
  /** E.164 phone, or '' when not given. */
  phone: string;
  /** E-mail as given, or '' when not given. */
  email: string;
  /** Free key-value pairs. */
  custom_fields: Record<string, unknown>;
  /** Initial status (fixtures may load opted-out members). */
  status?: AudienceMemberStatus;
}

/**
 * Creates an empty audience.
 *
 * @returns the audience.
 */
export function createAudience(
  audience: Pick<Audience, 'id' | 'companyId' | 'name' | 'token' | 'createdAt'>,
): Audience {
  return { ...audience, members: [], byPhone: new Map(), byEmail: new Map() };
}

/**
 * The key two members' e-mails are compared under: the same address in any letter case is one member.
 *
 * @param email - an e-mail address.
 */
export function emailKey(email: string): string {
  return email.toLowerCase();
}

/**
 * The existing member with the candidate's phone or e-mail, if any. Phone wins over e-mail.
 */
function findMember(audience: Audience, candidate: Pick<MemberCandidate, 'phone' | 'email'>) {
  return (
    (candidate.phone ? audience.byPhone.get(candidate.phone) : undefined) ??
    (candidate.email ? audience.byEmail.get(emailKey(candidate.email)) : undefined)
  );
}

/**
 * Returns the existing member with the same phone or e-mail, or adds a new one. Synchronous on
 * purpose: the look-up and the insert cannot interleave with another request, so concurrent
 * identical requests produce one member.
 *
 * @returns the member and whether it was created.
 */
export function upsertMember(
  audience: Audience,
  candidate: MemberCandidate,
  id: string,
  createdAt: string,
): { member: AudienceMember; created: boolean } {
  const existing = findMember(audience, candidate);
  if (existing) return { member: existing, created: false };
  const member: AudienceMember = {
    id,
    created_at: createdAt,
    first_name: candidate.first_name,
    last_name: candidate.last_name,
    phone: candidate.phone,
    email: candidate.email,
    custom_fields: candidate.custom_fields,
    status: candidate.status ?? 'active',
  };
  audience.members.push(member);
  if (member.phone) audience.byPhone.set(member.phone, member);
  if (member.email) audience.byEmail.set(emailKey(member.email), member);
  return { member, created: true };
}
