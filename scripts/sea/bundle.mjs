// The mock's command as the one CommonJS script a Node 20 single executable runs: its entry and everything it
// imports (the workspace's sources and the third-party packages) in one file, with nothing left to resolve at
// run time but Node's own modules.
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

/** The command's entry, in the mock server's package. */
export const CLI_ENTRY = path.join('packages', 'mock-server', 'src', 'entries', 'bin.ts');

/** Node's own modules: those of this Node, and any `node:` name (undici names `node:sqlite`, of newer Nodes, in code it runs only there). */
const isNodeModule = (/** @type {string} */ name) =>
  name.startsWith('node:') || builtinModules.includes(name);

/**
 * Bundles the command of the mock server under `root` into `outfile`.
 *
 * - `@company-data/source`: the workspace packages from their TypeScript, so the version printed is the one in
 *   `root`'s `package.json` (a release copy's, once versioned), with nothing built first.
 * - `mainFields` ESM first: a package whose `main` is a UMD wrapper (jsonc-parser) hides its `require()`s from
 *   the bundler, and a single executable's `require` loads Node's own modules only.
 * - Any warning fails the build: `import.meta` (empty in CommonJS) is one.
 * - Any import left outside the bundle that is not one of Node's modules fails it too.
 *
 * @param {string} root - the repository, or a release copy of it.
 * @param {string} outfile
 * @returns {Promise<{ bytes: number }>} the bundle's size.
 * @throws {Error} naming the warnings, or the imports the bundle left outside.
 */
export async function bundleCli(root, outfile) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [CLI_ENTRY],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    conditions: ['@company-data/source'],
    mainFields: ['module', 'main'],
    // As the packages' builds do (build/tsup.ts): classes keep their source names in messages and stacks.
    keepNames: true,
    metafile: true,
    logLevel: 'silent',
  });
  if (result.warnings.length > 0) {
    const lines = result.warnings.map(
      ({ text, location }) => `${location ? `${location.file}:${location.line}: ` : ''}${text}`,
    );
    throw new Error(`the bundle of ${CLI_ENTRY} has warnings:\n${lines.join('\n')}`);
  }
  const [output] = Object.values(result.metafile.outputs);
  const outside = (output?.imports ?? [])
    .filter(({ external, path: name }) => external && !isNodeModule(name))
    .map(({ path: name }) => name);
  if (outside.length > 0) {
    throw new Error(
      `the bundle of ${CLI_ENTRY} leaves imports outside it: ${[...new Set(outside)].join(', ')}`,
    );
  }
  return { bytes: output?.bytes ?? 0 };
}
