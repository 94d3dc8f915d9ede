// The tools only check:packages runs: Bun and Deno (the runtime smoke), Verdaccio (install by name), Are the
// Types Wrong? (attw), and the Node.js versions the packages run on besides the one running the check
// (node-versions.mjs). Together they weigh about 1 GB (280 MB without the Nodes); as root dev dependencies
// every `npm ci` would fetch them for this one step. They are pinned instead, their whole dependency tree included, in
// scripts/packaging/tools/package.json and its package-lock.json, and this step installs them from the npm
// registry with `npm ci` into a cache folder of their own in the user's cache folder (`$XDG_CACHE_HOME`, or
// `~/.cache`: not the temporary folder, which `npm test` gives each run afresh). The folder is named by a
// hash of that manifest and lock, so a later run (another clone on the machine too, or a run after a fresh
// `npm ci`) reuses it, and a changed pin installs afresh. A new install is made in a scratch folder and renamed
// into place, so a run that stops half-way, or two runs at once, never leave a half-installed folder in use.
//
// To change a version: edit scripts/packaging/tools/package.json, then `npm install --package-lock-only` in
// that folder.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { binScript, run } from './process.mjs';
import { ROOT } from './workspace.mjs';

/** The manifest and lockfile that pin the tools. */
export const TOOLS_MANIFEST_DIR = path.join(ROOT, 'scripts', 'packaging', 'tools');
const MANIFEST_FILES = ['package.json', 'package-lock.json'];
/** Where the installed tools live, one folder per manifest hash. */
const CACHE_ROOT = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
  'company-data',
  'packaging-tools',
);
/** A cached install no run has used for this long is removed by the next install (pins changed since). */
const UNUSED_FOR_MS = 7 * 24 * 60 * 60 * 1000;
/** A scratch folder this old belongs to an install that stopped half-way. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;
const SCRATCH_MARK = '.installing-';
// --prefer-offline: tarballs already in npm's cache are not fetched again.
const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline'];
/**
 * A bound for an install that hangs, not a target. The tools are about 1 GB; on an empty npm cache, beside
 * the rest of `npm test` and at check:packages' lowered priority, their install took 131 s, 210 s with two
 * busy loops beside it, and over 300 s (the bound before) with a third load.
 */
const INSTALL_TIMEOUT_MS = 15 * 60 * 1000;

/**
 * @typedef {object} PackagingTools
 * @property {string} dir - the folder whose `node_modules` holds the tools.
 * @property {number | undefined} installedIn - how long this run took to install them, in ms; undefined when
 *   they were cached.
 * @property {(packageName: string, binName: string) => string} script - the JavaScript file behind a tool's
 *   command, to run with this Node.
 * @property {(binName: string) => string} binary - the path of a native command (`bun`, `deno`) in
 *   `node_modules/.bin`; it may be missing on a platform the runtime does not ship for.
 */

/** @type {Promise<PackagingTools> | undefined} */
let installing;

/**
 * The pinned tools, installed on first use and cached across runs. Every caller in one process shares the
 * same install: check:packages starts it early, while it packs, and each step that needs a tool awaits it.
 *
 * @returns {Promise<PackagingTools>}
 * @throws {Error} when `npm ci` of the tools fails (e.g. no network and an empty npm cache), with its output.
 */
export function packagingTools() {
  installing ??= install();
  return installing;
}

/** @returns {Promise<PackagingTools>} */
async function install() {
  const dir = path.join(CACHE_ROOT, manifestHash());
  const started = performance.now();
  let installedIn;
  if (existsSync(dir)) {
    // Marks it as in use, so the clean-up of unused installs spares it.
    const now = new Date();
    await utimes(dir, now, now);
  } else {
    await mkdir(CACHE_ROOT, { recursive: true });
    const scratch = await mkdtemp(path.join(CACHE_ROOT, `${path.basename(dir)}${SCRATCH_MARK}`));
    try {
      for (const file of MANIFEST_FILES)
        await cp(path.join(TOOLS_MANIFEST_DIR, file), path.join(scratch, file));
      await run('npm', ['ci', ...INSTALL_FLAGS], { cwd: scratch, timeoutMs: INSTALL_TIMEOUT_MS });
      await rename(scratch, dir).catch((error) => {
        // Another run installed the same tools meanwhile: use theirs.
        if (!existsSync(dir)) throw error;
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    await removeStale(path.basename(dir));
    installedIn = performance.now() - started;
  }
  return {
    dir,
    installedIn,
    script: (packageName, binName) => binScript(dir, packageName, binName),
    binary: (binName) => path.join(dir, 'node_modules', '.bin', binName),
  };
}

/** A short hash of the manifest, the lockfile and the platform (Bun and Deno are native binaries). */
function manifestHash() {
  const hash = createHash('sha256');
  for (const file of MANIFEST_FILES) hash.update(readFileSync(path.join(TOOLS_MANIFEST_DIR, file)));
  hash.update(`${process.platform}-${process.arch}`);
  return hash.digest('hex').slice(0, 16);
}

/** Removes installs of other pins that no run has used for a week, and scratch folders left half-way. */
async function removeStale(/** @type {string} */ current) {
  const now = Date.now();
  for (const name of await readdir(CACHE_ROOT)) {
    if (name === current) continue;
    const full = path.join(CACHE_ROOT, name);
    const age = now - (await stat(full).catch(() => ({ mtimeMs: now }))).mtimeMs;
    if (age > (name.includes(SCRATCH_MARK) ? ABANDONED_AFTER_MS : UNUSED_FOR_MS)) {
      await rm(full, { recursive: true, force: true });
    }
  }
}
