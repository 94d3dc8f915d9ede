// The tsup build of a package that is both a library and a command (the mock server, the CLI).
import type { Options } from 'tsup';

const shared: Options = { sourcemap: true, target: 'node20', tsconfig: '../../tsconfig.base.json' };

/**
 * The library (`src/index.ts`: ESM, CJS and declarations) and the command (`src/bin.ts` as one ESM file,
 * `dist/cli.js`, which keeps its shebang).
 */
export function libraryWithCli(): Options[] {
  return [
    {
      ...shared,
      entry: ['src/index.ts'],
      format: ['esm', 'cjs'],
      dts: true,
      // Both configs build in parallel: the library's clean must spare the command's output.
      clean: ['!cli.js', '!cli.js.map'],
    },
    { ...shared, entry: { cli: 'src/bin.ts' }, format: ['esm'] },
  ];
}
