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
