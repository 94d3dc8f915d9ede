// A PostgreSQL server of a test's or a script's own, as the Redis gate's tests have their redis-server:
// `initdb` into a temporary data directory, then `postgres` started directly (no pg_ctlcluster, no
// systemd) on a free port of 127.0.0.1, its Unix socket inside that directory, trusting every local
// connection (a throwaway: nothing else listens there) and never syncing to disk (the tests do not test
// the server's durability).
//
// PostgreSQL refuses to run as root. As root (a container, CI), `initdb` and `postgres` run as the
// `postgres` user that Debian's package creates, in a directory that user owns. They are started with
// that user's ids (node's spawn `uid`/`gid`: setgid and setuid, then exec), not through `runuser -u
// postgres --`: runuser stays as the server's parent, so the pid we hold would be runuser's, and it neither
// passes SIGINT (the fast shutdown) on nor takes the server with it when killed.
//
// Nothing outlives this process: on its exit the server is killed and its directory removed, and a small
// watchdog (`sh`, reading a pipe from this process) kills the server should this process die without an
// exit (SIGKILL, or SIGTERM without a handler, as a test runner ends a worker).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  accessSync,
  chownSync,
  constants,
  existsSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findProgram, installHint, programOrSkip } from '../system-packages.mjs';
import { freePort } from './free-port.mjs';

/** initdb and the start together; about 0.7 s on an idle 2-core machine, far more beside `npm test`. */
const STARTUP_MS = 60_000;
/** After a fast shutdown's SIGINT, the wait before SIGKILL. */
const STOP_MS = 10_000;
/** How long a restart waits for a killed postmaster's backends to let go of its port and shared memory. */
const RESTART_MS = 10_000;
/** What the postmaster logs once it accepts connections (its messages are in English: `--locale=C`). */
const READY = 'database system is ready to accept connections';
/** The last this many characters of the server's log are kept, for the error when it fails. */
const LOG_KEPT = 64 * 1024;
/** The superuser initdb makes, and the database every cluster has. */
const USER = 'postgres';
const DATABASE = 'postgres';

/**
 * A PostgreSQL server of the caller's own.
 *
 * @typedef {object} PostgresServer
 * @property {string} url - `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser, no password
 *   (trust), the database `postgres`.
 * @property {number} port - on 127.0.0.1.
 * @property {number} pid - the postmaster's own.
 * @property {string} dir - its data directory, also its Unix socket's (`host=<dir>` connects through it).
 * @property {(options?: { keep?: boolean }) => Promise<void>} stop - fast shutdown (SIGINT; SIGKILL after
 *   10 s), waits for the exit, removes the directory. Idempotent, also after {@link PostgresServer.kill}.
 *   `keep: true` keeps the directory, for {@link PostgresServer.restart}: a server stopped under a client.
 * @property {() => Promise<void>} kill - SIGKILL, as if the machine went away, and waits for the exit; the
 *   directory stays until {@link PostgresServer.stop} (or this process's exit).
 * @property {() => Promise<void>} restart - after `stop({ keep: true })` or {@link PostgresServer.kill}, starts
 *   the postmaster again on the same directory and port (after a kill, PostgreSQL recovers its data first)
 *   and resolves once it accepts connections: the same data at the same URL. `pid` is the new postmaster's.
 */

/** @type {Set<{ child: import('node:child_process').ChildProcess, watchdog: import('node:child_process').ChildProcess, dir: string }>} */
const running = new Set();

process.on('exit', () => {
  for (const { child, watchdog, dir } of running) {
    watchdog.kill('SIGKILL');
    if (alive(child)) child.kill('SIGKILL');
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // a backend of the killed server still writing: the directory is a temporary one
    }
  }
});

/**
 * The path of `postgres` for a test or check that needs PostgreSQL, to give {@link startPostgres}. Where it
 * is missing: under CI, throws (CI never skips); elsewhere, prints one loud line saying what to run and
 * returns undefined, and the caller skips (`describe.skipIf(postgresOrSkip() === undefined)`).
 *
 * @param {{ env?: NodeJS.ProcessEnv, log?: (line: string) => void }} [options]
 * @returns {string | undefined}
 */
export function postgresOrSkip(options = {}) {
  return programOrSkip('postgres', options);
}

/**
 * Starts a PostgreSQL server on a free port of 127.0.0.1 in a temporary data directory of its own, and
 * resolves once it accepts connections.
 *
 * @param {{ postgres?: string, durable?: boolean }} [options] - `postgres`: the server's binary (as
 *   {@link postgresOrSkip} returns it), `initdb` beside it, symbolic links followed; default: found as
 *   system-packages.mjs finds it. `durable`: PostgreSQL's own durability (fsync, full page writes, commits
 *   waiting for their WAL), for a benchmark that compares with a writer that flushes its own; default off, as
 *   a test does not test the server's durability.
 * @returns {Promise<PostgresServer>}
 * @throws {Error} when PostgreSQL is missing (saying what installs it), or initdb or the server fails
 *   (with their output).
 */
export async function startPostgres({ postgres = findProgram('postgres'), durable = false } = {}) {
  if (postgres === undefined || !existsSync(postgres)) {
    throw new Error(
      `no PostgreSQL server on this machine (${postgres ?? 'postgres'}, from Debian's package postgresql): run \`node scripts/system-packages.mjs\` as root, or \`${installHint(['postgresql'])}\``,
    );
  }
  const bin = path.dirname(realpathSync(postgres));
  const initdb = path.join(bin, 'initdb');
  try {
    accessSync(initdb, constants.X_OK);
  } catch {
    throw new Error(`no initdb beside ${realpathSync(postgres)}: is ${bin} a whole PostgreSQL installation?`);
  }
  const ids = await serverIds();
  const dir = mkdtempSync(path.join(tempBase(ids), 'company-data-postgres-'));
  try {
    if (ids !== undefined) chownSync(dir, ids.uid, ids.gid);
    const how = { ...ids, cwd: dir, env: { ...process.env, LC_ALL: 'C' } };
    const init = await run(
      initdb,
      ['-D', dir, '-U', USER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      how,
    );
    if (init.code !== 0) throw new Error(`initdb exited with code ${init.code}:\n${init.output.trim()}`);
    // Another process may take the free port before the server binds it: then again on another one.
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await serve(path.join(bin, 'postgres'), dir, await freePort(), how, durable);
      } catch (error) {
        if (attempt === 3 || !(error instanceof PortTaken)) throw error;
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The server could not bind its port: another process took it. */
class PortTaken extends Error {}

/**
 * Starts `postgres` on `dir` and `port` and resolves once it accepts connections.
 *
 * @param {string} program
 * @param {string} dir
 * @param {number} port
 * @param {{ uid?: number, gid?: number, cwd: string, env: NodeJS.ProcessEnv }} how
 * @param {boolean} durable - keep PostgreSQL's defaults for durability.
 * @returns {Promise<PostgresServer>}
 */
async function serve(program, dir, port, how, durable) {
  let postmaster = await launch(program, dir, port, how, durable);

  /** @type {Promise<void> | undefined} */
  let stopping;
  /** Whether a stop removed the directory: then nothing restarts. */
  let removed = false;
  /** Fast shutdown of the running postmaster, if any, and the wait for its exit. */
  const shutdown = async () => {
    const { child, exited } = postmaster;
    if (alive(child)) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
      await exited;
      clearTimeout(timer);
    }
  };
  return {
    url: `postgres://${USER}@127.0.0.1:${port}/${DATABASE}`,
    port,
    get pid() {
      return postmaster.pid;
    },
    dir,
    async kill() {
      if (alive(postmaster.child)) postmaster.child.kill('SIGKILL');
      await postmaster.exited;
    },
    stop({ keep = false } = {}) {
      stopping ??= (async () => {
        await shutdown();
        if (keep) return;
        removed = true;
        running.delete(postmaster.entry);
        // After a kill(), a backend may outlive the postmaster for a moment.
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      })();
      const stopped = stopping;
      // A stop that keeps the directory may be followed by a restart, then by another stop.
      if (keep) void stopped.finally(() => (stopping = undefined));
      return stopped;
    },
    async restart() {
      if (removed) throw new Error(`the server on ${dir} was stopped for good: nothing to restart`);
      await stopping;
      if (alive(postmaster.child)) throw new Error(`the server on ${dir} is running: stop or kill it first`);
      running.delete(postmaster.entry);
      // A backend of a killed postmaster may hold the port or the shared memory a moment longer.
      const deadline = performance.now() + RESTART_MS;
      for (;;) {
        try {
          postmaster = await launch(program, dir, port, how, durable);
          return;
        } catch (error) {
          const busy = error instanceof NotYetFree || error instanceof PortTaken;
          if (performance.now() > deadline || !busy) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
  };
}

/** A restart that finds what the last postmaster held (its port, its shared memory) not yet given back. */
class NotYetFree extends Error {}

/**
 * Starts the postmaster and resolves once it accepts connections, with its watchdog.
 *
 * @param {string} program
 * @param {string} dir
 * @param {number} port
 * @param {{ uid?: number, gid?: number, cwd: string, env: NodeJS.ProcessEnv }} how
 * @param {boolean} durable
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, exited: Promise<string>, pid: number, entry: { child: import('node:child_process').ChildProcess, watchdog: import('node:child_process').ChildProcess, dir: string } }>}
 */
async function launch(program, dir, port, how, durable) {
  const args = ['-D', dir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'];
  if (!durable) args.push('-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off');
  const child = spawn(program, args, { ...how, stdio: ['ignore', 'ignore', 'pipe'] });
  /** @type {Promise<string>} how it ended: its exit code or signal, or why it could not start. */
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(`exited (${code ?? signal})`));
    child.once('error', (error) => {
      if (child.pid === undefined) resolve(`could not start: ${error.message}`);
    });
  });
  let log = '';
  /** @type {() => void} */
  let onLog = () => {};
  child.stderr?.setEncoding('utf8').on('data', (/** @type {string} */ text) => {
    log = (log + text).slice(-LOG_KEPT);
    onLog();
  });
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  try {
    await Promise.race([
      new Promise((resolve) => {
        onLog = () => log.includes(READY) && resolve(undefined);
      }),
      exited.then((how) => {
        const message = `${program} ${how} before it accepted connections:\n${log.trim()}`;
        if (/could not bind|already in use/.test(log)) throw new PortTaken(message);
        if (/shared memory block .* is still in use|lock file .* already exists/.test(log))
          throw new NotYetFree(message);
        throw new Error(message);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`postgres did not start within ${STARTUP_MS / 1000} s:\n${log.trim()}`)),
          STARTUP_MS,
        );
      }),
    ]);
  } catch (error) {
    if (alive(child)) child.kill('SIGKILL');
    await exited;
    throw error;
  } finally {
    clearTimeout(timer);
    onLog = () => {};
  }
  const pid = /** @type {number} */ (child.pid);
  const watchdog = startWatchdog(pid, dir);
  const entry = { child, watchdog, dir };
  running.add(entry);
  // However it ends, the watchdog goes with it: it must never signal a pid since given to another process.
  void exited.then(() => watchdog.kill('SIGKILL'));
  return { child, exited, pid, entry };
}

/**
 * A process that kills the server (and removes its directory) once this process is gone, however it went:
 * it waits for the end of a pipe only this process holds open.
 *
 * @param {number} pid
 * @param {string} dir
 */
function startWatchdog(pid, dir) {
  const watchdog = spawn(
    'sh',
    [
      '-c',
      'read _; kill -KILL "$1" 2>/dev/null; sleep 1; rm -rf "$2"',
      'postgres-watchdog',
      String(pid),
      dir,
    ],
    { stdio: ['pipe', 'ignore', 'ignore'] },
  );
  // Neither it nor its pipe keeps this process alive.
  watchdog.unref();
  const pipe = /** @type {import('node:net').Socket} */ (watchdog.stdin);
  pipe.on('error', () => {});
  pipe.unref();
  return watchdog;
}

/**
 * The ids to run PostgreSQL's programs with: as root, the `postgres` user's (PostgreSQL refuses root);
 * otherwise none (this process's own).
 *
 * @returns {Promise<{ uid: number, gid: number } | undefined>}
 */
async function serverIds() {
  if (process.getuid?.() !== 0) return undefined;
  const entry = await run('getent', ['passwd', USER], {});
  const [, , uid, gid] = entry.output.trim().split(':');
  if (entry.code !== 0 || uid === undefined || gid === undefined) {
    throw new Error(
      `PostgreSQL refuses to run as root, and there is no ${USER} user to run it as (Debian's package postgresql creates it): run \`node scripts/system-packages.mjs\` as root`,
    );
  }
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Where the data directory goes: the system's temporary folder, when the user the server runs as can reach
 * it. As root, the `postgres` user must pass through every folder above it: a TMPDIR of root's own (0700)
 * would stop it, and then /tmp serves.
 *
 * @param {{ uid: number, gid: number } | undefined} ids
 */
function tempBase(ids) {
  if (ids === undefined) return os.tmpdir();
  const candidates = [os.tmpdir(), '/tmp'];
  const reachable = candidates.find((base) => passable(base, ids));
  if (reachable === undefined) {
    throw new Error(
      `the ${USER} user cannot reach a temporary folder for PostgreSQL's data: neither of ${candidates.join(', ')} is open to it (each folder above needs the x permission for others)`,
    );
  }
  return reachable;
}

/**
 * Whether a process with `ids` may pass through `dir` and every folder above it.
 *
 * @param {string} dir
 * @param {{ uid: number, gid: number }} ids
 */
function passable(dir, { uid, gid }) {
  for (let folder = path.resolve(dir); ; folder = path.dirname(folder)) {
    let stat;
    try {
      stat = statSync(folder);
    } catch {
      return false;
    }
    const bit = stat.uid === uid ? 0o100 : stat.gid === gid ? 0o010 : 0o001;
    if ((stat.mode & bit) === 0) return false;
    if (folder === path.dirname(folder)) return true;
  }
}

/**
 * Runs a program to its end.
 *
 * @param {string} program
 * @param {readonly string[]} args
 * @param {{ uid?: number, gid?: number, cwd?: string, env?: NodeJS.ProcessEnv }} how
 * @returns {Promise<{ code: number, output: string }>} its exit code (1 when it could not start) and its
 *   stdout and stderr together.
 */
async function run(program, args, how) {
  const child = spawn(program, args, { ...how, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (/** @type {string} */ text) => {
    output += text;
  };
  child.stdout.setEncoding('utf8').on('data', collect);
  child.stderr.setEncoding('utf8').on('data', collect);
  try {
    const [code] = await once(child, 'close');
    return { code: code ?? 1, output };
  } catch (error) {
    return {
      code: 1,
      output: `could not start ${program}: ${error instanceof Error ? error.message : error}`,
    };
  }
}

/** @param {import('node:child_process').ChildProcess} child */
const alive = (child) => child.exitCode === null && child.signalCode === null;
