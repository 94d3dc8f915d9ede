// One mock server kept across runs of `examples/with-mock.mjs --keep`, so that what a run changed (an export's
// progress, contacts imported, an hour of the company's life) is there for the next one. A detached keeper
// process holds it (scripts/lib/kept-mock-keeper.mjs); a file in the clone names it, so any run finds it and
// no temporary folder is left behind. It stops on `with-mock.mjs --stop`, or after KEPT_MOCK_IDLE_MS unused.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

/** The variable that names another file for the kept mock: a test's or a check's own. */
export const KEPT_MOCK_FILE_VARIABLE = 'COMPANY_DATA_KEPT_MOCK';

/** Where the kept mock is named, unless {@link KEPT_MOCK_FILE_VARIABLE} names another file. */
export function keptMockFile() {
  return (
    process.env[KEPT_MOCK_FILE_VARIABLE] ??
    path.resolve(import.meta.dirname, '../../node_modules/.cache/company-data/kept-mock.json')
  );
}

/** How long a kept mock waits unused before it stops: 30 minutes. */
export const KEPT_MOCK_IDLE_MS = 30 * 60_000;

/**
 * What the keeper records: its pid, the mock's arguments, since when, and what the mock printed.
 *
 * @typedef {object} KeptMock
 * @property {number} keeperPid
 * @property {string[]} args
 * @property {string} since - ISO time it started.
 * @property {import('./mock-cli.mjs').MockCliSummary} summary
 */

/**
 * Whether a process with this pid runs (EPERM: it does, as another user's).
 *
 * @param {number} pid
 */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * The kept mock that runs, if one does. A file left by a keeper that was killed is removed.
 *
 * @param {string} [file] - the file that names it.
 * @returns {KeptMock | undefined}
 */
export function runningKeptMock(file = keptMockFile()) {
  /** @type {KeptMock} */
  let kept;
  try {
    kept = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  // Both pids: after a restart of the machine, another process may have either one.
  if (alive(kept.keeperPid) && alive(kept.summary.pid)) return kept;
  rmSync(file, { force: true });
  return undefined;
}

/**
 * The kept mock, started with `args` if none runs. One that runs is used as it is when `args` is empty or the
 * same as its own; other `args` would silently not apply, so they are refused.
 *
 * @param {readonly string[]} args - arguments of `company-data-mock`.
 * @returns {Promise<KeptMock & { started: boolean }>}
 * @throws {Error} saying how to go on when a kept mock runs with other arguments, or when it fails to start.
 */
export async function useKeptMock(args) {
  const running = runningKeptMock();
  if (running) {
    const same = args.length === 0 || JSON.stringify(args) === JSON.stringify(running.args);
    if (!same)
      throw new Error(
        `A kept mock runs with ${running.args.join(' ') || 'no options'}, not ${args.join(' ')}: use it without --mock- options, or stop it first with \`node examples/with-mock.mjs --stop\`.`,
      );
    touchKeptMock();
    return { ...running, started: false };
  }
  const file = keptMockFile();
  mkdirSync(path.dirname(file), { recursive: true });
  const keeper = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'kept-mock-keeper.mjs'), file, String(KEPT_MOCK_IDLE_MS), ...args],
    { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const lines = createInterface({ input: keeper.stdout });
  /** @type {string | undefined} */
  let line;
  for await (const first of lines) {
    line = first;
    break;
  }
  keeper.stdout.destroy();
  keeper.unref();
  const said = JSON.parse(line ?? '{"error":"the keeper ended before it said anything"}');
  if (said.kept) return { ...said.kept, started: true };
  // Another run started one at the same moment: use that one.
  if (said.code === 'EEXIST') return useKeptMock(args);
  throw new Error(said.error);
}

/** Marks the kept mock used now, so it does not stop while someone works with it. */
export function touchKeptMock() {
  const now = new Date();
  try {
    utimesSync(keptMockFile(), now, now);
  } catch {
    // Stopped meanwhile: the next run starts another.
  }
}

/**
 * Stops the kept mock, if one runs, and waits until it is gone (at most 10 s).
 *
 * @param {string} [file] - the file that names it.
 * @returns {Promise<KeptMock | undefined>} the one stopped, or undefined when none ran.
 */
export async function stopKeptMock(file = keptMockFile()) {
  const kept = runningKeptMock(file);
  if (!kept) return undefined;
  process.kill(kept.keeperPid, 'SIGTERM');
  for (let waited = 0; alive(kept.keeperPid) && waited < 10_000; waited += 50) await sleep(50);
  return kept;
}
