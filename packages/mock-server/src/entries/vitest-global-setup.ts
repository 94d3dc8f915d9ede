/**
 * A vitest `globalSetup` that starts one mock server for the whole test run, on a free port of loopback,
 * and provides where it answers and its admin token to every test file (`inject('companyDataMock')`), where
 * `useMockSession()` of `@company-data/mock-server/vitest` gives each file a session of its own. It closes
 * the server when the run ends. One line in the vitest config:
 *
 * ```ts
 * export default defineConfig({ test: { globalSetup: ['@company-data/mock-server/vitest/global-setup'] } });
 * ```
 *
 * It runs in vitest's main process and loads nothing of vitest itself.
 *
 * @module @company-data/mock-server/vitest/global-setup
 * @group Entry points
 */
// The package's own main entry, by name: the server's code is loaded once, shared with the test files'
// imports of it, rather than bundled into this entry a second time (the build keeps the name external).
import { type StartMockServerOptions, startMockServer } from '@company-data/mock-server';
import type { TestProject } from 'vitest/node';
import { ADMIN_PREFIX } from '../serve/http/reserved-paths.js';
import { SHARED_MOCK_KEY, type SharedMockServer } from './shared-mock/shared-server.js';

export { SHARED_MOCK_KEY, type SharedMockServer };

/**
 * Starts a mock server for the run and provides it to the test files: the one-line setup's work, for a
 * global setup of your own that gives the server options (more sessions, a longer idle time, a seed for the
 * default session).
 *
 * @param project - what vitest hands a global setup (its `provide` is all this uses).
 * @param options - the server's options (default: a free port on 127.0.0.1).
 * @returns the teardown, which closes the server; vitest calls it when the run ends.
 * @throws Error when the server cannot start (a busy port given, an option out of bounds).
 * @example
 * ```ts
 * import { provideMockServer } from '@company-data/mock-server/vitest/global-setup';
 * import type { TestProject } from 'vitest/node';
 *
 * // The default export of a file of yours, e.g. vitest.global-setup.ts, named in the config instead:
 * // globalSetup: ['./vitest.global-setup.ts']
 * const setup = (project: TestProject) => provideMockServer(project, { maxSessions: 50, sessionIdleMs: 5 * 60_000 });
 * ```
 */
export async function provideMockServer(
  project: Pick<TestProject, 'provide'>,
  options: StartMockServerOptions = {},
): Promise<() => Promise<void>> {
  const server = await startMockServer({ port: 0, ...options });
  const shared: SharedMockServer = {
    apiRoot: server.apiRoot,
    baseURL: server.baseURL,
    adminURL: `${server.apiRoot}${ADMIN_PREFIX}`,
    adminToken: server.adminToken,
  };
  project.provide(SHARED_MOCK_KEY, shared);
  return () => server.close();
}

/**
 * The one-line setup: vitest calls it once before the run. It starts a mock server on a free port and
 * provides it to the test files; the function it returns closes the server after the run.
 *
 * @param project - what vitest hands a global setup.
 * @returns the teardown.
 * @throws Error when the server cannot start.
 * @example
 * ```ts
 * import { defineConfig } from 'vitest/config';
 *
 * // The default export of vitest.config.ts:
 * const config = defineConfig({
 *   test: { globalSetup: ['@company-data/mock-server/vitest/global-setup'] },
 * });
 * ```
 */
export default function setup(project: Pick<TestProject, 'provide'>): Promise<() => Promise<void>> {
  return provideMockServer(project);
}
