// The tsup builds of the workspace packages, written once: every package's tsup.config.ts picks one of these.
// It lives beside the packages' builds, not in scripts/ (the checks and tools npm scripts run): it is part of
// the build itself, imported by the configs, never run on its own. A folder rather than an internal workspace
// package: one file that no published package depends on needs no package.json, version or lockfile entry.
import path from 'node:path';
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
 * Where `tsc -b build/tsconfig.declarations.json` writes the declarations of every package's sources: one
 * project a package (build/tsconfig.declarations/), each reading the declarations of the packages it imports,
 * so a package's declarations never name a package it does not depend on. Each package's `build` script runs
 * it first: the first build emits them all, the others find them up to date (half a CPU-second). Relative to
 * a package's folder, where tsup runs.
 */
const DECLARATIONS = '../../build/declarations';

/**
 * The declaration build bundles those declarations (rollup-plugin-dts, as before), rather than compiling the
 * package's sources again: tsup's own declaration build, a type-checked program per entry set (two for the
 * contract) that read the packages below from their `dist`, took 33 of the build's 49 CPU-seconds; the
 * projects take 17, the bundling under 1. The bundles declare the same: only the order of the contract
 * runtime's declarations and the name of the mock server's shared chunk (`mock-server.d-<hash>.d.ts`, after
 * its input file) differ.
 *
 * @param entries - the library's entry points (`src/index.ts`).
 */
function declarations(entries: string[]): Options['dts'] {
  const pkg = path.basename(process.cwd());
  return {
    entry: Object.fromEntries(
      entries.map((entry) => [
        path.basename(entry, '.ts'),
        path.join(DECLARATIONS, pkg, entry.replace(/\.ts$/, '.d.ts')),
      ]),
    ),
  };
}

/**
 * Each entry point under the name of its file: `src/entries/msw.ts` builds `dist/msw.js`, beside
 * `dist/index.js`, wherever in `src/` it lies (a list would keep the folders under `src/` in `dist/`).
 */
function byName(entries: string[]): Record<string, string> {
  return Object.fromEntries(entries.map((entry) => [path.basename(entry, '.ts'), entry]));
}

/**
 * A library: its entry points as ESM and CJS with declarations (the SDK, the Redis gate).
 *
 * @param entries - the library's entry points.
 */
export function library(entries: string[] = ['src/index.ts']): Options {
  return {
    ...shared,
    entry: byName(entries),
    format: ['esm', 'cjs'],
    dts: declarations(entries),
    clean: true,
  };
}

/**
 * The library (its entry points, `src/index.ts` by default: ESM, CJS and declarations) and the command
 * (`src/bin.ts` by default, as one ESM file, `dist/cli.js`, which keeps its shebang): the mock server, the CLI.
 *
 * @param entries - the library's entry points.
 * @param bin - the command's source.
 */
export function libraryWithCli(entries: string[] = ['src/index.ts'], bin = 'src/bin.ts'): Options[] {
  return [
    // Both configs build in parallel: the library's clean must spare the command's output.
    { ...library(entries), clean: ['!cli.js', '!cli.js.map'] },
    { ...shared, entry: { cli: bin }, format: ['esm'] },
  ];
}
