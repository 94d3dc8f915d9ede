// Runs a set of steps (commands) side by side as far as a declared graph allows: a step starts once the steps
// it comes `after` passed, while fewer than `jobs` steps run.
// Each step's output (stdout and stderr, interleaved as written) is kept and printed whole when it ends, under
// its name and time, so parallel steps never mix their lines. The first failure stops the running steps and
// starts no more; the run then fails. A final line sums up; a table of the steps' times comes before it.
//
// `npm test` declares its steps in scripts/test.mjs. The launcher is a parameter so the scheduling can be
// tested without processes.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * @typedef {object} Step
 * @property {string} name - shown in the output, and what `after` refers to.
 * @property {string[]} command - the program and its arguments (`npm` works on every platform).
 * @property {string[]} [after] - the names of the steps that must pass before this one starts.
 * @property {number} [nice] - runs at this lower CPU priority (a niceness, 1 to 19; what it starts inherits it):
 *   the step takes the cores mostly as far as the steps at normal priority leave them, so it slows them
 *   little.
 * @property {string} [why] - why it is ordered as it is; for the reader of the step list.
 */

/**
 * @typedef {object} Launched
 * @property {Promise<{ code: number, output: string }>} done - resolves when the step's process has exited
 *   (code 0: passed); never rejects.
 * @property {() => void} stop - stops the step and whatever it started.
 */

/** @typedef {(step: Step) => Launched} Launcher */

/**
 * @typedef {object} StepResult
 * @property {string} name
 * @property {'passed' | 'failed' | 'stopped' | 'not run'} outcome
 * @property {number} [ms] - how long it ran, for a step that started.
 * @property {number} [startedAt] - when it started, in ms after the run's start.
 */

/**
 * @typedef {object} RunOptions
 * @property {number} jobs - how many steps run at once, at most.
 * @property {Launcher} [launch] - starts a step; default {@link launchProcess}.
 * @property {(text: string) => void} [print] - where the report goes; default stdout.
 * @property {() => number} [now] - the clock, in ms; default `performance.now`.
 * @property {AbortSignal} [signal] - when aborted (Ctrl-C), the running steps are stopped and no more start.
 * @property {boolean} [keepGoing] - after a failure, let the other steps run on and start those that do not
 *   need the failed one (to see every failure, or every step's time, in one run).
 */

/**
 * Runs `steps` as their graph allows, with at most `jobs` at once (in the listed order when several may
 * start), printing each one's output whole when it ends.
 *
 * @param {readonly Step[]} steps
 * @param {RunOptions} options
 * @returns {Promise<{ ok: boolean, results: StepResult[], ms: number }>} every step's outcome, in the listed
 *   order; `ok` when all passed.
 * @throws {Error} before starting anything, when the graph names an unknown step, repeats a name or has a cycle.
 */
export async function runSteps(
  steps,
  { jobs, launch = launchProcess, print = writeOut, now = clock, signal, keepGoing = false },
) {
  checkGraph(steps);
  const started = now();
  /** @type {Map<string, StepResult>} */
  const results = new Map(steps.map((step) => [step.name, { name: step.name, outcome: 'not run' }]));
  /** @type {Map<string, { step: Step, launched: Launched }>} */
  const running = new Map();
  const passed = new Set();
  let failed = false;
  const stopping = () => signal?.aborted || (failed && !keepGoing);

  /** @type {(value?: unknown) => void} */
  let wake = () => {};
  const stopAll = () => {
    for (const { launched } of running.values()) launched.stop();
  };
  signal?.addEventListener('abort', () => {
    stopAll();
    wake();
  });
  while (true) {
    if (!stopping()) {
      for (const step of steps) {
        if (running.size >= Math.max(1, jobs)) break;
        if (results.get(step.name)?.outcome !== 'not run' || running.has(step.name)) continue;
        if (!(step.after ?? []).every((name) => passed.has(name))) continue;
        start(step);
      }
    }
    if (running.size === 0) break;
    await new Promise((resolve) => {
      wake = resolve;
    });
  }

  /** @param {Step} step */
  function start(step) {
    const stepStarted = now();
    print(`▶ ${step.name}\n`);
    const launched = launch(step);
    running.set(step.name, { step, launched });
    const result = /** @type {StepResult} */ (results.get(step.name));
    result.startedAt = stepStarted - started;
    launched.done.then(({ code, output }) => {
      running.delete(step.name);
      result.ms = now() - stepStarted;
      if (stopping()) {
        result.outcome = 'stopped';
        const why = signal?.aborted ? 'interrupted' : 'another step failed';
        print(`■ ${step.name}: stopped after ${seconds(result.ms)} (${why})\n`);
      } else {
        result.outcome = code === 0 ? 'passed' : 'failed';
        const mark = code === 0 ? '✔' : '✘';
        const how = code === 0 ? 'passed' : `FAILED (exit code ${code})`;
        print(
          `${frame(`${mark} ${step.name}`)}\n${withNewline(output)}${mark} ${step.name}: ${how} in ${seconds(result.ms)}\n`,
        );
        if (code === 0) {
          passed.add(step.name);
        } else {
          failed = true;
          if (!keepGoing) stopAll();
        }
      }
      wake();
    });
  }

  const ms = now() - started;
  const list = [...results.values()];
  print(`\n${timeTable(list)}\n${summaryLine(list, ms)}\n`);
  return { ok: list.every((result) => result.outcome === 'passed'), results: list, ms };
}

/**
 * Throws when a step repeats a name, comes after a step that does not exist, or the `after` arrows form a
 * cycle (the run would never end).
 *
 * @param {readonly Step[]} steps
 */
export function checkGraph(steps) {
  const names = new Set();
  for (const step of steps) {
    if (names.has(step.name)) throw new Error(`two steps are named "${step.name}"`);
    names.add(step.name);
  }
  for (const step of steps) {
    for (const name of step.after ?? []) {
      if (!names.has(name)) throw new Error(`step "${step.name}" comes after "${name}", which is no step`);
    }
  }
  const byName = new Map(steps.map((step) => [step.name, step]));
  /** @type {Set<string>} */
  const done = new Set();
  /** @param {string} name @param {string[]} path */
  const visit = (name, path) => {
    if (path.includes(name)) throw new Error(`the steps wait on each other: ${[...path, name].join(' → ')}`);
    if (done.has(name)) return;
    for (const before of byName.get(name)?.after ?? []) visit(before, [...path, name]);
    done.add(name);
  };
  for (const step of steps) visit(step.name, []);
}

/**
 * One line: how many steps passed and the wall time, or which step failed and what it stopped or left out.
 *
 * @param {readonly StepResult[]} results
 * @param {number} ms
 */
export function summaryLine(results, ms) {
  const named = (/** @type {StepResult['outcome']} */ outcome) =>
    results.filter((result) => result.outcome === outcome).map((result) => result.name);
  const failed = named('failed');
  const stopped = named('stopped');
  const notRun = named('not run');
  if (failed.length + stopped.length + notRun.length === 0) {
    return `all ${results.length} steps passed in ${seconds(ms)}`;
  }
  const parts = [failed.length > 0 ? `FAILED: ${failed.join(', ')}` : 'INTERRUPTED'];
  if (stopped.length > 0) parts.push(`stopped: ${stopped.join(', ')}`);
  if (notRun.length > 0) parts.push(`not run: ${notRun.join(', ')}`);
  return `${parts.join('; ')} (after ${seconds(ms)})`;
}

/**
 * Each step that started: when it started, how long it ran and how it ended, in the order they started.
 *
 * @param {readonly StepResult[]} results
 */
export function timeTable(results) {
  const ran = results
    .filter((result) => result.startedAt !== undefined)
    .sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0));
  const width = Math.max(...ran.map((result) => result.name.length), 4);
  return ran
    .map(
      (result) =>
        `  ${result.name.padEnd(width)}  from ${seconds(result.startedAt ?? 0).padStart(10)}  took ${seconds(result.ms ?? 0).padStart(10)}  ${result.outcome}`,
    )
    .join('\n');
}

/**
 * Starts a step's command as a child process in its own process group, at the step's priority, keeping its
 * output.
 *
 * @type {Launcher}
 */
export function launchProcess(step) {
  const [program = '', ...args] = step.command;
  const windows = process.platform === 'win32';
  // npm is a .cmd shim on Windows, which only runs through a shell.
  const child = spawn(windows && program === 'npm' ? 'npm.cmd' : program, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: windows,
    // Its own process group, so `stop` reaches what the step started (vitest's workers, a mock server).
    detached: !windows,
  });
  if (step.nice !== undefined && child.pid !== undefined) lowerPriority(child.pid, step.nice);
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
      output += chunk;
    });
  }
  const done = new Promise((resolve) => {
    child.on('error', (error) =>
      resolve({ code: 1, output: `${output}could not start: ${error.message}\n` }),
    );
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
  return {
    done: /** @type {Launched['done']} */ (done),
    stop: () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        if (windows) child.kill();
        else process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * Lowers a step's priority, as soon as it runs: long before the program has loaded enough to start anything,
 * so what it starts inherits the priority. On Linux a step is also a session of its own (`detached`), and
 * with the scheduler's autogroups (the default of most distributions) each session shares the cores equally
 * with the others, whatever the niceness of its processes: there the session's autogroup takes the niceness
 * too, or the step would still take as much as the chain.
 *
 * @param {number} pid
 * @param {number} nice
 */
function lowerPriority(pid, nice) {
  try {
    setPriority(pid, nice);
  } catch {
    // Gone already (it failed to start: reported with its output), or the system refuses: it runs as it is.
  }
  const autogroup = `/proc/${pid}/autogroup`;
  if (process.platform !== 'linux' || !existsSync(autogroup)) return;
  try {
    writeFileSync(autogroup, String(nice));
  } catch {
    // As above.
  }
}

/** @param {number} ms */
function seconds(ms) {
  return ms >= 60_000
    ? `${Math.floor(ms / 60_000)} min ${((ms % 60_000) / 1000).toFixed(0)} s`
    : `${(ms / 1000).toFixed(1)} s`;
}

/** @param {string} title */
const frame = (title) => `${'─'.repeat(3)} ${title} ${'─'.repeat(Math.max(3, 100 - title.length))}`;
/** @param {string} text */
const withNewline = (text) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
/** @param {string} text */
const writeOut = (text) => {
  process.stdout.write(text);
};
const clock = () => performance.now();
