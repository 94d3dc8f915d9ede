// Follows the guides as a newcomer does: the steps of scripts/packaging/guide-snippets.mjs, in one shell
// session (scripts/packaging/guide-shell.mjs) that starts in an empty home folder. Each command runs as
// written, its placeholders filled as the reader fills them (scripts/packaging/placeholders.mjs); a server
// a guide starts keeps running for the guides after it, as in a second terminal, until the end. The first
// command that fails (a non-zero exit, an unmet `// → ` promise, a server that does not start) fails the run,
// named by guide and line: the reader would have stopped there too.
//
// The environment is a reader's: `HOME` is the empty folder (so `~/company-data-packages` lands there), with
// two settings a reader's machine may well have: npm's cache and user config are the caller's (installs stay
// fast and reach the caller's registry), and `~/.curlrc` says `fail-with-body`, so that an HTTP error a
// reader would see in curl's output fails the command here. Its database is the caller's choice
// (`databaseUrl`, as DATABASE_URL), never the database of the caller's own environment.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { KEPT_MOCK_FILE_VARIABLE, stopKeptMock } from '../lib/kept-mock.mjs';
import { programOrSkip } from '../system-packages.mjs';
import { openShell, shellQuote as quote } from './guide-shell.mjs';
import { unmetPromise } from './guide-snippets.mjs';
import { fillPlaceholders } from './placeholders.mjs';
import { PYTEST_NEEDS, pytestOutcome, verbosePytest } from './pytest-run.mjs';
import { openPythonSession } from './python-session.mjs';
import { batchFailure, batchFile, outputBySnippet, snippetFile } from './snippet-batch.mjs';

/** How npm 11 starts each line of its warning about dependencies' install scripts no `allowScripts` entry decides on. */
const UNDECIDED_SCRIPTS = 'npm warn install-scripts';
/** The program a guide's Python snippets are pasted into, as scripts/system-packages.mjs names it. */
const PYTHON = 'python3';
// An install may take a while; anything else must finish within the snippets' old limit.
const INSTALL_TIMEOUT_MS = 150_000;
const COMMAND_TIMEOUT_MS = 90_000;
const SERVER_START_TIMEOUT_MS = 60_000;

/** @typedef {import('./guide-shell.mjs').GuideShell} GuideShell */
/**
 * A guide's `python3` prompt, opened at its first Python snippet: the snippets pasted so far, or why they
 * are skipped.
 *
 * @typedef {{ session?: import('./python-session.mjs').PythonSession, pasted: number, skipped?: string }} PythonPrompt
 */
/**
 * What the guides' session holds from one guide to the next: what the server started last printed, the
 * project to return to from the clone, whether there is a database, and the reader's environment (for a
 * terminal of its own: the `python3` prompt of the guide being followed, closed at its end).
 *
 * @typedef {{ printed: string | undefined, before: string | undefined, database: boolean, env: NodeJS.ProcessEnv, sessionDir: string, enter: string[], python?: PythonPrompt }} SessionState
 */
/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * Runs the plan's guides in order, then type-checks every file if a guide prints `npx tsc`.
 *
 * @param {{ plan: import('./guide-snippets.mjs').SnippetPlan, home: string,
 *   cloneDir: string, env: NodeJS.ProcessEnv, sessionDir: string,
 *   network?: import('./network-namespace.mjs').IsolatedNetwork }} options `home` is the reader's
 *   empty home folder (where the shell starts), `cloneDir` the clone of the repository, `env` the shell's
 *   whole environment (its HOME set to `home`), `sessionDir` a folder for the session's files, `network`
 *   the shell's network of its own (the machine's otherwise).
 * @returns {Promise<{ lines: string[], projectDir: string }>} one line per guide, and the folder the reader
 *   ends in (the project).
 * @throws {Error} `<guide>:<line>: <what failed>` for the first command that fails.
 */
export async function runGuides({ plan, home, cloneDir, env, sessionDir, network }) {
  await mkdir(sessionDir, { recursive: true });
  const shell = await openShell({ cwd: home, env, dir: sessionDir, network });
  const lines = [];
  let projectDir = '';
  /** @type {unknown} */
  let failure;
  /** @type {SessionState} */
  const state = {
    printed: undefined,
    before: undefined,
    database: env.DATABASE_URL !== undefined,
    env,
    sessionDir,
    enter: shell.enter,
  };
  try {
    for (const guide of plan.guides) lines.push(await runGuide(shell, guide, state, cloneDir));
    if (plan.typecheck) {
      const where = 'every file the guides give';
      await runCommand(shell, { command: 'npx tsc', promises: [] }, where);
      lines.push(`npx tsc: ${plan.files.size} files type-check`);
    }
    projectDir = shell.cwd;
  } catch (error) {
    failure = error;
  }
  await state.python?.session?.close(); // a guide that failed leaves its python3 open
  try {
    await shell.close();
  } catch (error) {
    failure ??= new Error(`a server the guides started did not stop: ${messageOf(error)}`);
  }
  // A guide that failed before its `with-mock.mjs --stop` leaves its kept mock running: stopped here.
  const keptMock = env[KEPT_MOCK_FILE_VARIABLE];
  if (keptMock && (await stopKeptMock(keptMock)) && !failure)
    failure = new Error(`the guides left the mock of \`with-mock.mjs --keep\` running: end with --stop`);
  if (failure) throw failure;
  return { lines, projectDir };
}

/**
 * @param {GuideShell} shell
 * @param {{ file: string, steps: import('./guide-snippets.mjs').Step[] }} guide
 * @param {SessionState} state
 * @param {string} cloneDir
 */
async function runGuide(shell, guide, state, cloneDir) {
  const started = performance.now();
  let commands = 0;
  let saved = 0;
  let promised = 0;
  /** @type {string[]} */
  const servers = [];
  /** @type {string[]} */
  const skipped = [];
  /** @type {string[]} */
  const noDatabase = [];
  /** @type {string[]} */
  const pytestRuns = [];
  /** @type {PythonPrompt} */
  const python = { pasted: 0 };
  state.python = python;
  for (let index = 0; index < guide.steps.length; index++) {
    const step = /** @type {import('./guide-snippets.mjs').Step} */ (guide.steps[index]);
    const where = `${guide.file}:${step.line}`;
    // A file the reader saves goes into the project, also right after a block run in the clone.
    const inClone = !('save' in step) && step.inClone === true;
    if (inClone && state.before === undefined) {
      state.before = shell.cwd;
      await runCommand(shell, { command: `cd ${quote(cloneDir)}`, promises: [] }, `${where} (to the clone)`);
    } else if (!inClone && state.before !== undefined) {
      await leaveClone(shell, state, where);
    }
    if ('save' in step) {
      saved += await save(shell, step);
      continue;
    }
    if ('python' in step) {
      promised += await pastePython(python, step, where, shell.cwd, state);
      continue;
    }
    if (step.doneBefore) {
      skipped.push(`${step.command} (${step.doneBefore})`);
      continue;
    }
    // Where PostgreSQL is missing (never under CI: check:packages fails there), the database's commands
    // cannot run; the step already said SKIPPED loudly.
    if (!state.database && step.command.includes('DATABASE_URL')) {
      noDatabase.push(oneLine(step.command));
      continue;
    }
    let command;
    try {
      command = fillPlaceholders(step.command, state.printed);
    } catch (error) {
      throw new Error(`${where}: \`${step.command}\`: ${messageOf(error)}`);
    }
    if (step.pytest) {
      // Where pytest or pytest-xdist is missing (never under CI: programOrSkip throws there), skipped loudly.
      const why = missingForPytest(where, step.command);
      if (why !== undefined) {
        pytestRuns.push(`SKIPPED \`${oneLine(step.command)}\`: ${why}`);
        continue;
      }
      const pytestStarted = performance.now();
      const result = await runCommand(shell, { command: verbosePytest(command), promises: [] }, where);
      const wall = ((performance.now() - pytestStarted) / 1000).toFixed(1);
      try {
        pytestRuns.push(
          `\`${oneLine(step.command)}\`: ${pytestOutcome(command, result.stdout)}, ${wall} s in all`,
        );
      } catch (error) {
        throw new Error(`${where}: ${messageOf(error)}`);
      }
    } else if (step.snippet) {
      // The snippets after this one, with only files saved between them, run with it in one process.
      const batch = [step];
      for (
        let next = guide.steps[index + 1];
        next && ('save' in next || next.snippet);
        next = guide.steps[index + 1]
      ) {
        index += 1;
        if ('save' in next) saved += await save(shell, next);
        else batch.push(/** @type {import('./guide-snippets.mjs').CommandStep} */ (next));
      }
      if (batch.length === 1) await runCommand(shell, { command, promises: step.promises }, where);
      else await runSnippets(shell, guide, batch);
      promised += batch.reduce((sum, { promises }) => sum + promises.length, 0);
      commands += batch.length - 1;
    } else if (step.mode === 'run') {
      await runCommand(shell, { command, promises: step.promises }, where);
      promised += step.promises.length;
    } else {
      let server;
      try {
        server = await shell.start(command, { timeoutMs: SERVER_START_TIMEOUT_MS });
      } catch (error) {
        throw new Error(`${where}: \`${step.command}\` ${messageOf(error)}`);
      }
      state.printed = server.output;
      if (step.mode === 'until-ctrl-c') {
        await server.stop().catch((error) => {
          throw new Error(`${where}: \`${step.command}\` ${messageOf(error)}`);
        });
        servers.push(`${oneLine(step.command)} (started, then Ctrl+C)`);
      } else {
        servers.push(`${oneLine(step.command)} (left running)`);
      }
    }
    commands += 1;
  }
  await python.session?.close();
  state.python = undefined;
  if (state.before !== undefined) await leaveClone(shell, state, `${guide.file} (end)`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const details = [
    `${commands} commands`,
    `${saved} files saved`,
    `${promised} promised lines printed`,
    ...(servers.length > 0 ? [`servers: ${servers.join(', ')}`] : []),
    ...(skipped.length > 0 ? [`done before the check: ${skipped.join(', ')}`] : []),
    ...(noDatabase.length > 0 ? [`SKIPPED without PostgreSQL: ${noDatabase.join(', ')}`] : []),
    ...(python.pasted > 0 ? [`${python.pasted} Python snippets pasted into one python3`] : []),
    ...(python.skipped ? [`SKIPPED its Python snippets: ${python.skipped}`] : []),
    ...pytestRuns,
  ];
  return `${guide.file}: ${details.join('; ')}, in ${seconds} s`;
}

/**
 * Pastes a Python snippet into the guide's `python3` prompt, opened at its first snippet where the reader is
 * (in the reader's environment, as a new terminal has it); throws, naming the snippet's line, when it raises
 * or breaks a promise. Where python3 is missing (never under CI), the guide's Python snippets are skipped
 * loudly.
 *
 * @param {PythonPrompt} python
 * @param {import('./guide-snippets.mjs').PythonStep} step
 * @param {string} where
 * @param {string} cwd
 * @param {SessionState} state
 * @returns {Promise<number>} the promised lines it printed, to count.
 */
async function pastePython(python, step, where, cwd, state) {
  if (python.skipped) return 0;
  if (!python.session) {
    /** @type {string[]} */
    const said = [];
    try {
      programOrSkip(PYTHON, { log: (line) => said.push(line) });
    } catch (error) {
      throw new Error(`${where}: a Python snippet: ${messageOf(error)}`);
    }
    if (said.length > 0) {
      python.skipped = said.map((line) => line.replace(/^!!!! SKIPPED [^:]*: /, '')).join('; ');
      return 0;
    }
    python.session = await openPythonSession({
      cwd,
      env: state.env,
      dir: state.sessionDir,
      enter: state.enter,
    });
  }
  const pasted = `the Python snippet pasted into python3 after the guide's snippets before it`;
  let result;
  try {
    result = await python.session.paste(step.python, { timeoutMs: COMMAND_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`${where}: ${pasted} ${messageOf(error)}`);
  }
  if (!result.ok) {
    const output = `${result.stdout}\n${result.errors}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${where}: ${pasted} failed (in ${cwd})\n--- last output ---\n${output}`);
  }
  const unmet = unmetPromise(step.promises, result.stdout);
  if (unmet) throw new Error(`${where}: ${pasted} ${unmet}`);
  python.pasted += 1;
  return step.promises.length;
}

/**
 * Saves a file where the reader is; one in a folder (`parallel-suite/conftest.py`) makes the folder, as the
 * reader does as they save it.
 *
 * @param {GuideShell} shell
 * @param {import('./guide-snippets.mjs').SaveStep} step
 * @returns {Promise<1>} the one file saved, to count.
 */
async function save(shell, step) {
  await mkdir(path.dirname(path.join(shell.cwd, step.save)), { recursive: true });
  await writeFile(path.join(shell.cwd, step.save), step.content);
  return 1;
}

/**
 * Runs snippets that follow each other in one `npx tsx` (scripts/packaging/snippet-batch.mjs); throws,
 * naming the snippet's line, when one fails or breaks a promise.
 *
 * @param {GuideShell} shell
 * @param {{ file: string }} guide
 * @param {readonly import('./guide-snippets.mjs').CommandStep[]} batch
 */
async function runSnippets(shell, guide, batch) {
  const runner = batchFile(path.basename(guide.file, '.md'), batch);
  await writeFile(path.join(shell.cwd, runner.name), runner.content);
  const together = `run in one process with the snippets beside it: npx tsx ${runner.name}`;
  let result;
  try {
    result = await shell.run(`npx tsx ${runner.name}`, { timeoutMs: COMMAND_TIMEOUT_MS * batch.length });
  } catch (error) {
    const first = /** @type {import('./guide-snippets.mjs').CommandStep} */ (batch[0]);
    throw new Error(`${guide.file}:${first.line}: \`${first.command}\` (${together}) ${messageOf(error)}`);
  }
  const failure = batchFailure(batch, result);
  const printed = outputBySnippet(result.stdout);
  if (failure) {
    const output = `${printed.get(snippetFile(failure.step)) ?? ''}\n${result.stderr}`
      .trim()
      .split('\n')
      .slice(-40)
      .join('\n');
    throw new Error(
      `${guide.file}:${failure.step.line}: \`${failure.step.command}\` (${together}) ${failure.why} (in ${shell.cwd})${output ? `\n--- last output ---\n${output}` : ''}`,
    );
  }
  for (const step of batch) {
    const unmet = unmetPromise(step.promises, printed.get(snippetFile(step)) ?? '');
    if (unmet) throw new Error(`${guide.file}:${step.line}: \`${step.command}\` (${together}) ${unmet}`);
  }
}

/**
 * @param {GuideShell} shell
 * @param {SessionState} state
 * @param {string} where
 */
async function leaveClone(shell, state, where) {
  await runCommand(
    shell,
    { command: `cd ${quote(state.before ?? '.')}`, promises: [] },
    `${where} (back from the clone)`,
  );
  state.before = undefined;
}

/**
 * Runs one command in the shell; throws, naming the place, when it fails or breaks a promise.
 *
 * @param {GuideShell} shell
 * @param {{ command: string, promises: readonly string[] }} what
 * @param {string} where
 */
async function runCommand(shell, { command, promises }, where) {
  let result;
  try {
    const timeoutMs = command.startsWith('npm ') ? INSTALL_TIMEOUT_MS : COMMAND_TIMEOUT_MS;
    result = await shell.run(command, { timeoutMs });
  } catch (error) {
    throw new Error(`${where}: \`${command}\` ${messageOf(error)}`);
  }
  if (result.code !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(
      `${where}: \`${command}\` exited with code ${result.code} (in ${shell.cwd})${output ? `\n--- last output ---\n${output}` : ''}`,
    );
  }
  const undecidedScripts = result.stderr.split('\n').filter((line) => line.startsWith(UNDECIDED_SCRIPTS));
  if (undecidedScripts.length > 0)
    throw new Error(
      `${where}: \`${command}\` printed npm's warning about install scripts no allowScripts entry of the project decides on (npm 11 runs them and warns after every install, npm 12 skips them); a reader meets it and stops: decide on each in package.json, as Getting started does for the guides' project\n${undecidedScripts.join('\n')}`,
    );
  const unmet = unmetPromise(promises, result.stdout);
  if (unmet) throw new Error(`${where}: \`${command}\` ${unmet}`);
  return result;
}

/**
 * Why a pytest command cannot run here (pytest or pytest-xdist missing, each said in its loud line), or
 * undefined when it can.
 *
 * @param {string} where
 * @param {string} command
 * @throws {Error} under CI, when one is missing: CI skips nothing.
 */
function missingForPytest(where, command) {
  /** @type {string[]} */
  const said = [];
  try {
    for (const program of PYTEST_NEEDS) programOrSkip(program, { log: (line) => said.push(line) });
  } catch (error) {
    throw new Error(`${where}: \`${command}\`: ${messageOf(error)}`);
  }
  return said.length === 0
    ? undefined
    : said.map((line) => line.replace(/^!!!! SKIPPED [^:]*: /, '')).join('; ');
}

/** A command continued over lines (`\` at their ends), shown on one. */
const oneLine = (/** @type {string} */ command) => command.replace(/\s*\\\n\s*/g, ' ');

/**
 * The reader's environment for the session: the caller's, without any COMPANY_DATA_ variable (a newcomer
 * has none set), its HOME the empty folder `home` (created, with the `~/.curlrc` above), npm's cache and
 * user config the caller's, and quiet installs that reuse cached registry metadata. The database is the
 * check's own: the caller's DATABASE_URL and libpq's PG* variables (PGHOST, PGPASSWORD, PGSSLMODE…) are
 * left out, so that no guide reaches the caller's database or connects to the check's one differently, and
 * DATABASE_URL is `databaseUrl` when one is given (unset otherwise). The mock that `with-mock.mjs --keep`
 * keeps is the check's own too (named in `keptMock`, a file in the session's folder), never the caller's.
 *
 * @param {string} home
 * @param {NodeJS.ProcessEnv} callerEnv
 * @param {{ databaseUrl?: string, keptMock?: string }} [options]
 * @returns {Promise<NodeJS.ProcessEnv>}
 */
export async function readerEnv(home, callerEnv, { databaseUrl, keptMock } = {}) {
  await mkdir(home, { recursive: true });
  await writeFile(path.join(home, '.curlrc'), 'fail-with-body\n');
  const env = Object.fromEntries(
    Object.entries(callerEnv).filter(
      ([name]) => !name.startsWith('COMPANY_DATA_') && name !== 'DATABASE_URL' && !/^PG[A-Z_]+$/.test(name),
    ),
  );
  return {
    ...env,
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...(keptMock === undefined ? {} : { [KEPT_MOCK_FILE_VARIABLE]: keptMock }),
    HOME: home,
    NODE_OPTIONS: '',
    NO_COLOR: '1',
    npm_config_cache: callerEnv.npm_config_cache ?? path.join(os.homedir(), '.npm'),
    npm_config_userconfig: callerEnv.npm_config_userconfig ?? path.join(os.homedir(), '.npmrc'),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}
