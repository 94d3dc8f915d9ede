// The guides' pytest commands, in shell blocks marked `with-pytest` (scripts/packaging/guide-snippets.mjs): the
// guide runner runs them in the guides' shell, in the project, with Debian's pytest and pytest-xdist for
// Debian's own Python 3, which `npm test` installs (scripts/system-packages.mjs). Missing, the command is
// skipped loudly (and under CI the run fails). Run, its output must show every test passed, and for `-n N`
// that N workers each ran some: a suite meant to run in parallel that ran in one process proves nothing.

/** What a `with-pytest` command needs, as scripts/system-packages.mjs names it. */
export const PYTEST_NEEDS = ['pytest-3', 'xdist'];

/**
 * The command as the check runs it: verbose (`-v`, which the reader's command does not need), so that each
 * passed test names the worker that ran it; and with pytest's temporary folders in the project
 * (`--basetemp`), removed with it. Where the reader runs it, pytest keeps them in the system's temporary
 * folder (`pytest-of-<user>`, which pytest-xdist makes for its workers whether a test asks for one or not),
 * and `npm test` fails on anything left there.
 *
 * @param {string} command
 */
export const verbosePytest = (command) => `PYTEST_ADDOPTS='-v --basetemp=.pytest-tmp' ${command}`;

/**
 * Reads a verbose pytest run's output.
 *
 * @param {string} command - as the guide writes it (`pytest-3 -n 8 parallel-suite`).
 * @param {string} output - what it printed.
 * @returns {string} one line: the counts, and the workers that ran tests.
 * @throws {Error} when no test passed, or when fewer workers ran tests than `-n` asks.
 */
export function pytestOutcome(command, output) {
  const summary = /^=+ (.*\bpassed\b.*) in ([\d.]+)s\b.*=+$/m.exec(output);
  const passed = Number(/(\d+) passed/.exec(summary?.[1] ?? '')?.[1] ?? 0);
  if (!summary || passed === 0)
    throw new Error(
      `\`${command}\`: no passed tests in its output\n${output.trim().split('\n').slice(-20).join('\n')}`,
    );
  /** @type {Map<string, number>} */
  const byWorker = new Map();
  for (const [, worker] of output.matchAll(/^\[(gw\d+)\] \[\s*\d+%\] PASSED /gm))
    byWorker.set(worker ?? '', (byWorker.get(worker ?? '') ?? 0) + 1);
  const asked = Number(/(?:^|\s)(?:-n|--numprocesses)[=\s]*(\d+)\b/.exec(command)?.[1] ?? 0);
  if (byWorker.size < asked)
    throw new Error(
      `\`${command}\`: ${asked} workers asked, but ${byWorker.size} ran tests (${[...byWorker.keys()].join(', ') || 'none: did pytest-xdist load?'})`,
    );
  const shares = [...byWorker.values()];
  const workers =
    byWorker.size === 0
      ? 'in one process'
      : `on ${byWorker.size} workers, each ran ${Math.min(...shares)}${Math.max(...shares) > Math.min(...shares) ? ` to ${Math.max(...shares)}` : ''}`;
  return `${summary[1]} in ${summary[2]} s, ${workers}`;
}
