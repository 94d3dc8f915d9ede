import { ADMIN_PREFIX } from '../http/reserved-paths.js';
import type { MockServer } from '../mock-server.js';
import { OPENAPI_PATH } from '../openapi.js';

/**
 * Everything a client of a running mock needs to reach it, in one object: what `GET /__admin/`
 * answers and what `company-data-mock --json` prints (there with the pid, version and admin token).
 *
 * @example
 * ```ts
 * const headers = { authorization: `Bearer ${server.adminToken}` };
 * const { keys, webhooks }: ServerSummary = await (await fetch(`${server.apiRoot}/__admin/`, { headers })).json();
 * ```
 */
export interface ServerSummary {
  /** `{base_url}`, ending in `/v1`. */
  readonly baseURL: string;
  /** `{api_root}`, without `/v1`. */
  readonly apiRoot: string;
  /** Where the OpenAPI document is served. */
  readonly openapiURL: string;
  /** Where the admin API answers. */
  readonly adminURL: string;
  /** The well-known API keys. */
  readonly keys: MockServer['keys'];
  /** The primary company's well-known webhook tokens. */
  readonly tokens: MockServer['tokens'];
  /** The mock time now (ISO 8601). */
  readonly now: string;
  /** Whether the clock runs with real time or stands still. */
  readonly clock: 'running' | 'frozen';
  /** The activity in force (every field filled in), or false for none. */
  readonly activity: ReturnType<MockServer['activity']>;
  /** Every audience and lead source, live and deleted, with webhook URLs. */
  readonly webhooks: ReturnType<MockServer['webhooks']>;
}

/**
 * Summarises a running mock server.
 *
 * @param server - the server.
 * @returns its addresses, keys, tokens, clock, activity and webhooks.
 */
export function describeServer(
  server: Pick<MockServer, 'baseURL' | 'apiRoot' | 'keys' | 'tokens' | 'clock' | 'webhooks' | 'activity'>,
): ServerSummary {
  return {
    baseURL: server.baseURL,
    apiRoot: server.apiRoot,
    openapiURL: `${server.apiRoot}${OPENAPI_PATH}`,
    adminURL: `${server.apiRoot}${ADMIN_PREFIX}`,
    keys: server.keys,
    tokens: server.tokens,
    now: server.clock.now().toISOString(),
    clock: server.clock.frozen ? 'frozen' : 'running',
    activity: server.activity(),
    webhooks: server.webhooks(),
  };
}
