// The vitest config of a CommonJS project: its own global setup, in CommonJS too (global-setup.cjs).
// scripts/packaging/consumer.mjs copies this folder into the project the guides set up and runs vitest in it.
const { defineConfig } = require('vitest/config');

module.exports = defineConfig({
  test: {
    globalSetup: ['./global-setup.cjs'],
    include: ['*.spec.ts'],
  },
});
