/**
 * Vitest helpers for the mock server:
 *
 * - matchers: `expect(mock).toHaveReceived(pattern)` and `expect(mock).toHaveReceivedTimes(n, pattern)`,
 *   each failing with the report of `mock.verify` (the closest requests received and how each differs).
 *   Importing this entry extends vitest's `expect` and, for TypeScript, its `Assertion` type;
 * - one mock for a whole run: with `globalSetup: ['@company-data/mock-server/vitest/global-setup']` in the
 *   vitest config, `useMockSession()` gives each test file a session of its own in that one server.
 *
 * vitest is an optional peer dependency (vitest 4): this entry loads it, the rest of the package never does.
 *
 * @module @company-data/mock-server/vitest
 * @group Entry points
 */
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { type MatcherContext, type MatcherResult, mockServerMatchers } from '../inspect/verify/matchers.js';
import type { RequestPattern } from '../inspect/verify/pattern.js';
import type { MockSessionOptions } from '../server/sessions/session-rules.js';
import {
  type AdminRequest,
  createRemoteSession,
  MockAdminError,
  type RemoteMockSession,
  type SessionSummary,
} from './shared-mock/remote-session.js';
import { SHARED_MOCK_KEY, type SharedMockServer } from './shared-mock/shared-server.js';

expect.extend(mockServerMatchers);

export {
  type AdminRequest,
  type MatcherContext,
  type MatcherResult,
  MockAdminError,
  mockServerMatchers,
  type RemoteMockSession,
  type SessionSummary,
  SHARED_MOCK_KEY,
  type SharedMockServer,
};

/** What to write when the global setup is missing. */
const NO_SHARED_MOCK =
  "No mock server was provided to this test file: add globalSetup: ['@company-data/mock-server/vitest/global-setup'] to the test options of your vitest config, or pass the server to openMockSession.";

/**
 * Creates a session of the mock server the whole vitest run shares, for the calling test file or test:
 * its own data, keys, tokens, clock, quota, faults, latency, activity and journals. Without hooks: end it
 * yourself (`session.end()`); {@link useMockSession} does both in `beforeAll` and `afterAll`.
 *
 * @param options - the session's seed, sizes or fixture, clock, quota, latency, fault rates, activity and
 * journal limit, as `server.sessions.create` takes them (a route's `RegExp` path without flags).
 * @param server - the mock to make it in (default: the one the global setup provided, `inject('companyDataMock')`).
 * @returns the session, ready.
 * @throws Error when no server is given and the global setup provided none; MockAdminError for options the
 * mock refuses (400) or when its sessions are full (409).
 * @example
 * ```ts
 * import { openMockSession } from '@company-data/mock-server/vitest';
 * import { it } from 'vitest';
 *
 * it('sees a call excused late', async () => {
 *   const session = await openMockSession({ clock: 'frozen' });
 *   try {
 *     await session.admin('records/calls', { body: { is_excused: true } });
 *   } finally {
 *     await session.end();
 *   }
 * });
 * ```
 */
export async function openMockSession(
  options: MockSessionOptions = {},
  server: SharedMockServer | undefined = inject(SHARED_MOCK_KEY),
): Promise<RemoteMockSession> {
  if (server === undefined) throw new Error(NO_SHARED_MOCK);
  return createRemoteSession(server, options);
}

/**
 * Gives the calling test file (or `describe` block) a session of its own in the mock server the whole vitest
 * run shares: created in `beforeAll` over HTTP, ended in `afterAll`. Test files running at once in other
 * workers each get theirs, so none sees another's record changes, clock, faults, quota windows or journal.
 * Needs `globalSetup: ['@company-data/mock-server/vitest/global-setup']` in the vitest config.
 *
 * The object is returned at once and filled in by `beforeAll`: read it inside tests and hooks, not while the
 * file is collected.
 *
 * @param options - the session's seed, sizes or fixture, clock, quota, latency, fault rates, activity and
 * journal limit, as `server.sessions.create` takes them.
 * @returns the session (its keys, `baseURL`, `adminToken`, `admin(path, request)`, `verify(pattern)`, `end()`).
 * @throws Error, from its `beforeAll`, when the global setup provided no server; MockAdminError for options
 * the mock refuses; Error when read before `beforeAll` made it.
 * @example
 * ```ts
 * import { useMockSession } from '@company-data/mock-server/vitest';
 * import { CompanyData } from '@company-data/sdk';
 * import { expect, it } from 'vitest';
 *
 * const session = useMockSession({ clock: 'frozen' });
 *
 * it('lists calls with the session key', async () => {
 *   const client = new CompanyData({ apiKey: session.keys.valid, baseURL: session.baseURL });
 *   expect((await client.calls.list()).pagination.count).toBe(240);
 *   await session.verify({ method: 'GET', path: '/v1/calls/', times: 1 });
 * });
 * ```
 */
export function useMockSession(options: MockSessionOptions = {}): RemoteMockSession {
  const handle = new SessionHandle();
  beforeAll(async () => {
    handle.session = await openMockSession(options);
  });
  afterAll(async () => {
    await handle.session?.end();
  });
  return handle;
}

/** The session of {@link useMockSession}, which its `beforeAll` fills in. */
class SessionHandle implements RemoteMockSession {
  session: RemoteMockSession | undefined;

  get #made(): RemoteMockSession {
    if (this.session === undefined)
      throw new Error(
        'useMockSession(): the session is made in beforeAll; read it inside a test or a hook, not while the file is collected.',
      );
    return this.session;
  }

  get id() {
    return this.#made.id;
  }
  get baseURL() {
    return this.#made.baseURL;
  }
  get apiRoot() {
    return this.#made.apiRoot;
  }
  get adminURL() {
    return this.#made.adminURL;
  }
  get adminToken() {
    return this.#made.adminToken;
  }
  get keys() {
    return this.#made.keys;
  }
  get tokens() {
    return this.#made.tokens;
  }
  get webhooks() {
    return this.#made.webhooks;
  }
  get created() {
    return this.#made.created;
  }
  admin<T = unknown>(path: string, request?: AdminRequest): Promise<T> {
    return this.#made.admin<T>(path, request);
  }
  verify(pattern?: RequestPattern) {
    return this.#made.verify(pattern);
  }
  end() {
    return this.#made.end();
  }
}

/**
 * The mock server's matchers, as vitest's `Assertion` gains them (declaration merging on vitest's
 * `Matchers`).
 *
 * @example
 * ```ts
 * import '@company-data/mock-server/vitest';
 * import { expect } from 'vitest';
 *
 * expect(mock).toHaveReceived({ method: 'GET', path: '/v1/calls/', query: { page: 2 } });
 * expect(mock).toHaveReceivedTimes(1, { method: 'POST', path: '/v1/outbound-campaigns/webhook/{token}/' });
 * expect(mock).not.toHaveReceived({ method: 'DELETE' });
 * ```
 */
export interface MockServerMatchers<R = unknown> {
  /**
   * Passes when the mock received requests matching the pattern, as many as its `times` says (at least
   * one by default); fails with the closest requests received and how each differs.
   *
   * @param pattern - which requests (see {@link RequestPattern}); none: any request.
   */
  toHaveReceived(pattern?: RequestPattern): R;
  /**
   * Passes when the mock received exactly `times` requests matching the pattern.
   *
   * @param times - how many, exactly (0: none).
   * @param pattern - which requests, without `times`.
   */
  toHaveReceivedTimes(times: number, pattern?: RequestPattern): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Matchers<T = any>; a merged declaration must match it.
  interface Matchers<T = any> extends MockServerMatchers<T> {}
}
