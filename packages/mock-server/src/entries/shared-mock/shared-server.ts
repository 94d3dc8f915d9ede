/**
 * What a test file needs to reach the one mock server a whole test run shares: where it answers and the
 * server's admin token, which creates sessions. The global setup of `@company-data/mock-server/vitest/global-setup`
 * provides it to every test file (vitest's `provide`, as {@link SHARED_MOCK_KEY}); `useMockSession` reads it.
 * Plain strings, so it crosses from vitest's main process to its workers.
 *
 * @example
 * ```ts
 * import { inject } from 'vitest';
 *
 * const shared: SharedMockServer = inject('companyDataMock');
 * const headers = { authorization: `Bearer ${shared.adminToken}` };
 * const { data } = await (await fetch(`${shared.adminURL}sessions`, { headers })).json();
 * ```
 */
export interface SharedMockServer {
  /** `{api_root}`: the origin, without `/v1`. */
  readonly apiRoot: string;
  /** `{base_url}`: the origin followed by `/v1`; every session answers here, each reached by its own keys. */
  readonly baseURL: string;
  /** Where the admin API answers (`{api_root}/__admin/`), for the server and every session alike. */
  readonly adminURL: string;
  /** The server's admin token: it creates, lists and ends sessions, and controls the default session. */
  readonly adminToken: string;
}

/**
 * The name under which the global setup provides the {@link SharedMockServer} (`inject('companyDataMock')`).
 *
 * @example
 * ```ts
 * import { inject } from 'vitest';
 *
 * const { baseURL } = inject(SHARED_MOCK_KEY);
 * ```
 */
export const SHARED_MOCK_KEY = 'companyDataMock';

declare module 'vitest' {
  /** What `@company-data/mock-server/vitest/global-setup` provides to the test files. */
  export interface ProvidedContext {
    /** The mock server the whole run shares (see {@link SharedMockServer}). */
    companyDataMock: SharedMockServer;
  }
}
