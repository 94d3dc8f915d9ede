import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of the workspace packages, not their builds.
    conditions: ['@company-data/source'],
  },
  ssr: { resolve: { conditions: ['@company-data/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 20_000,
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine, where the
    // slowest files mostly wait (on child processes, a Redis fleet, real time). Two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts'],
      reporter: ['text-summary', 'html'],
      thresholds: {
        'packages/contract/src/**': { lines: 90 },
        'packages/sdk/src/**': { lines: 90 },
        'packages/mock-server/src/**': { lines: 90 },
        'packages/cli/src/**': { lines: 90 },
      },
    },
  },
});
