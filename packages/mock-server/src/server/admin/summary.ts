import type { JournalStats } from '../../data/journal/bounded-journal.js';
import type { RecordCounts } from '../../inspect/record-counts.js';
import { ADMIN_PREFIX } from '../../serve/http/reserved-paths.js';
import { OPENAPI_PATH } from '../../serve/openapi.js';
import type { MockServer } from '../mock-server.js';
import { DEFAULT_SESSION_ID } from '../sessions/session-rules.js';
import { UI_PATH } from './ui/ui-path.js';

/**
 * The memory of the process the mock runs in, in bytes (Node's `process.memoryUsage()`): a long run watches
 * `rss` and `heapUsed` grow, or not.
 *
 * @example
 * ```ts
 * const headers = { authorization: `Bearer ${server.adminToken}` };
 * const { memory }: ServerSummary = await (await fetch(`${server.apiRoot}/__admin/`, { headers })).json();
 * console.log(`${Math.round(memory.rss / 2 ** 20)} MB`);
 * ```
 */
export interface MemoryUsage {
  /** Resident set size: what the process holds in RAM. */
  readonly rss: number;
  /** The JavaScript heap in use. */
  readonly heapUsed: number;
  /** The JavaScript heap reserved. */
  readonly heapTotal: number;
  /** Memory of C++ objects bound to JavaScript ones. */
  readonly external: number;
  /** Memory of ArrayBuffers and Buffers (counted in `external` too). */
  readonly arrayBuffers: number;
}

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
  /**
   * The world this describes: `default` for the server's own, `s1`, `s2`, … for a session (what
   * `GET /__admin/` answers with that session's admin token).
   */
  readonly id: string;
  /** `{base_url}`, ending in `/v1`. */
  readonly baseURL: string;
  /** `{api_root}`, without `/v1`. */
  readonly apiRoot: string;
  /** Where the OpenAPI document is served. */
  readonly openapiURL: string;
  /** Where the admin API answers. */
  readonly adminURL: string;
  /** Where the watch page is served (`/__admin/ui`): open it in a browser, and give it the admin token. */
  readonly uiURL: string;
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
  /** The records each company holds now, the primary one first. */
  readonly records: readonly RecordCounts[];
  /** What each journal holds, keeps at most and dropped. */
  readonly journals: { readonly requests: JournalStats; readonly changes: JournalStats };
  /** The process's memory now, in bytes. */
  readonly memory: MemoryUsage;
}

/**
 * Summarises a running mock server, or one of its sessions.
 *
 * @param server - the server, or a session.
 * @param id - the session's id; the server's own world is `default`.
 * @returns its id, addresses (the watch page's too), keys, tokens, clock, activity, webhooks, records, journals and memory.
 */
export function describeServer(
  server: Pick<
    MockServer,
    | 'baseURL'
    | 'apiRoot'
    | 'keys'
    | 'tokens'
    | 'clock'
    | 'webhooks'
    | 'activity'
    | 'recordCounts'
    | 'journals'
  >,
  id: string = DEFAULT_SESSION_ID,
): ServerSummary {
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return {
    id,
    baseURL: server.baseURL,
    apiRoot: server.apiRoot,
    openapiURL: `${server.apiRoot}${OPENAPI_PATH}`,
    adminURL: `${server.apiRoot}${ADMIN_PREFIX}`,
    uiURL: `${server.apiRoot}${UI_PATH}`,
    keys: server.keys,
    tokens: server.tokens,
    now: server.clock.now().toISOString(),
    clock: server.clock.frozen ? 'frozen' : 'running',
    activity: server.activity(),
    webhooks: server.webhooks(),
    records: server.recordCounts(),
    journals: { requests: server.journals.requests.stats(), changes: server.journals.changes.stats() },
    memory: { rss, heapUsed, heapTotal, external, arrayBuffers },
  };
}
