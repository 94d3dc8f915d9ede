// The packed-tarball consumer test: a fresh project outside the workspace installs the three tarballs by file
// and runs a plain ESM and a plain CJS script that use them by package name, and a script that runs the
// installed company-data-mock command over a real socket.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanEnv, run } from './process.mjs';
import { ROOT, readJson } from './workspace.mjs';

const FIXTURES = path.join(ROOT, 'scripts', 'pack-consumer');
const SCRIPTS = ['consumer.mjs', 'consumer.cjs', 'cli.mjs'];
// Copied beside the scripts, which share it.
const SHARED = ['checks.cjs'];

/**
 * Creates the consumer project in `projectDir` and installs the tarballs into it with npm, the way a user
 * would after `npm install @company-data/sdk`; their dependencies come from the registry.
 *
 * @returns {Promise<string[]>} summary lines of what was installed.
 */
export async function installConsumer(projectDir, packed) {
  await mkdir(projectDir, { recursive: true });
  const manifest = { name: 'company-data-pack-consumer', version: '0.0.0', private: true };
  await writeFile(path.join(projectDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const file of [...SCRIPTS, ...SHARED])
    await copyFile(path.join(FIXTURES, file), path.join(projectDir, file));

  const tarballs = packed.map(({ tarball }) => tarball);
  // --prefer-offline reuses cached registry metadata, which keeps the check fast; missing packages still download.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
    cwd: projectDir,
    timeoutMs: 150_000,
  });
  return packed.map(({ pkg }) => assertInstalledFromTarball(projectDir, pkg));
}

/**
 * The package must come from our tarball, once: a different version or a nested copy means npm fetched a
 * published release from the registry instead (e.g. an internal dependency range the local version misses).
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

function binMap(manifest) {
  if (typeof manifest.bin === 'string') return { [manifest.name.split('/').pop()]: manifest.bin };
  return manifest.bin ?? {};
}

/**
 * Runs the ESM and the CJS consumer script in the installed project. Each must print its checks and exit by
 * itself: a script that finished but keeps running means a server or client was not closed cleanly.
 *
 * @returns {Promise<{ script: string, lines: string[] }[]>} what each script reported.
 */
export async function runConsumers(projectDir) {
  // A plain user environment: no NODE_OPTIONS from the caller (e.g. custom conditions pointing at sources).
  const env = cleanEnv({ NODE_OPTIONS: '' });
  const results = [];
  for (const script of SCRIPTS) {
    try {
      const { stdout } = await run(process.execPath, [script], { cwd: projectDir, env, timeoutMs: 60_000 });
      results.push({ script, lines: stdout.trim().split('\n').filter(Boolean) });
    } catch (error) {
      const finished = /: done$/m.test(error.stdout ?? '');
      const headline = finished
        ? `${script} finished its checks but did not exit: a server, client or timer was left open`
        : `${script} failed`;
      throw new Error(`${headline}\n${error.message}`);
    }
  }
  return results;
}
