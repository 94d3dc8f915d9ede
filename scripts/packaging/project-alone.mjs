// A fresh project that installs only some of the tarballs, for checks of what a package brings (and what it
// does not) when installed without the others.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanEnv, run, SCRIPT_TIMEOUT_MS } from './process.mjs';

/**
 * Creates `<parentDir>/<name>` with `check.mjs`, installs the tarballs of the `wanted` packages into it, and
 * lists what got installed.
 *
 * @returns {Promise<{ tree: string, runCheck: () => Promise<unknown> }>} the output of
 *   `npm ls --omit=dev --all --parseable`, and a function that runs `check.mjs` there.
 * @param {string} parentDir
 * @param {string} name - the project's folder and package name.
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @param {readonly string[]} wanted - the names of the packages to install.
 * @param {string} script - the text of `check.mjs`.
 */
export async function installAlone(parentDir, name, packed, wanted, script) {
  const projectDir = path.join(parentDir, name);
  await mkdir(projectDir, { recursive: true });
  await writeFile(
    path.join(projectDir, 'package.json'),
    `{ "name": "${name}", "private": true, "type": "module" }\n`,
  );
  await writeFile(path.join(projectDir, 'check.mjs'), script);
  const tarballs = packed.filter(({ pkg }) => wanted.includes(pkg.name)).map(({ tarball }) => tarball);
  const env = cleanEnv({ NODE_OPTIONS: '' });
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
    cwd: projectDir,
    env,
    timeoutMs: 150_000,
  });
  const { stdout: tree } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: projectDir,
    env,
  });
  const runCheck = () =>
    run(process.execPath, ['check.mjs'], { cwd: projectDir, env, timeoutMs: SCRIPT_TIMEOUT_MS });
  return { tree, runCheck };
}
