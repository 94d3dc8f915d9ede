import { defineConfig } from 'tsup';
import { libraryWithCli } from '../../build/tsup.js';

// msw.ts is the optional msw adapter (`@company-data/mock-server/msw`), vitest.ts the vitest matchers and
// sessions (`@company-data/mock-server/vitest`), vitest-global-setup.ts the one mock of a vitest run
// (`@company-data/mock-server/vitest/global-setup`): msw and vitest stay external, optional peers. The global
// setup imports the server from the package's main entry by name, which stays external too: one copy of the
// server's code, in the main entry's output.
const [library, cli] = libraryWithCli(
  ['src/index.ts', 'src/entries/msw.ts', 'src/entries/vitest.ts', 'src/entries/vitest-global-setup.ts'],
  'src/entries/bin.ts',
);
export default defineConfig([{ ...library, external: ['@company-data/mock-server'] }, cli]);
