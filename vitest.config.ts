import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that share their worker's modules (`isolate: false`): they run in-process against the sources,
 * and each would otherwise load the SDK, the mock server and the contract again (most of a small file's
 * cost). They leave no process-wide state behind: a stubbed environment is unstubbed, fake timers are
 * restored, servers and clients closed. A file that relies on a fresh module or a clean process (a
 * once-per-process warning, a module-wide setting, msw's patched globals, a child process, real time) is
 * listed in {@link OWN_MODULES} and runs with modules of its own, as the examples' and scripts' tests do.
 */
const SHARED_MODULES = ['contract', 'mock-server', 'sdk', 'cli'].map(
  (pkg) => `packages/${pkg}/test/**/*.test.ts`,
);
const OWN_MODULES = [
  'packages/*/test/**/*.realtime.test.ts',
  // They start processes: the mock's or the CLI's command, the generators, a build.
  'packages/cli/test/bin-not-built.test.ts',
  'packages/cli/test/snapshot-interrupt.test.ts',
  'packages/contract/test/generated-files.test.ts',
  'packages/mock-server/test/activity/determinism-over-http.test.ts',
  'packages/mock-server/test/bin-before-install.test.ts',
  'packages/mock-server/test/cli-process.test.ts',
  'packages/mock-server/test/soak.test.ts',
  'packages/mock-server/test/verify/over-http.test.ts',
  'packages/sdk/test/build/class-names.test.ts',
  'packages/sdk/test/integration/sync-cli.test.ts',
  // Module-wide state: the deprecation warnings (once per process), the page cache's limits, the clock's timers.
  'packages/mock-server/test/quota-old-names.test.ts',
  'packages/mock-server/test/page-cache.test.ts',
  'packages/mock-server/test/clock.test.ts',
  // Importing the vitest matchers' entry extends expect for the whole worker.
  'packages/mock-server/test/verify/matchers.test.ts',
  'packages/mock-server/test/vitest/shared-mock.test.ts',
  // OpenTelemetry's global context manager, the SDK's telemetry sink (on globalThis) and undici's
  // instrumentation (subscribed to its diagnostics channels) are process-wide.
  'packages/sdk/test/integration/opentelemetry*.test.ts',
  'packages/sdk/test/unit/open-telemetry-sink.test.ts',
  // msw patches the global fetch while it listens.
  'packages/mock-server/test/msw.test.ts',
  'packages/mock-server/test/dispatcher.test.ts',
  'packages/mock-server/test/listener.test.ts',
  'packages/sdk/test/integration/fetch-option.test.ts',
];
const ALL = [
  'packages/*/test/**/*.test.ts',
  'test/**/*.test.ts',
  'examples/**/*.test.ts',
  'scripts/**/*.test.ts',
];
/** What 'own modules' runs already: everything outside the shared folders. */
const ALL_ELSEWHERE = ['packages/redis-gate/**', 'test/**', 'examples/**', 'scripts/**'];

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of the workspace packages, not their builds.
    conditions: ['@company-data/source'],
  },
  ssr: { resolve: { conditions: ['@company-data/source'] } },
  test: {
    testTimeout: 20_000,
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine, where the
    // slowest files mostly wait (on child processes, a Redis fleet, real time). Two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared modules',
          include: SHARED_MODULES,
          exclude: [...configDefaults.exclude, ...OWN_MODULES],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'own modules', include: ALL, exclude: [...configDefaults.exclude, ...SHARED_MODULES] },
      },
      {
        extends: true,
        test: {
          name: 'own modules, beside shared ones',
          include: OWN_MODULES,
          exclude: [...configDefaults.exclude, ...ALL_ELSEWHERE],
        },
      },
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
