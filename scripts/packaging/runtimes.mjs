// The SDK in other runtimes and its lazy loading, checked in the installed consumer project against the
// installed company-data-mock: the smoke script under Bun and Deno (pinned, installed from npm by this step
// into its own cache folder: tools.mjs), and the lazy-schemas script under Node.
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { mockEnv, startInstalledMockCli } from '../lib/mock-cli.mjs';
import { cleanEnv, run, SCRIPT_TIMEOUT_MS } from './process.mjs';
import { packagingTools } from './tools.mjs';
import { ROOT } from './workspace.mjs';

const FIXTURES = path.join(ROOT, 'scripts', 'pack-consumer');
const RUNTIMES = [
  { name: 'bun', args: ['runtime-smoke.mjs'] },
  // The permissions the README names: sockets, and the environment for the SDK's variables.
  { name: 'deno', args: ['run', '--allow-net', '--allow-env', 'runtime-smoke.mjs'] },
];

/**
 * Copies `files` into the project, starts its installed mock, runs `action` with the environment the guides
 * set from the mock, and stops the mock.
 *
 * @template T
 * @param {string} projectDir
 * @param {readonly string[]} files
 * @param {(env: NodeJS.ProcessEnv) => Promise<T>} action
 * @returns {Promise<T>}
 */
async function withMock(projectDir, files, action) {
  for (const file of files) await copyFile(path.join(FIXTURES, file), path.join(projectDir, file));
  const mock = await startInstalledMockCli(projectDir, cleanEnv({ NODE_OPTIONS: '' }));
  try {
    return await action(cleanEnv({ NODE_OPTIONS: '', ...mockEnv(mock.summary) }));
  } finally {
    await mock.stop();
  }
}

const checkLines = (/** @type {string} */ stdout) =>
  stdout
    .trim()
    .split('\n')
    .filter((line) => line !== 'done' && line !== '');

/**
 * Runs the smoke script under each runtime. A runtime whose binary is missing after the install (npm ships
 * none for this platform) is reported SKIPPED in capitals, and fails the check under CI.
 *
 * @param {string} projectDir
 * @returns {Promise<string[]>} one line per check or skip.
 */
export async function checkRuntimes(projectDir) {
  const tools = await packagingTools();
  return withMock(projectDir, ['runtime-smoke.mjs'], async (env) => {
    /** @type {string[]} */
    const lines = [];
    for (const runtime of RUNTIMES) {
      const binary = tools.binary(runtime.name);
      if (!existsSync(binary)) {
        const message = `${runtime.name} is not installed (${binary} is missing): npm has no build of it for ${process.platform}-${process.arch}`;
        if (process.env.CI === 'true') throw new Error(message);
        lines.push(`SKIPPED ${runtime.name}: ${message}`);
        continue;
      }
      const { stdout } = await run(binary, runtime.args, {
        cwd: projectDir,
        env,
        timeoutMs: SCRIPT_TIMEOUT_MS,
      });
      lines.push(...checkLines(stdout));
    }
    return lines;
  });
}

/**
 * Runs the lazy-schemas script under Node: importing the SDK and valid calls load no zod.
 *
 * @param {string} projectDir
 * @returns {Promise<string[]>} its check lines.
 */
export function checkLazySchemas(projectDir) {
  return withMock(projectDir, ['lazy-schemas.mjs', 'record-loads.mjs'], async (env) => {
    const { stdout } = await run(process.execPath, ['lazy-schemas.mjs'], { cwd: projectDir, env });
    return checkLines(stdout);
  });
}
