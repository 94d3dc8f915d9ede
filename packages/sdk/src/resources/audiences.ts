import type { AudienceMember, AudienceMemberInput } from '@company-data/contract';
import type { WebhookOptions } from '../core/options.js';
import type { APIPromise } from '../request/api-promise.js';
import type { RequestCore } from '../request/request-core.js';
import { webhookOperation } from './operations.js';

/**
 * Outbound-campaign audiences: `client.audiences`. Needs no API key: the webhook token authenticates.
 *
 * @example
 * ```ts
 * await client.audiences.addMember(process.env.AUDIENCE_WEBHOOK_URL!, { phone: '(415) 555-0123' });
 * ```
 */
export class Audiences {
  readonly #core: RequestCore;

  /** @internal */
  constructor(core: RequestCore) {
    this.#core = core;
  }

  /**
   * Adds a contact to an audience through its webhook. Idempotent: when a member with the same phone (any
   * format) or email (any case) exists, the server returns that member instead of creating one (status
   * 200 rather than 201, visible through `.withResponse()`). Retrying is therefore safe, and the SDK
   * retries failed attempts like any other call.
   *
   * @param tokenOrUrl - the audience's webhook token (a uuid) or the full webhook URL copied from the
   * audience detail view of the web app.
   * @param member - at least one of `phone` or `email`; `first_name`, `last_name`, `custom_fields` optional.
   * @param options - request options, plus `body` for fields the SDK does not know yet.
   * @returns the new or existing member (phone in E.164).
   * @throws {@link ValidationError} when neither phone nor email is given, the token is not a uuid, or the
   * URL is not an audience webhook (nothing is sent); {@link NotFoundError} for an unknown token;
   * {@link BadRequestError} when the server refuses the body.
   * @example
   * ```ts
   * const { data: member, response } = await client.audiences
   *   .addMember(token, { first_name: 'Ada', phone: '415-555-0123', custom_fields: { plan: 'gold' } })
   *   .withResponse();
   * console.log(member.id, response.status === 201 ? 'added' : 'already there');
   * ```
   */
  addMember(
    tokenOrUrl: string,
    member: AudienceMemberInput,
    options?: WebhookOptions,
  ): APIPromise<AudienceMember> {
    return webhookOperation(this.#core, 'addAudienceMember', tokenOrUrl, member, options);
  }
}
