// The packed-tarball consumer test: the project outside the workspace that the guides set up (the tarballs
// installed by Getting started's commands, as written), runs a plain ESM and a plain CJS script that
// use the packages by name, a script that runs the installed company-data-mock command over a real socket, and
// one that runs the installed company-data command.
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandError, cleanEnv, run } from './process.mjs';
import { ROOT, readJson } from './workspace.mjs';

const FIXTURES = path.join(ROOT, 'scripts', 'pack-consumer');
const SCRIPTS = ['consumer.mjs', 'consumer.cjs', 'cli.mjs', 'company-data.mjs'];
// Copied beside the scripts, which share it.
const SHARED = ['checks.cjs'];
/**
 * Checks the project the guides made (scripts/packaging/guide-runner.mjs, Getting started's commands as
 * written) and copies the consumer scripts into it: each package installed from its tarball, once, with its
 * commands; the SDK and contract in dependencies, the mock server and CLI in devDependencies.
 *
 * @param {string} projectDir
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @returns {Promise<string[]>} what was installed.
 */
export async function checkConsumerProject(projectDir, packed) {
  for (const file of [...SCRIPTS, ...SHARED])
    await copyFile(path.join(FIXTURES, file), path.join(projectDir, file));
  assertDependencyKinds(projectDir, packed);
  return packed.map(({ pkg }) => assertInstalledFromTarball(projectDir, pkg));
}

/** Packages that serve tests, not the app: the recipe must put them in devDependencies. */
export const DEV_PACKAGES = new Set(['@company-data/mock-server', '@company-data/cli']);

/**
 * The SDK and the contract in `dependencies`, the mock server and the CLI in `devDependencies`. With
 * `installedOnly`, a package the commands did not name (the contract, installed as the SDK's dependency) may
 * be in neither.
 * @param {string} projectDir
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @param {{ installedOnly?: boolean }} options
 */
export function assertDependencyKinds(projectDir, packed, { installedOnly = false } = {}) {
  const manifest = readJson(path.join(projectDir, 'package.json'));
  for (const { pkg } of packed) {
    const named = manifest.dependencies?.[pkg.name] ?? manifest.devDependencies?.[pkg.name];
    if (installedOnly && named === undefined) continue;
    const kind = DEV_PACKAGES.has(pkg.name) ? 'devDependencies' : 'dependencies';
    const other = kind === 'dependencies' ? 'devDependencies' : 'dependencies';
    if (manifest[kind]?.[pkg.name] === undefined || manifest[other]?.[pkg.name] !== undefined)
      throw new Error(`the install commands put ${pkg.name} in ${other}, not ${kind}`);
  }
}

/**
 * The package must come from our tarball, once: a different version or a nested copy means npm fetched a
 * published release from the registry instead (e.g. an internal dependency range the local version misses).
 * @param {string} projectDir
 * @param {import('./workspace.mjs').WorkspacePackage} pkg
 */
function assertInstalledFromTarball(projectDir, pkg) {
  const installedDir = path.join(projectDir, 'node_modules', ...pkg.name.split('/'));
  const installed = readJson(path.join(installedDir, 'package.json'));
  if (installed.version !== pkg.version) {
    throw new Error(`${pkg.name}: installed ${installed.version}, but the workspace has ${pkg.version}`);
  }
  const nested = path.join(installedDir, 'node_modules', '@company-data');
  if (existsSync(nested)) {
    throw new Error(
      `${pkg.name} got its own copy of another @company-data package in ${nested}; an internal dependency range does not match the workspace versions`,
    );
  }
  const bins = Object.keys(binMap(pkg.manifest));
  for (const bin of bins) {
    if (!existsSync(path.join(projectDir, 'node_modules', '.bin', bin))) {
      throw new Error(`${pkg.name} declares the command \`${bin}\` but npm did not install it`);
    }
  }
  return `${pkg.name}@${installed.version}${bins.length > 0 ? ` (commands: ${bins.join(', ')})` : ''}`;
}

/**
 * @param {import('./workspace.mjs').PackageManifest} manifest
 */
function binMap(manifest) {
  if (typeof manifest.bin === 'string') return { [manifest.name.split('/').at(-1) ?? '']: manifest.bin };
  return manifest.bin ?? {};
}

/**
 * Runs the ESM and the CJS consumer script in the installed project. Each must print its checks and exit by
 * itself: a script that finished but keeps running means a server or client was not closed cleanly.
 *
 * @param {string} projectDir
 * @returns {Promise<{ script: string, lines: string[] }[]>} what each script reported.
 */
export async function runConsumers(projectDir) {
  // A plain user environment: no NODE_OPTIONS from the caller (e.g. custom conditions pointing at sources).
  const env = cleanEnv({ NODE_OPTIONS: '' });
  /** @type {{ script: string, lines: string[] }[]} */
  const results = [];
  for (const script of SCRIPTS) {
    try {
      const { stdout } = await run(process.execPath, [script], { cwd: projectDir, env, timeoutMs: 60_000 });
      results.push({ script, lines: stdout.trim().split('\n').filter(Boolean) });
    } catch (error) {
      const finished = error instanceof CommandError && /: done$/m.test(error.stdout);
      const headline = finished
        ? `${script} finished its checks but did not exit: a server, client or timer was left open`
        : `${script} failed`;
      throw new Error(`${headline}\n${error instanceof Error ? error.message : error}`);
    }
  }
  return results;
}
