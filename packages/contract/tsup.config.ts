import { defineConfig } from 'tsup';
import { library } from '../../build/tsup.js';

export default defineConfig([
  // Both build in parallel: the main entry's clean must spare the runtime entry's output.
  { ...library(['src/index.ts']), clean: ['!runtime.*'] },
  // `@company-data/contract/runtime`, the zod-free part, in a build of its own (one declaration build per
  // entry: tsup's shared declaration build fails on these two).
  { ...library(['src/runtime.ts']), clean: false },
]);
