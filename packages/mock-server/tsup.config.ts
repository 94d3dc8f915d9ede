import { defineConfig } from 'tsup';
import { libraryWithCli } from '../../build/tsup.js';

// msw.ts is the optional msw adapter (`@company-data/mock-server/msw`), vitest.ts the vitest matchers
// (`@company-data/mock-server/vitest`): msw and vitest stay external, optional peers.
export default defineConfig(libraryWithCli(['src/index.ts', 'src/msw.ts', 'src/vitest.ts']));
