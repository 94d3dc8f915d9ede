import { defineConfig } from 'tsup';
import { libraryWithCli } from '../../build/tsup.js';

// entries/copy.ts is the copy machinery (`@company-data/cli/copy`), importable without the snapshot's dependencies.
export default defineConfig(libraryWithCli(['src/index.ts', 'src/entries/copy.ts'], 'src/entries/bin.ts'));
