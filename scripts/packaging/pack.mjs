// Packs the workspace packages with the documented from-a-clone command, `npm pack --workspaces
// --pack-destination <folder>`, into a folder of our choosing.
import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { run } from './process.mjs';
import { withPackagesDir } from './recipe.mjs';
import { ROOT } from './workspace.mjs';

/**
 * A package's tarball, and its size in bytes.
 *
 * @typedef {{ pkg: import('./workspace.mjs').WorkspacePackage, tarball: string, size: number }} Packed
 */

/**
 * Runs the recipe's `npm pack` in the repository, its destination replaced by `destination`, and finds the
 * tarball of every publishable package in it.
 *
 * @param {import('./recipe.mjs').InstallRecipe} recipe
 * @param {readonly import('./workspace.mjs').WorkspacePackage[]} packages
 * @param {string} destination
 * @returns {Promise<Packed[]>}
 */
export async function packWorkspaces(recipe, packages, destination) {
  await mkdir(destination, { recursive: true });
  await run('npm', [...withPackagesDir(recipe.pack, recipe.packagesDir, destination)], { cwd: ROOT });
  return packages.map((pkg) => {
    // npm's tarball name: the scope's @ dropped and its slash turned into a dash.
    const tarball = path.join(
      destination,
      `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`,
    );
    if (!existsSync(tarball)) throw new Error(`\`npm ${recipe.pack.join(' ')}\` wrote no ${tarball}`);
    return { pkg, tarball, size: statSync(tarball).size };
  });
}
