// The one-line setup of `@company-data/mock-server/vitest` as a user's project has it: one mock for the whole
// run, a session of it for each test file (useMockSession). scripts/packaging/consumer.mjs copies this folder
// into the project the guides set up outside the workspace and runs `npx vitest run` in it.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@company-data/mock-server/vitest/global-setup'],
    include: ['*.spec.ts'],
    // Both files at once, whatever the machine's cores: each waits for the other (rendezvous.ts).
    maxWorkers: 2,
  },
});
