// Finds the repository root and the publishable workspace packages the checks run on.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: two levels above this file (scripts/packaging/). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * @param {string} file
 * @returns {any} the parsed JSON, whose shape the caller knows.
 */
export function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The fields of a package.json the checks read.
 *
 * @typedef {object} PackageManifest
 * @property {string} name
 * @property {string} version
 * @property {boolean} [private]
 * @property {string} [main]
 * @property {Record<string, { import?: { default?: string }, require?: { default?: string } }>} [exports]
 * @property {string | Record<string, string>} [bin]
 * @property {Record<string, string>} [dependencies]
 * @property {Record<string, string>} [devDependencies]
 * @property {Record<string, string>} [peerDependencies]
 * @property {Record<string, string>} [scripts]
 * @property {string} [license]
 * @property {{ access?: string }} [publishConfig]
 */

/**
 * A workspace package: its directory (absolute, and relative to the root), manifest, name and version.
 *
 * @typedef {{ dir: string, relativeDir: string, manifest: PackageManifest, name: string, version: string }} WorkspacePackage
 */

/**
 * The workspace packages in the order the root package.json lists them, each with its directory, manifest,
 * name and version. Private packages are left out: they are never packed or published.
 *
 * @returns {WorkspacePackage[]}
 */
export function publishablePackages(root = ROOT) {
  const rootManifest = readJson(path.join(root, 'package.json'));
  /** @type {string[]} */
  const workspaces = rootManifest.workspaces ?? [];
  return workspaces
    .map((relativeDir) => {
      const dir = path.join(root, relativeDir);
      /** @type {PackageManifest} */
      const manifest = readJson(path.join(dir, 'package.json'));
      return { dir, relativeDir, manifest, name: manifest.name, version: manifest.version };
    })
    .filter((pkg) => !pkg.manifest.private);
}

/**
 * Fails early, with the fix, when a package was not built: every later check reads `dist/`.
 * The entry files are the ones the `exports` map points at for `import` and `require`.
 *
 * @param {WorkspacePackage} pkg
 */
export function assertBuilt(pkg) {
  const root = pkg.manifest.exports?.['.'] ?? {};
  const targets = [root.import?.default, root.require?.default, pkg.manifest.main].filter(
    (target) => target !== undefined,
  );
  const missing = targets.filter((target) => !existsSync(path.join(pkg.dir, target)));
  if (missing.length > 0) {
    throw new Error(
      `${pkg.name} is not built (missing ${missing.join(', ')}); run \`npm run build\` before \`npm run check:packages\``,
    );
  }
}
