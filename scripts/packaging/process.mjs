// Runs child processes for the packaging checks, with a time limit and an error that shows what failed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The npm executable; on Windows it is a .cmd shim, which only runs through a shell. */
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const SHELL = process.platform === 'win32';

/**
 * The bound of one script the check runs in a project (the consumer scripts, the project without an optional
 * peer, Bun's and Deno's smoke script): a guard against a hang. They take seconds alone, and over a minute at
 * check:packages' lowered priority on a loaded machine (a consumer script passed 60 s there).
 */
export const SCRIPT_TIMEOUT_MS = 180_000;

/**
 * The environment for commands run outside the workspace. `npm run` exports the workspace's own prefix and
 * package fields; a nested `npm install` in a temporary project must not see them, or it may act on the
 * workspace instead.
 *
 * @param {NodeJS.ProcessEnv} [extra] - variables to add or override.
 * @returns {NodeJS.ProcessEnv}
 */
export function cleanEnv(extra = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (
      lower.startsWith('npm_package_') ||
      lower.startsWith('npm_lifecycle_') ||
      lower === 'npm_config_local_prefix' ||
      lower.startsWith('npm_config_workspace') ||
      lower === 'init_cwd'
    ) {
      continue;
    }
    env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * @typedef {object} RunOptions
 * @property {string} [cwd] - where the command runs (default: this process's folder).
 * @property {NodeJS.ProcessEnv} [env] - its environment (default: {@link cleanEnv}).
 * @property {number} [timeoutMs] - killed, and the promise rejected, after this long (default 120 s).
 * @property {boolean} [allowFailure] - resolve on a non-zero exit code too.
 */

/** @typedef {{ code: number, stdout: string, stderr: string }} RunResult */

/** A failed command's error, with its whole output. */
export class CommandError extends Error {
  /**
   * @param {string} message
   * @param {{ stdout: string, stderr: string }} output
   */
  constructor(message, { stdout, stderr }) {
    super(message);
    this.stdout = stdout;
    this.stderr = stderr;
  }
}

/**
 * Runs a command and resolves with its exit code and output once it exits. Rejects with a message naming the
 * command, its directory and the tail of its output when it exits non-zero (unless `allowFailure`) or outlives
 * `timeoutMs`.
 *
 * @param {string} command - a program; `npm` works on every platform.
 * @param {readonly string[]} args
 * @param {RunOptions} [options]
 * @returns {Promise<RunResult>}
 * @throws {CommandError} (as a rejection) when the command fails or times out.
 */
export function run(
  command,
  args,
  { cwd, env = cleanEnv(), timeoutMs = 120_000, allowFailure = false } = {},
) {
  const executable = command === 'npm' ? NPM : command;
  const shown = `${command === process.execPath ? 'node' : command} ${args.join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { cwd, env, shell: SHELL, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
      stderr += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start \`${shown}\` in ${cwd}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { code: code ?? 1, stdout, stderr };
      if (timedOut) {
        reject(commandError(`\`${shown}\` did not finish within ${timeoutMs / 1000} s`, cwd, result));
      } else if (result.code !== 0 && !allowFailure) {
        const how = signal ? `was killed by ${signal}` : `exited with code ${result.code}`;
        reject(commandError(`\`${shown}\` ${how}`, cwd, result));
      } else {
        resolve(result);
      }
    });
  });
}

/**
 * @param {string} headline
 * @param {string | undefined} cwd
 * @param {RunResult} result
 */
function commandError(headline, cwd, { stdout, stderr }) {
  const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
  return new CommandError(`${headline} (in ${cwd})${output ? `\n--- last output ---\n${output}` : ''}`, {
    stdout,
    stderr,
  });
}

/**
 * The JavaScript file behind a dev dependency's command (`attw`, `changeset`), run with this very Node so the
 * checks need neither a shell nor node_modules/.bin shims.
 *
 * @param {string} root - the folder whose `node_modules` holds the package.
 * @param {string} packageName
 * @param {string} binName
 * @returns {string}
 */
export function binScript(root, packageName, binName) {
  const packageDir = path.join(root, 'node_modules', packageName);
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
  if (!bin) throw new Error(`${packageName} has no \`${binName}\` command; is it installed (npm ci)?`);
  return path.join(packageDir, bin);
}
