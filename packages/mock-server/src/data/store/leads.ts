import { LEAD_DEDUP_WINDOW_MS } from '@company-data/contract';

/** A lead source with its webhook token; once deleted it answers 404. */
export interface LeadSource {
  /** Lead source id. */
  readonly id: string;
  /** Owning company. */
  readonly companyId: string;
  /** Display name. */
  readonly name: string;
  /** The secret webhook token (uuid). */
  readonly token: string;
  /** When the lead source was (or will be) deleted, epoch ms; null while it lives. */
  deletedAt: number | null;
}

/**
 * Whether a lead source is deleted at a time: from its deletion on, its webhook answers 404.
 *
 * @param source - the lead source.
 * @param nowMs - the mock time.
 */
export function isDeleted(source: LeadSource, nowMs: number): boolean {
  return source.deletedAt !== null && source.deletedAt <= nowMs;
}

/**
 * One lead as received by the lead webhook.
 *
 * @example
 * ```ts
 * const [conversation] = server.conversations();
 * console.log(conversation?.leads[0]?.body.customer_name);
 * ```
 */
export interface Lead {
  /** Lead id. */
  readonly id: string;
  /** The lead source it was posted to. */
  readonly leadSourceId: string;
  /** Receipt time (ISO 8601, mock clock). */
  readonly receivedAt: string;
  /** The phone number as sent. */
  readonly phoneNumber: string;
  /** E.164 phone, or null when processing could not normalise it. */
  readonly phone: string | null;
  /** The request body as sent. */
  readonly body: Readonly<Record<string, unknown>>;
  /** `queued` for a processed lead, `failed` for one whose processing failed (still answered 200). */
  readonly status: 'queued' | 'failed';
  /** Why processing failed. */
  readonly error: string | null;
  /** True when the lead joined an existing conversation within the deduplication window. */
  readonly deduplicated: boolean;
  /** The conversation it belongs to (null for a failed lead). */
  readonly conversationId: string | null;
}

/**
 * The SMS conversation the messaging agent holds with one phone number, with the leads that
 * started or joined it.
 *
 * @example
 * ```ts
 * expect(server.conversations()).toHaveLength(1);
 * ```
 */
export interface Conversation {
  /** Conversation id. */
  readonly id: string;
  /** Owning company. */
  readonly companyId: string;
  /** The lead source of the first lead. */
  readonly leadSourceId: string;
  /** E.164 phone. */
  readonly phone: string;
  /** When the first lead arrived (ISO 8601). */
  readonly createdAt: string;
  /** When the latest lead arrived (ISO 8601). */
  lastLeadAt: string;
  /** Leads of this conversation, oldest first. */
  readonly leads: Lead[];
}

/** The leads and conversations of every company, with the 15-minute deduplication index. */
export class LeadBook {
  /** Conversations, oldest first. */
  readonly conversations: Conversation[] = [];
  /** Every lead received, in arrival order, including failed ones. */
  readonly all: Lead[] = [];
  readonly #latest = new Map<string, { conversation: Conversation; atMs: number }>();

  /**
   * Replaces the leads and conversations with saved ones; the deduplication window of each phone runs from
   * the latest lead of its latest conversation, as it did when they were saved.
   *
   * @param leads - every lead, in arrival order.
   * @param conversations - the conversations, oldest first, each holding its leads.
   */
  restore(leads: readonly Lead[], conversations: readonly Conversation[]): void {
    this.all.length = 0;
    for (const lead of leads) this.all.push(lead);
    this.conversations.length = 0;
    this.#latest.clear();
    for (const conversation of conversations) {
      this.conversations.push(conversation);
      const atMs = Date.parse(conversation.lastLeadAt);
      this.#latest.set(`${conversation.companyId} ${conversation.phone}`, { conversation, atMs });
    }
  }

  /** Records a lead whose processing failed (it joins no conversation). */
  fail(lead: Lead): void {
    this.all.push(lead);
  }

  /**
   * Files a processed lead: joins the phone's conversation when its latest lead is at most
   * 15 minutes old, otherwise starts a new conversation.
   *
   * @returns whether the lead was deduplicated into an existing conversation.
   */
  file(
    source: LeadSource,
    phone: string,
    nowMs: number,
    newId: () => string,
    makeLead: (conversationId: string, deduplicated: boolean) => Lead,
  ): Lead {
    const key = `${source.companyId} ${phone}`;
    const latest = this.#latest.get(key);
    if (latest && nowMs - latest.atMs <= LEAD_DEDUP_WINDOW_MS) {
      const lead = makeLead(latest.conversation.id, true);
      this.all.push(lead);
      latest.conversation.leads.push(lead);
      latest.conversation.lastLeadAt = lead.receivedAt;
      latest.atMs = nowMs;
      return lead;
    }
    const id = newId();
    const lead = makeLead(id, false);
    this.all.push(lead);
    const conversation: Conversation = {
      id,
      companyId: source.companyId,
      leadSourceId: source.id,
      phone,
      createdAt: lead.receivedAt,
      lastLeadAt: lead.receivedAt,
      leads: [lead],
    };
    this.conversations.push(conversation);
    this.#latest.set(key, { conversation, atMs: nowMs });
    return lead;
  }
}
