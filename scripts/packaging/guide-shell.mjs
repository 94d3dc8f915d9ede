// One shell session, as a reader's terminal: the guides' commands run one after another in the same bash, so
// what a command leaves behind (a `cd`, an `export`, a variable) is there for the next one. A server a guide
// starts in "another terminal" runs in the background in a process group of its own, as a terminal's
// foreground job does: Ctrl+C is SIGINT to that group.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

const DONE = '@@guide-shell-done';
const STARTED = '@@guide-shell-started';
const STOP_TIMEOUT_MS = 10_000;

/**
 * A bash session a reader types into.
 *
 * @typedef {object} GuideShell
 * @property {string} cwd - the shell's current directory, after the last command.
 * @property {string[]} enter - the prefix that runs a program in the shell's network (none without one).
 * @property {(command: string, options: { timeoutMs: number }) => Promise<import('./process.mjs').RunResult>} run
 * @property {(command: string, options: { timeoutMs: number }) => Promise<{ output: string, stop: () => Promise<void> }>} start
 * @property {() => Promise<void>} close
 */

/**
 * Starts `bash` in `cwd` with exactly `env`, in `network` when one is given (scripts/packaging/network-namespace.mjs).
 * `dir` holds the session's files: each command, its output and that of each server. A failing command
 * anywhere in a pipe fails the line (`pipefail`), as a reader sees it fail.
 *
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, dir: string, network?: import('./network-namespace.mjs').IsolatedNetwork }} options
 * @returns {Promise<GuideShell>}
 */
export async function openShell({ cwd, env, dir, network }) {
  const [program = 'bash', ...args] = network
    ? await network.command('bash', ['--noprofile', '--norc'], dir)
    : ['bash', '--noprofile', '--norc'];
  const bash = spawn(program, args, {
    cwd,
    env,
    // A session of its own, as a terminal's: also, on Linux, a scheduler autogroup of its own, at normal
    // priority, so `npm test` can put check:packages' other work below the guides (scripts/test-steps.mjs).
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let shellErrors = '';
  bash.stderr.setEncoding('utf8').on('data', (text) => {
    shellErrors += text;
  });
  const exited = once(bash, 'exit');
  let link;
  try {
    link = network ? await network.attach(bash.pid ?? 0) : undefined;
  } catch (error) {
    killGroup(bash.pid ?? 0, 'SIGKILL');
    throw error;
  }
  bash.stdin.write('set -o pipefail\n');
  const lines = createInterface({ input: bash.stdout })[Symbol.asyncIterator]();
  let count = 0;
  let pwd = cwd;
  /** @type {{ command: string, pid: number, stop: () => Promise<void> }[]} */
  const servers = [];
  // Should this process exit before close() (Ctrl+C on the check), nothing it started outlives it.
  const onExit = () => {
    for (const server of servers) killGroup(server.pid, 'SIGKILL');
    killGroup(bash.pid ?? 0, 'SIGKILL');
  };
  process.on('exit', onExit);

  /**
   * Sends one line to bash and reads its stdout up to the line that starts with `marker`.
   *
   * @param {string} line
   * @param {string} marker
   * @param {number} timeoutMs
   */
  async function exchange(line, marker, timeoutMs) {
    bash.stdin.write(`${line}\n`);
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    /** @type {Promise<never>} */
    const timedOut = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    try {
      for (;;) {
        const next = await Promise.race([lines.next(), timedOut]);
        if (next.done) throw new Error(`the shell exited${shellErrors ? `: ${shellErrors.trim()}` : ''}`);
        if (next.value.startsWith(marker)) return next.value.slice(marker.length + 1);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** @param {string} command */
  async function commandFile(command) {
    count += 1;
    const base = path.join(dir, `command-${count}`);
    await writeFile(`${base}.sh`, `${command}\n`);
    return base;
  }

  /** @type {GuideShell} */
  const shell = {
    /** The shell's current directory, after the last command. */
    get cwd() {
      return pwd;
    },

    enter: network ? network.enter(bash.pid ?? 0) : [],

    /**
     * Runs `command` in the session, as if typed at the prompt, its input empty.
     *
     * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
     */
    async run(command, { timeoutMs }) {
      const base = await commandFile(command);
      const answer = await exchange(
        `. ${shellQuote(`${base}.sh`)} > ${shellQuote(`${base}.out`)} 2> ${shellQuote(`${base}.err`)} < /dev/null; printf '%s %s %s\\n' ${DONE} "$?" "$PWD"`,
        DONE,
        timeoutMs,
      );
      const [code, ...where] = answer.split(' ');
      pwd = where.join(' ');
      return {
        code: Number(code),
        stdout: readFileSync(`${base}.out`, 'utf8'),
        stderr: readFileSync(`${base}.err`, 'utf8'),
      };
    },

    /**
     * Starts `command` as a server in a terminal of its own (the session's directory and variables, a
     * process group of its own) and resolves once it is ready: it has printed an http(s) URL and then
     * nothing for a moment.
     *
     * @returns {Promise<{ output: string, stop: () => Promise<void> }>} what it printed by then, and Ctrl+C.
     */
    async start(command, { timeoutMs }) {
      const base = await commandFile(command);
      const log = `${base}.log`;
      const pid = Number(
        await exchange(
          `set -m; ( . ${shellQuote(`${base}.sh`)} ) > ${shellQuote(log)} 2>&1 < /dev/null & printf '%s %s\\n' ${STARTED} "$!"; set +m`,
          STARTED,
          timeoutMs,
        ),
      );
      const server = {
        command,
        pid,
        stop: async () => {
          servers.splice(servers.indexOf(server), 1);
          await interrupt(pid);
        },
      };
      servers.push(server);
      const output = await ready(log, pid, timeoutMs);
      return { output, stop: server.stop };
    },

    /** Ctrl+C for every server still running, then the shell's own exit. */
    async close() {
      /** @type {string[]} */
      const problems = [];
      for (const server of [...servers].reverse()) {
        try {
          await server.stop();
        } catch (error) {
          problems.push(`\`${server.command}\`: ${error instanceof Error ? error.message : error}`);
        }
      }
      if (bash.exitCode === null && bash.signalCode === null) {
        bash.stdin.end('exit\n');
        const timer = setTimeout(() => killGroup(bash.pid ?? 0, 'SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      await link?.stop();
      process.off('exit', onExit);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    },
  };
  return shell;
}

/**
 * Waits for the server's log to show an address, then to settle; fails when the server exits first.
 *
 * @param {string} log - the file its output goes to.
 * @param {number} pid - its process group.
 * @param {number} timeoutMs
 */
async function ready(log, pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let seen = '';
  let quietSince = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The server's shell opens its log once it is scheduled: on a busy machine, not yet.
    const output = existsSync(log) ? readFileSync(log, 'utf8') : '';
    if (output !== seen) {
      seen = output;
      quietSince = Date.now();
    }
    const alive = groupAlive(pid);
    if (!alive) throw new Error(`exited before it was ready; it printed:\n${seen.trim() || '(nothing)'}`);
    // A whole line that shows an address (the JSON banner holds more after its last one).
    if (/https?:\/\/\S+.*\n/.test(seen) && Date.now() - quietSince >= 300) return seen;
    if (Date.now() > deadline) {
      await interrupt(pid).catch(() => {});
      throw new Error(
        `printed no address within ${timeoutMs / 1000} s; it printed:\n${seen.trim() || '(nothing)'}`,
      );
    }
  }
}

/**
 * Ctrl+C: SIGINT to the process group, then SIGKILL if it is still there after a while.
 *
 * @param {number} pid
 */
async function interrupt(pid) {
  killGroup(pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (groupAlive(pid)) {
    if (Date.now() > deadline) {
      killGroup(pid, 'SIGKILL');
      throw new Error(`did not stop within ${STOP_TIMEOUT_MS / 1000} s of Ctrl+C`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** @param {number} pid */
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {number} pid - the group's leader; 0 (no process) does nothing.
 * @param {NodeJS.Signals} signal
 */
function killGroup(pid, signal) {
  if (pid === 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Text quoted for bash, as one word. */
export const shellQuote = (/** @type {string} */ text) => `'${text.replaceAll("'", "'\\''")}'`;
