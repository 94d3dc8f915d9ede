// The steps of `npm run build` (scripts/build.mjs): each workspace package's own `build` script, after the
// builds of the workspace packages it depends on, side by side where nothing orders them: the contract first,
// then the mock server beside the SDK, then the CLI beside the Redis gate. The contract's build, alone, emits
// every package's declarations (`tsc -b build/tsconfig.declarations.json`, build/tsup.ts); the builds after it
// find them up to date, so two never write them at once.
import path from 'node:path';
import { readJson } from './packaging/workspace.mjs';

/**
 * The fields of a package.json that name what its sources import, so what its declaration build reads. A dev
 * dependency serves its tests (the SDK's tests start the mock server), not its build.
 */
const DEPENDENCY_FIELDS = /** @type {const} */ (['dependencies', 'peerDependencies']);

/**
 * @typedef {object} BuildManifest
 * @property {string} name
 * @property {Record<string, string>} [scripts]
 * @property {Record<string, string>} [dependencies]
 * @property {Record<string, string>} [peerDependencies]
 */

/**
 * One step per workspace package with a `build` script, in the workspaces' order, each after the builds of
 * the workspace packages it depends on or takes as a peer (the Redis gate's peer, the SDK, feeds its
 * declarations).
 *
 * @param {readonly BuildManifest[]} manifests - the workspace packages' package.json, in the workspaces' order.
 * @returns {import('./run-steps.mjs').Step[]}
 */
export function buildSteps(manifests) {
  const built = new Set(manifests.filter((manifest) => manifest.scripts?.build).map(({ name }) => name));
  return manifests
    .filter(({ name }) => built.has(name))
    .map((manifest) => {
      const after = DEPENDENCY_FIELDS.flatMap((field) => Object.keys(manifest[field] ?? {})).filter(
        (name, index, names) => built.has(name) && names.indexOf(name) === index,
      );
      return {
        name: manifest.name,
        command: ['npm', 'run', 'build', `--workspace=${manifest.name}`],
        ...(after.length > 0 ? { after } : {}),
      };
    });
}

/**
 * The package.json of every workspace the root lists, in its order.
 *
 * @param {string} root - the repository root.
 * @returns {BuildManifest[]}
 */
export function workspaceManifests(root) {
  /** @type {string[]} */
  const workspaces = readJson(path.join(root, 'package.json')).workspaces ?? [];
  return workspaces.map((dir) => readJson(path.join(root, dir, 'package.json')));
}
