import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Every test file shares its worker's modules (`isolate: false`), but those below: each would otherwise load
 * the SDK, the mock server and the contract again (most of a small file's cost; for the files that start
 * processes or wait in real time, 21 CPU-seconds of test:unit). A file leaves no process-wide state behind:
 * a stubbed environment is unstubbed, fake timers are restored, servers, clients and child processes closed.
 * A file that changes something for the whole process, which a file after it in the same worker would meet,
 * is listed in {@link OWN_MODULES} and runs with modules of its own, in a process of its own.
 */
const ALL = [
  'packages/*/test/**/*.test.ts',
  'test/**/*.test.ts',
  'examples/**/*.test.ts',
  'scripts/**/*.test.ts',
];
const OWN_MODULES = [
  // Module-wide state: the deprecation warnings (once per process), the page cache's limits, the clock's timers.
  'packages/mock-server/test/server/quota-old-names.test.ts',
  'packages/mock-server/test/serve/resolvers/page-cache.test.ts',
  'packages/mock-server/test/data/clock.test.ts',
  // Importing the vitest matchers' entry extends expect for the whole worker.
  'packages/mock-server/test/inspect/verify/matchers.test.ts',
  'packages/mock-server/test/entries/vitest/shared-mock.test.ts',
  // OpenTelemetry's global context manager, the SDK's telemetry sink (on globalThis) and undici's
  // instrumentation (subscribed to its diagnostics channels) are process-wide.
  'packages/sdk/test/core/telemetry/opentelemetry*.test.ts',
  'packages/sdk/test/core/telemetry/open-telemetry-sink.test.ts',
  'packages/sdk/test/core/telemetry/privacy.test.ts',
  // msw patches the global fetch while it listens.
  'packages/mock-server/test/entries/msw.test.ts',
  'packages/mock-server/test/serve/adapters/dispatcher.test.ts',
  'packages/mock-server/test/serve/adapters/listener.test.ts',
  'packages/sdk/test/request/fetch-option.test.ts',
];

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of the workspace packages, not their builds.
    conditions: ['@company-data/source'],
  },
  ssr: { resolve: { conditions: ['@company-data/source'] } },
  test: {
    // A bound for a test that hangs, not a target: the tests that start the commands as child processes
    // (each start through tsx takes seconds on a busy machine) ran 16 to 20 s beside the rest of npm test
    // with one more process taking a core, and one passed the 20 s this was.
    testTimeout: 60_000,
    // The same for the hooks (vitest's default 10 s), which start mock servers, PostgreSQL and Redis.
    hookTimeout: 60_000,
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine, where the
    // slowest files mostly wait (on child processes, a Redis fleet, real time). Two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared modules',
          include: ALL,
          exclude: [...configDefaults.exclude, ...OWN_MODULES],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own modules', include: OWN_MODULES } },
    ],
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts'],
      // ajv's generated checks are held equal to their schemas by property tests (contract and SDK), not by
      // their lines: most of their branches are refusals of shapes no test needs to write out one by one.
      exclude: ['packages/*/src/**/*.generated.ts'],
      // A summary only: the browsable report took npm test 12 CPU-seconds more, on every run
      // (`npx vitest run --coverage --coverage.reporter=html` writes it to coverage/).
      reporter: ['text-summary'],
      thresholds: {
        'packages/contract/src/**': { lines: 90 },
        'packages/sdk/src/**': { lines: 90 },
        'packages/mock-server/src/**': { lines: 90 },
        'packages/cli/src/**': { lines: 90 },
      },
    },
  },
});
