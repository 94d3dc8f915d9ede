import { defineConfig } from 'tsup';
import { libraryWithCli } from '../../build/tsup.js';

// msw.ts is the optional msw adapter (`@company-data/mock-server/msw`): msw stays external, a peer.
export default defineConfig(libraryWithCli(['src/index.ts', 'src/msw.ts']));
