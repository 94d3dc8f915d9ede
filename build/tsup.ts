// The tsup builds of the workspace packages, written once: every package's tsup.config.ts picks one of these.
// It lives beside the packages' builds, not in scripts/ (the checks and tools npm scripts run): it is part of
// the build itself, imported by the configs, never run on its own. A folder rather than an internal workspace
// package: one file that no published package depends on needs no package.json, version or lockfile entry.
import type { Options } from 'tsup';

/**
 * What every package's build shares: source maps, Node 20, and `build/tsconfig.json` (the base options, over
 * the packages' sources only). keepNames: esbuild renames a class that refers to itself
 * (`class _CompanyDataError`); keep the source's names, so an uncaught error, its stack and `constructor.name`
 * say `CompanyDataError`.
 *
 * The tsconfig's `include` matters to the declaration build: it adds every `.d.ts` file the tsconfig matches to
 * its program. The base tsconfig, at the root, matched every package's `dist/*.d.ts` left by an earlier build,
 * so a package's declarations could name another's (the contract's imported the SDK's `OpenEnum`) and changed
 * with what happened to be built; the packages' sources hold no `.d.ts` file.
 */
const shared: Options = {
  sourcemap: true,
  target: 'node20',
  keepNames: true,
  tsconfig: '../../build/tsconfig.json',
};

/**
 * The declaration build reads the other workspace packages' built declarations (`dist/*.d.ts`, which the
 * build's workspace order writes first), not their sources: the `@company-data/source` condition off. The
 * declarations come out byte for byte the same, and the program no longer type-checks the contract's schemas
 * again for every package that imports it (a sixth of the build's CPU time). Building one package alone
 * needs its workspace dependencies built, as running its `dist` always did.
 */
const declarations: Options['dts'] = { compilerOptions: { customConditions: [] } };

/**
 * A library: its entry points as ESM and CJS with declarations (the SDK, the Redis gate).
 *
 * @param entries - the library's entry points.
 */
export function library(entries: string[] = ['src/index.ts']): Options {
  return { ...shared, entry: entries, format: ['esm', 'cjs'], dts: declarations, clean: true };
}

/**
 * The library (its entry points, `src/index.ts` by default: ESM, CJS and declarations) and the command
 * (`src/bin.ts` as one ESM file, `dist/cli.js`, which keeps its shebang): the mock server, the CLI.
 *
 * @param entries - the library's entry points.
 */
export function libraryWithCli(entries: string[] = ['src/index.ts']): Options[] {
  return [
    // Both configs build in parallel: the library's clean must spare the command's output.
    { ...library(entries), clean: ['!cli.js', '!cli.js.map'] },
    { ...shared, entry: { cli: 'src/bin.ts' }, format: ['esm'] },
  ];
}
