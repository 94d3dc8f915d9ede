// Runs child processes for the packaging checks, with a time limit and an error that shows what failed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The npm executable; on Windows it is a .cmd shim, which only runs through a shell. */
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const SHELL = process.platform === 'win32';

/**
 * The environment for commands run outside the workspace. `npm run` exports the workspace's own prefix and
 * package fields; a nested `npm install` in a temporary project must not see them, or it may act on the
 * workspace instead.
 */
export function cleanEnv(extra = {}) {
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
 * Runs a command and resolves with its exit code and output once it exits. Rejects with a message naming the
 * command, its directory and the tail of its output when it exits non-zero (unless `allowFailure`) or outlives
 * `timeoutMs`.
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
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
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

function commandError(headline, cwd, { stdout, stderr }) {
  const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
  const error = new Error(`${headline} (in ${cwd})${output ? `\n--- last output ---\n${output}` : ''}`);
  error.stdout = stdout;
  error.stderr = stderr;
  return error;
}

/**
 * The JavaScript file behind a dev dependency's command (`attw`, `changeset`), run with this very Node so the
 * checks need neither a shell nor node_modules/.bin shims.
 */
export function binScript(root, packageName, binName) {
  const packageDir = path.join(root, 'node_modules', packageName);
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
  if (!bin) throw new Error(`${packageName} has no \`${binName}\` command; is it installed (npm ci)?`);
  return path.join(packageDir, bin);
}

/** Maps `items` through `action` with at most two running at once, keeping the order. */
export async function inPairs(items, action) {
  const output = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      output[index] = await action(items[index]);
    }
  };
  await Promise.all([worker(), worker()]);
  return output;
}
