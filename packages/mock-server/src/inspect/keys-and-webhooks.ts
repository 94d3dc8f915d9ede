import {
  type DataResource,
  type EndpointDefinition,
  endpoints,
  fillPath,
  rootPath,
} from '@company-data/contract';
import { isDeleted } from '../data/store/leads.js';
import type { MockStore } from '../data/store/mock-store.js';
import type { Quota, ThrottleConfig } from '../data/store/quota.js';

/**
 * An API key as a mock server lists it: everything but its value, which it never keeps.
 *
 * @example
 * ```ts
 * const ownQuota = server.apiKeys().filter((key: ApiKeyInfo) => key.quota !== null);
 * ```
 */
export interface ApiKeyInfo {
  /** Key id. */
  readonly id: string;
  /** Id of the company it belongs to. */
  readonly companyId: string;
  /** Name of that company. */
  readonly companyName: string;
  /** Descriptive name (what the journal and the request log show). */
  readonly name: string;
  /** The first characters of the value, to recognise it. */
  readonly prefix: string;
  /** Creation time (ISO 8601). */
  readonly createdAt: string;
  /** Expiry (ISO 8601), or null for a key that never expires. */
  readonly expiresAt: string | null;
  /** Whether it was revoked. */
  readonly revoked: boolean;
  /** The data resources it may read. */
  readonly permissions: readonly DataResource[];
  /** Its own quota (false: never throttled), or null when the server's default quota applies. */
  readonly quota: Quota | false | null;
  /**
   * `quota` in the old names (`{ limit, windowSeconds }`), listed until the next minor release.
   *
   * @deprecated Read `quota`.
   */
  readonly throttle: ThrottleConfig | false | null;
}

/**
 * What audiences and lead sources share: who owns them and the webhook URL that posts to them.
 *
 * @example
 * ```ts
 * const urls = [...server.webhooks().audiences, ...server.webhooks().leadSources].map((hook: WebhookInfo) => hook.url);
 * ```
 */
export interface WebhookInfo {
  /** Audience or lead source id. */
  readonly id: string;
  /** Id of the owning company. */
  readonly companyId: string;
  /** Name of that company. */
  readonly companyName: string;
  /** Display name. */
  readonly name: string;
  /** The secret webhook token. */
  readonly token: string;
  /** The webhook URL, token included. */
  readonly url: string;
}

/**
 * An outbound-campaign audience; its `url` is `{base_url}/outbound-campaigns/webhook/{token}/`.
 *
 * @example
 * ```ts
 * const [first] = server.webhooks().audiences;
 * await fetch(first.url, { method: 'POST', body: JSON.stringify({ email: 'a@example.com' }) });
 * ```
 */
export interface AudienceInfo extends WebhookInfo {
  /** Creation time (ISO 8601). */
  readonly createdAt: string;
}

/**
 * A lead source; its `url` is `{api_root}/messaging-agent/webhook/{token}/`, which answers 404 once deleted.
 *
 * @example
 * ```ts
 * const live = server.webhooks().leadSources.filter((source: LeadSourceInfo) => !source.deleted);
 * ```
 */
export interface LeadSourceInfo extends WebhookInfo {
  /** Whether it is deleted now (its webhook answers 404). */
  readonly deleted: boolean;
  /** When it was, or will be, deleted (ISO 8601); null while it lives. */
  readonly deletedAt: string | null;
}

/**
 * Every audience and lead source of every company, with their webhook URLs.
 *
 * @example
 * ```ts
 * const { audiences, leadSources }: MockWebhooks = server.webhooks();
 * ```
 */
export interface MockWebhooks {
  /** Audiences, the primary company's first. */
  readonly audiences: readonly AudienceInfo[];
  /** Lead sources, live and deleted, the primary company's first. */
  readonly leadSources: readonly LeadSourceInfo[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The keys of a store, oldest first, without their values. */
export function listApiKeys(store: MockStore): ApiKeyInfo[] {
  return store.keys.all().map((key) => ({
    id: key.id,
    companyId: key.companyId,
    companyName: store.company(key.companyId).name,
    name: key.name,
    prefix: key.prefix,
    createdAt: iso(key.createdAt),
    expiresAt: key.expiresAt === null ? null : iso(key.expiresAt),
    revoked: key.revoked,
    permissions: [...key.permissions],
    quota: key.quota ?? null,
    throttle: key.quota
      ? { limit: key.quota.requests, windowSeconds: key.quota.perSeconds }
      : (key.quota ?? null),
  }));
}

/**
 * The audiences and lead sources of a store, with their webhook URLs at a server's addresses.
 *
 * @param apiRoot - the server's API root, which the webhook URLs start with.
 * @param nowMs - the mock time, which says whether a lead source is deleted.
 */
export function listWebhooks(store: MockStore, apiRoot: string, nowMs: number): MockWebhooks {
  const url = (endpoint: EndpointDefinition, token: string) =>
    `${apiRoot}${fillPath(rootPath(endpoint), { webhook_token: token })}`;
  const rank = (companyId: string) => store.companies.findIndex((company) => company.id === companyId);
  const byCompany = <T extends { companyId: string }>(items: Iterable<T>) =>
    [...items].sort((a, b) => rank(a.companyId) - rank(b.companyId));
  const companyName = (companyId: string) => store.company(companyId).name;
  return {
    audiences: byCompany(store.audiences.values()).map((audience) => ({
      id: audience.id,
      companyId: audience.companyId,
      companyName: companyName(audience.companyId),
      name: audience.name,
      token: audience.token,
      url: url(endpoints.addAudienceMember, audience.token),
      createdAt: iso(audience.createdAt),
    })),
    leadSources: byCompany(store.leadSources.values()).map((source) => ({
      id: source.id,
      companyId: source.companyId,
      companyName: companyName(source.companyId),
      name: source.name,
      token: source.token,
      url: url(endpoints.submitLead, source.token),
      deleted: isDeleted(source, nowMs),
      deletedAt: source.deletedAt === null ? null : iso(source.deletedAt),
    })),
  };
}
