import type { LeadInput, LeadReceived } from '@company-data/contract';
import type { WebhookOptions } from '../core/options.js';
import type { APIPromise } from '../request/api-promise.js';
import type { RequestCore } from '../request/request-core.js';
import { webhookOperation } from './operations.js';

/**
 * Leads from custom lead sources: `client.leads`. Needs no API key: the webhook token authenticates.
 *
 * @example
 * ```ts
 * await client.leads.submit(process.env.LEAD_WEBHOOK_URL!, { phone_number: '415-555-0123' });
 * ```
 */
export class Leads {
  readonly #core: RequestCore;

  /** @internal */
  constructor(core: RequestCore) {
    this.#core = core;
  }

  /**
   * Submits a lead; an automated messaging agent then contacts it by SMS. The server deduplicates per
   * phone number for 15 minutes (a repeat joins the existing conversation), so retrying is safe, and the
   * SDK retries failed attempts like any other call. Keep the token private: whoever holds it can submit
   * leads. The lead webhook lives outside `/v1`, under the client's `apiRoot`.
   *
   * @param tokenOrUrl - the lead source's webhook token (a uuid) or the full webhook URL copied from the
   * web app.
   * @param lead - `phone_number` (required) and any of the optional contact and campaign fields.
   * @param options - request options, plus `body` for fields the SDK does not know yet.
   * @returns `{ received: true }`.
   * @throws {@link ValidationError} when `phone_number` is missing, the token is not a uuid, or the URL is
   * not a lead webhook (nothing is sent); {@link NotFoundError} for an unknown or deleted lead source;
   * {@link BadRequestError} when the server refuses the body.
   * @example
   * ```ts
   * await client.leads.submit(token, {
   *   phone_number: '+14155550123',
   *   customer_name: 'Ada Lovelace',
   *   service_type: 'roof repair',
   *   utm_source: 'google',
   * });
   * ```
   */
  submit(tokenOrUrl: string, lead: LeadInput, options?: WebhookOptions): APIPromise<LeadReceived> {
    return webhookOperation(this.#core, 'submitLead', tokenOrUrl, lead, options);
  }
}
