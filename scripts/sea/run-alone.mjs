// The mock binary run as a person without Node runs it: copied alone, with its checksum file, into an empty
// folder that is its working directory, with a PATH that holds no program at all (so no node, npm or npx), and
// nothing else in its environment. It must start on a free port and print its JSON line, answer a list with
// the key it printed and the admin API with the admin token it printed, stop on SIGTERM, and stop by itself
// when the process that started it dies, tied to it either way the testing guide gives; each time leaving no
// process behind.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startMockCli } from '../lib/mock-cli.mjs';
import { checksumProblem } from './checksum.mjs';
import { gone, isRunning } from './processes.mjs';

const PARENT = path.join(import.meta.dirname, 'short-lived-parent.mjs');

/**
 * @typedef {object} Alone
 * @property {string} dir - the folder holding the binary and its checksum file, and nothing else.
 * @property {string} binary - the binary's path in it.
 * @property {NodeJS.ProcessEnv} env - the environment it runs in: PATH an empty folder.
 */

/**
 * Copies the binary and its checksum file, as downloaded, into `<base>/alone`, and makes the empty folder that
 * is its PATH, `<base>/no-programs`.
 *
 * @param {import('./build.mjs').MockBinary} built
 * @param {string} base - an empty folder; the caller removes it.
 * @returns {Promise<Alone>}
 */
export async function copyAlone(built, base) {
  const dir = path.join(base, 'alone');
  const noPrograms = path.join(base, 'no-programs');
  await mkdir(dir, { recursive: true });
  await mkdir(noPrograms, { recursive: true });
  const binary = path.join(dir, path.basename(built.binary));
  await copyFile(built.binary, binary);
  await copyFile(built.checksum, path.join(dir, path.basename(built.checksum)));
  const problem = await checksumProblem(binary, `${binary}${path.extname(built.checksum)}`);
  if (problem) throw new Error(`the copy does not match its checksum file: ${problem}`);
  return { dir, binary, env: { PATH: noPrograms } };
}

/**
 * Runs the checks above on the binary, alone.
 *
 * @param {Alone} alone
 * @param {string} version - the version it must print.
 * @returns {Promise<string[]>} one line per check passed.
 * @throws {Error} naming the first check that failed.
 */
export async function checkAlone({ dir, binary, env }, version) {
  const lines = [];
  const mock = await startMockCli({ command: [binary], cwd: dir, env });
  try {
    const { summary } = mock;
    if (summary.version !== version) throw new Error(`it says version ${summary.version}, not ${version}`);
    lines.push(`started alone (PATH without node) on ${summary.baseURL}: JSON line with its keys`);
    lines.push(await checkServes(summary));
    const code = await mock.stop();
    if (code !== 0) throw new Error(`SIGTERM: it exited with code ${code}, not 0`);
    await gone(summary.pid, 'the binary after SIGTERM');
    lines.push('SIGTERM: exit code 0, no process left');
  } finally {
    if (mock.child.exitCode === null && mock.child.signalCode === null) mock.child.kill('SIGKILL');
  }
  for (const how of /** @type {const} */ (['stdin', 'parent-pid'])) {
    const option = how === 'stdin' ? '--exit-on-stdin-close' : '--parent-pid';
    await checkStopsWithParent({ dir, binary, env }, how);
    lines.push(`its parent killed (SIGKILL): ${option} stopped it, no process left`);
  }
  return lines;
}

/**
 * A list with the key it printed, the admin API with its token (and not without it), the record the admin
 * API made in the list, and the watch page (which needs no token).
 *
 * @param {import('../lib/mock-cli.mjs').MockCliSummary} summary
 */
async function checkServes({ baseURL, adminURL, adminToken, keys }) {
  /** @returns {Promise<{ data: { id: string }[] }>} */
  const get = async (/** @type {string} */ url, /** @type {string} */ token) => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
    return /** @type {Promise<{ data: { id: string }[] }>} */ (response.json());
  };
  const list = await get(`${baseURL}/calls/?page_size=5`, keys.valid ?? '');
  if (list.data.length !== 5) throw new Error(`GET /v1/calls/?page_size=5 gave ${list.data.length} calls`);
  const refused = await fetch(`${adminURL}journal`);
  if (refused.status !== 401) throw new Error(`the admin API without its token answered ${refused.status}`);
  const created = await fetch(`${adminURL}records/calls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ summary: 'Made by the binary check' }),
  });
  if (created.status !== 201) throw new Error(`POST ${adminURL}records/calls: ${created.status}`);
  const { data: call } = /** @type {{ data: { id: string } }} */ (await created.json());
  const [newest] = (await get(`${baseURL}/calls/?page_size=1`, keys.valid ?? '')).data;
  if (newest?.id !== call.id) throw new Error('the call the admin API made is not the newest in the list');
  const journal = await get(`${adminURL}journal`, adminToken);
  // The watch page ships inside the binary: its page and script answer without a token, from the binary alone.
  const page = await fetch(`${adminURL}ui`);
  const script = await fetch(`${adminURL}ui/app.js`);
  if (page.status !== 200 || !(await page.text()).includes('<title>Company Data mock</title>'))
    throw new Error(`GET ${adminURL}ui: ${page.status}, not the watch page`);
  if (script.status !== 200 || (await script.text()).length < 1000)
    throw new Error(`GET ${adminURL}ui/app.js: ${script.status}, not the page's script`);
  return `a list with its key (5 calls), the admin API with its token (401 without; a call made, then listed first; ${journal.data.length} requests in its journal), the watch page without it`;
}

/**
 * Starts the binary from a parent that is then killed, and waits for the binary to be gone.
 *
 * @param {Alone} alone
 * @param {'stdin' | 'parent-pid'} how
 */
async function checkStopsWithParent({ dir, binary, env }, how) {
  const parent = spawn(process.execPath, [PARENT, how, '--', binary, '--port', '0', '--json'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  parent.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text;
  });
  /** @type {number | undefined} */
  let pid;
  const exited = once(parent, 'exit');
  try {
    const line = await Promise.race([
      once(createInterface({ input: parent.stdout }), 'line').then(([first]) => String(first)),
      exited.then(() => undefined),
    ]);
    if (line === undefined)
      throw new Error(`the parent exited before the binary printed its line:\n${stderr}`);
    pid = JSON.parse(line).pid;
    parent.kill('SIGKILL');
    await exited;
    await gone(pid ?? 0, `the binary after its parent died (${how})`);
  } finally {
    if (parent.exitCode === null && parent.signalCode === null) parent.kill('SIGKILL');
    if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
}
