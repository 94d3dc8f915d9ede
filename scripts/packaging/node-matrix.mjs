// The packages on another Node.js (one of those node-versions.mjs pins), in the project the guides set up:
// - the mock's single-file build (the one script `npm run build:mock-binary` makes an executable of) started
//   with that Node, and the SDK's smoke script (the one Bun and Deno run) against it;
// - the installed `company-data-mock` started with it, and one `company-data export` and one `company-data
//   sync` of its calls into PostgreSQL (a schema of this Node's own), a call made between them;
// - the vitest folders of the consumer checks (the one-line global setup and useMockSession, in an ES module
//   project and in a CommonJS one), run by the project's vitest on it. Not on the packages' engines floor,
//   older than vitest supports (its vite's `engines` say which), where a project cannot run vitest at all:
//   there the CommonJS consumer script requires the packages' CommonJS builds instead (that Node cannot
//   `require()` an ES module, as newer ones can).
// One mock of each build for the Node, each used for all its checks; every program started with that Node,
// which is also first on the PATH.
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { mockEnv, startInstalledMockCli, startMockCli } from '../lib/mock-cli.mjs';
import { runSessionFolders } from './consumer.mjs';
import { ENGINES_FLOOR } from './node-versions.mjs';
import { binScript, cleanEnv, run } from './process.mjs';
import { ROOT, readJson } from './workspace.mjs';

const SMOKE = 'runtime-smoke.mjs';
/** The plain CommonJS script of the consumer checks, copied into the project by consumer.mjs. */
const CJS_CONSUMER = 'consumer.cjs';
/** The list copied into PostgreSQL. */
const LIST = 'calls';

/**
 * What `company-data export|sync --json` prints, as far as this reads it.
 *
 * @typedef {{ outcome: string, destination: string, created: number, changed: number, removed: number, records: number }} CopySummary
 */

/**
 * @typedef {object} NodeCheckOptions
 * @property {string} projectDir - the project the guides set up, the packages installed from their tarballs.
 * @property {string} singleFile - the mock's single-file build (scripts/sea/bundle.mjs).
 * @property {string | undefined} databaseUrl - a PostgreSQL to copy into; undefined: that check is SKIPPED.
 */

/**
 * Runs the checks above with `node`.
 *
 * @param {{ binary: string, version: string, major: number }} node
 * @param {NodeCheckOptions} options
 * @returns {Promise<string[]>} one line per check.
 * @throws {Error} naming the check that failed, with the output of the command that failed.
 */
export async function checkOnNode(node, { projectDir, singleFile, databaseUrl }) {
  const env = cleanEnv({
    NODE_OPTIONS: '',
    NO_COLOR: '1',
    PATH: [path.dirname(node.binary), process.env.PATH].join(path.delimiter),
  });
  const options = { cwd: projectDir, timeoutMs: 90_000 };
  const lines = [await smokeAgainstSingleFile(node, singleFile, env, options)];
  lines.push(await copyIntoPostgres(node, databaseUrl, env, options));
  if (node.version === ENGINES_FLOOR) {
    const { stdout } = await run(node.binary, [CJS_CONSUMER], { ...options, env });
    const passed = stdout.split('\n').filter((line) => / ok /.test(line));
    lines.push(`${CJS_CONSUMER} passed its ${passed.length} checks: the CommonJS builds, by require()`);
    const vite = readJson(path.join(projectDir, 'node_modules', 'vite', 'package.json'));
    lines.push(`the project's vitest: not on the packages' floor (its vite needs node ${vite.engines.node})`);
  } else {
    const vitestScript = binScript(projectDir, 'vitest', 'vitest');
    const folders = await runSessionFolders(projectDir, [node.binary, vitestScript], env);
    lines.push(`the project's vitest: ${folders.join(', ')}`);
  }
  return lines;
}

/**
 * The single-file build started with `node`, and the smoke script run against it.
 *
 * @param {{ binary: string }} node
 * @param {string} singleFile
 * @param {NodeJS.ProcessEnv} env
 * @param {{ cwd: string, timeoutMs: number }} options
 */
async function smokeAgainstSingleFile(node, singleFile, env, options) {
  await copyFile(path.join(ROOT, 'scripts', 'pack-consumer', SMOKE), path.join(options.cwd, SMOKE));
  const start = startMockCli({
    command: [node.binary, singleFile],
    args: ['--exit-on-stdin-close'],
    cwd: options.cwd,
    env,
    stopBy: 'stdin',
  });
  return withMock(start, 'the single-file build', async ({ baseURL }, smokeEnv) => {
    const { stdout } = await run(node.binary, [SMOKE], { ...options, env: { ...env, ...smokeEnv } });
    const passed = stdout.split('\n').filter((line) => line.startsWith('ok '));
    if (!stdout.trimEnd().endsWith('done')) throw new Error(`${SMOKE} did not finish:\n${stdout}`);
    return `${SMOKE} passed its ${passed.length} checks against the single-file build (${path.basename(singleFile)}) on ${new URL(baseURL).host}`;
  });
}

/**
 * The installed `company-data-mock` started with `node`; `company-data export` of its calls into a schema of
 * this Node's own, a call made through the admin API, then `company-data sync`, which must add it.
 *
 * @param {{ binary: string, major: number }} node
 * @param {string | undefined} databaseUrl
 * @param {NodeJS.ProcessEnv} env
 * @param {{ cwd: string, timeoutMs: number }} options
 */
async function copyIntoPostgres(node, databaseUrl, env, options) {
  const start = startInstalledMockCli(options.cwd, env, node.binary);
  return withMock(start, 'company-data-mock', async (summary, cliEnv) => {
    if (databaseUrl === undefined)
      return `company-data-mock ${summary.version} (installed) started; SKIPPED company-data export and sync (no PostgreSQL: see above)`;
    const cli = binScript(options.cwd, '@company-data/cli', 'company-data');
    const schema = `node_${node.major}`;
    const copy = async (/** @type {string[]} */ args) => {
      const target = ['--to', databaseUrl, '--schema', schema, '--json'];
      const { stdout } = await run(node.binary, [cli, ...args, ...target], {
        ...options,
        env: { ...env, ...cliEnv },
      });
      return /** @type {CopySummary} */ (JSON.parse(stdout));
    };
    const count = await listCount(summary);
    const exported = await copy(['export', LIST]);
    if (exported.outcome !== 'done' || exported.records !== count)
      throw new Error(
        `company-data export ${LIST}: expected ${count} records, done; got ${JSON.stringify(exported)}`,
      );
    await makeCall(summary);
    const synced = await copy(['sync', LIST, '--look-back', '24h']);
    const expected = { outcome: 'done', created: 1, changed: 0, removed: 0, records: count + 1 };
    const { outcome, created, changed, removed, records } = synced;
    const got = { outcome, created, changed, removed, records };
    if (JSON.stringify(got) !== JSON.stringify(expected))
      throw new Error(
        `company-data sync ${LIST} after one new call: expected ${JSON.stringify(expected)}, got ${JSON.stringify(synced)}`,
      );
    return `company-data-mock ${summary.version} (installed): company-data export ${LIST} into ${exported.destination} (${count} records), a call made, company-data sync --look-back 24h added it (${records} records)`;
  });
}

/** @param {import('../lib/mock-cli.mjs').MockCliSummary} summary */
async function listCount({ baseURL, keys }) {
  const response = await fetch(`${baseURL}/${LIST}/?page_size=1`, {
    headers: { authorization: `Bearer ${keys.valid}` },
  });
  if (!response.ok) throw new Error(`GET /v1/${LIST}/: ${response.status} ${await response.text()}`);
  const { pagination } = /** @type {{ pagination: { count: number } }} */ (await response.json());
  return pagination.count;
}

/** @param {import('../lib/mock-cli.mjs').MockCliSummary} summary */
async function makeCall({ adminURL, adminToken }) {
  const response = await fetch(`${adminURL}records/${LIST}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ summary: 'Made between the export and the sync' }),
  });
  if (response.status !== 201) throw new Error(`POST ${adminURL}records/${LIST}: ${response.status}`);
}

/**
 * Runs `action` with a mock started through its standard input, then stops it by closing that: once `action`
 * succeeded, the mock must exit 0.
 *
 * @param {Promise<import('../lib/mock-cli.mjs').MockCli<import('../lib/mock-cli.mjs').MockCliSummary>>} starting
 * @param {string} what - the mock, for the error.
 * @param {(summary: import('../lib/mock-cli.mjs').MockCliSummary, env: NodeJS.ProcessEnv) => Promise<string>} action -
 *   given what the mock printed and the environment the guides set from it.
 * @returns {Promise<string>} what `action` resolved with.
 */
async function withMock(starting, what, action) {
  const mock = await starting;
  let line;
  try {
    line = await action(mock.summary, mockEnv(mock.summary));
  } catch (error) {
    await mock.stop();
    throw error;
  }
  const code = await mock.stop();
  if (code !== 0)
    throw new Error(
      `${what} exited with code ${code} when its standard input closed:\n${mock.stderr.join('\n')}`,
    );
  return line;
}
