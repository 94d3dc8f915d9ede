// The tsup build of a package that is both a library and a command (the mock server, the CLI).
import type { Options } from 'tsup';

// keepNames: esbuild renames a class that refers to itself (`class _MockServer`); keep the source's names,
// as stacks and `constructor.name` show them.
const shared: Options = {
  sourcemap: true,
  target: 'node20',
  keepNames: true,
  tsconfig: '../../tsconfig.base.json',
};

/**
 * The library (its entry points, `src/index.ts` by default: ESM, CJS and declarations) and the command
 * (`src/bin.ts` as one ESM file, `dist/cli.js`, which keeps its shebang).
 *
 * @param entries - the library's entry points.
 */
export function libraryWithCli(entries: string[] = ['src/index.ts']): Options[] {
  return [
    {
      ...shared,
      entry: entries,
      format: ['esm', 'cjs'],
      dts: true,
      // Both configs build in parallel: the library's clean must spare the command's output.
      clean: ['!cli.js', '!cli.js.map'],
    },
    { ...shared, entry: { cli: 'src/bin.ts' }, format: ['esm'] },
  ];
}
