import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // Both configs build in parallel: the library's clean must spare the CLI's output.
    clean: ['!cli.js', '!cli.js.map'],
    target: 'node20',
    tsconfig: '../../tsconfig.base.json',
  },
  {
    // The `company-data-mock` command: one self-contained ESM file (it keeps its shebang).
    entry: { cli: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    tsconfig: '../../tsconfig.base.json',
  },
]);
