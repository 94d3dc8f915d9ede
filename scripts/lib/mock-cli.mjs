// Starts the `company-data-mock` command the way the testing guide tells a harness in any language to: on a
// free port (`--port 0 --json`), reading the JSON line it prints once it listens. The one home of that for the
// examples (`examples/with-mock.mjs`), the packaging checks (an installed command) and the tests of the SDK and
// the mock server (the command run from its sources, no build needed).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceBundle } from './source-bundle.mjs';

/**
 * What `company-data-mock --json` prints, as far as the examples and checks read it. The tests read it as the
 * mock server's `ServerSummary` (a type parameter of {@link startMockCli}).
 *
 * @typedef {object} MockCliSummary
 * @property {string} baseURL
 * @property {string} apiRoot
 * @property {string} adminURL
 * @property {string} adminToken
 * @property {number} pid
 * @property {string} version
 * @property {Record<string, string>} keys
 * @property {Record<string, string>} tokens
 */

/**
 * The node arguments that run a TypeScript file of this repository from source: tsx, and workspace packages
 * read from their TypeScript (nothing built first). Any working directory will do.
 */
export const FROM_SOURCE = Object.freeze([
  '--conditions=@company-data/source',
  '--import',
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
]);

/**
 * The program and arguments that run `company-data-mock` from this repository's sources, compiled into one
 * file on the first call (scripts/lib/source-bundle.mjs).
 *
 * @returns {string[]}
 */
export function mockCliFromSource() {
  const bin = fileURLToPath(new URL('../../packages/mock-server/src/entries/bin.ts', import.meta.url));
  return [process.execPath, sourceBundle(bin)];
}

/**
 * The command's process: its standard input is a pipe only with `stopBy: 'stdin'`.
 *
 * @typedef {import('node:child_process').ChildProcessByStdio<import('node:stream').Writable | null, import('node:stream').Readable, import('node:stream').Readable>} CliChild
 */

/**
 * @template Summary
 * @typedef {object} MockCli
 * @property {CliChild} child
 * @property {Summary} summary - the JSON line it printed.
 * @property {string[]} stderr - every whole line written to stderr so far.
 * @property {Promise<number | null>} exited - resolves with the exit code once it exits.
 * @property {() => Promise<number | null>} stop - stops it (SIGTERM, or closing its standard input when it
 *   was started with `stopBy: 'stdin'`) and waits for the exit; does nothing more once it has exited.
 * @property {(done: (lines: readonly string[]) => boolean, within?: number) => Promise<void>} stderrUntil -
 *   resolves once the stderr lines satisfy `done` (checked now and on each new line); rejects after `within`
 *   ms (5 s by default), showing the lines.
 */

/**
 * Starts `company-data-mock --port 0 --json` plus `args` and waits for its JSON line.
 *
 * @template [Summary=MockCliSummary]
 * @param {object} [how]
 * @param {readonly string[]} [how.args] - more arguments (a later `--port` wins over `--port 0`).
 * @param {readonly string[]} [how.command] - the program and arguments that run the command; default
 *   {@link mockCliFromSource}. An installed one: `[process.execPath, <its bin/company-data-mock.mjs>]`.
 * @param {string} [how.cwd]
 * @param {NodeJS.ProcessEnv} [how.env]
 * @param {'signal' | 'stdin'} [how.stopBy] - 'stdin' ties it to this process through its standard input
 *   (`--exit-on-stdin-close`, which the caller passes) and stops it by closing it; 'signal' (the default)
 *   leaves no standard input and stops it with SIGTERM.
 * @returns {Promise<MockCli<Summary>>}
 * @throws {Error} when it exits before printing its line; the message holds what it wrote to stderr.
 */
export async function startMockCli({
  args = [],
  command = mockCliFromSource(),
  cwd,
  env,
  stopBy = 'signal',
} = {}) {
  const [program = '', ...programArgs] = command;
  const child = /** @type {CliChild} */ (
    spawn(program, [...programArgs, '--port', '0', '--json', ...args], {
      cwd,
      env,
      stdio: [stopBy === 'stdin' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    })
  );
  /** @type {string[]} */
  const stderr = [];
  /** @type {Set<() => void>} */
  const waiters = new Set();
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr.push(line);
    for (const check of waiters) check();
  });
  /** @type {Promise<number | null>} */
  const exited = once(child, 'exit').then(([code]) => code);
  // The lines after the first (a `--log` to stdout) are read and dropped, so the pipe never fills.
  const lines = createInterface({ input: child.stdout });
  let started = false;
  const first = once(lines, 'line').then(([line]) => {
    started = true;
    return /** @type {string} */ (line);
  });
  const line = await Promise.race([
    first,
    exited.then(async (code) => {
      // Its stderr may still be arriving: wait for the pipe's end, then say what it wrote.
      if (!child.stderr.readableEnded) await once(child.stderr, 'end').catch(() => {});
      if (started) return first;
      throw new Error(
        `company-data-mock exited with code ${code} before it printed its address:\n${stderr.join('\n')}`,
      );
    }),
  ]);
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    summary: JSON.parse(line),
    stderr,
    exited,
    stop: () => {
      if (running()) {
        if (stopBy === 'stdin') child.stdin?.end();
        else child.kill('SIGTERM');
      }
      return exited;
    },
    stderrUntil: (done, within = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!done(stderr)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`stderr did not show what was awaited within ${within} ms:\n${stderr.join('\n')}`),
          );
        }, within);
        waiters.add(check);
        check();
      }),
  };
}

/**
 * Starts the `company-data-mock` installed in a project, as the testing guide tells a harness to: tied to this
 * process by its standard input (`--exit-on-stdin-close`), which `stop` closes.
 *
 * @param {string} projectDir - the project it is installed in; also its working directory.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} [node] - the Node that runs it (default: this one).
 */
export function startInstalledMockCli(projectDir, env, node = process.execPath) {
  const bin = path.join(
    projectDir,
    'node_modules',
    '@company-data',
    'mock-server',
    'bin',
    'company-data-mock.mjs',
  );
  return startMockCli({
    command: [node, bin],
    args: ['--exit-on-stdin-close'],
    cwd: projectDir,
    env,
    stopBy: 'stdin',
  });
}

/**
 * The environment the guides and examples tell a reader to set from what the mock printed.
 *
 * @param {Pick<MockCliSummary, 'baseURL' | 'apiRoot' | 'keys' | 'tokens'>} summary
 */
export function mockEnv({ baseURL, apiRoot, keys, tokens }) {
  return {
    COMPANY_DATA_API_KEY: keys.valid,
    COMPANY_DATA_BASE_URL: baseURL,
    COMPANY_DATA_AUDIENCE_WEBHOOK: `${baseURL}/outbound-campaigns/webhook/${tokens.audience}/`,
    COMPANY_DATA_LEAD_WEBHOOK: `${apiRoot}/messaging-agent/webhook/${tokens.lead}/`,
  };
}
