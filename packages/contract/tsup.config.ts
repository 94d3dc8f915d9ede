import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  target: 'node20',
  // The source's names, not esbuild's renamings (`_Foo`), in stacks and `constructor.name` (as the SDK's build).
  keepNames: true,
  tsconfig: '../../tsconfig.base.json',
};

export default defineConfig([
  // Both build in parallel: the main entry's clean must spare the runtime entry's output.
  { ...shared, entry: ['src/index.ts'], clean: ['!runtime.*'] },
  // `@company-data/contract/runtime`, the zod-free part, in a build of its own (one declaration build per
  // entry: tsup's shared declaration build fails on these two).
  { ...shared, entry: ['src/runtime.ts'] },
]);
