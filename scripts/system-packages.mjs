// The programs the tests need beyond npm, and the one rule for when they are missing. `npm test` runs this
// script first, so `npm ci && npm test` proves the project on a fresh Debian machine with only Node and npm:
//
//   node scripts/system-packages.mjs
//
// - Every program present: says nothing.
// - Some missing, and the rights to install (root, or `sudo -n` works) on a machine with apt-get: installs
//   them from Debian's packages, quietly, saying in one line what it does.
// - Some missing, no rights: under CI (CI=true) it FAILS, since CI must run every test; elsewhere it says in
//   one loud line what to run, and the parts that need a missing program skip loudly (`programOrSkip`).
//
// The test files and scripts that need a program import `programOrSkip` from here, so the list of programs,
// the install command and the skip rule are written once.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Each program the tests need beyond npm: its Debian package, and the part of `npm test` that needs it.
 * `versionsIn`: a program that Debian installs off the PATH, in `<versionsIn>/<major>/bin/` (PostgreSQL's
 * server: `postgres`, with `initdb` beside it), is looked for there too, newest major first.
 * `pythonModuleIn`: not a program but a module of Debian's own Python 3 (pytest-xdist, a pytest plugin with
 * no command of its own), found as the package `<pythonModuleIn>/<program>/`; a Python of a version manager
 * (pyenv, conda) earlier on the PATH has its own modules, and does not count.
 *
 * @type {readonly { program: string, debianPackage: string, neededBy: string, versionsIn?: string, pythonModuleIn?: string }[]}
 */
export const SYSTEM_PROGRAMS = [
  {
    program: 'redis-server',
    debianPackage: 'redis-server',
    neededBy: 'the Redis fleet test (packages/redis-gate)',
  },
  {
    program: 'chromium',
    debianPackage: 'chromium',
    neededBy: "the browser checks of check:docs-site and the mock's watch page (test:unit)",
  },
  {
    program: 'postgres',
    debianPackage: 'postgresql',
    neededBy: "the tests against PostgreSQL and the guides' database (check:packages)",
    versionsIn: '/usr/lib/postgresql',
  },
  {
    program: 'python3',
    debianPackage: 'python3',
    neededBy: "the testing guide's Python snippets, pasted into python3 (check:packages)",
  },
  {
    program: 'pytest-3',
    debianPackage: 'python3-pytest',
    neededBy: "the pytest examples of the mock binary's guide and of the testing guide (check:packages)",
  },
  {
    program: 'slirp4netns',
    debianPackage: 'slirp4netns',
    neededBy:
      "the guides' network of their own (check:packages: a reader's mock left on port 4010 fails them not)",
  },
  {
    program: 'xdist',
    debianPackage: 'python3-pytest-xdist',
    neededBy: "the testing guide's parallel pytest suite, `pytest-3 -n 8` (check:packages)",
    pythonModuleIn: '/usr/lib/python3/dist-packages',
  },
];

/** Waits for another apt-get to finish instead of failing on its lock (several shells may run this at once). */
const APT_OPTIONS = ['-o', 'DPkg::Lock::Timeout=300'];

/**
 * The commands that install `packages` from Debian's packages, as argument lists.
 * @param {readonly string[]} packages
 * @param {{ sudo: boolean }} options
 */
export function installSteps(packages, { sudo }) {
  const prefix = sudo ? ['sudo', '-n'] : [];
  return [
    [...prefix, 'apt-get', ...APT_OPTIONS, 'update', '-qq'],
    [...prefix, 'apt-get', ...APT_OPTIONS, 'install', '-y', '-qq', '--no-install-recommends', ...packages],
  ];
}

/**
 * What a person runs to install `packages` themselves, in one line.
 * @param {readonly string[]} packages
 */
export function installHint(packages) {
  return `sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`;
}

/**
 * `a`, `a and b`, `a, b and c`.
 * @param {readonly string[]} items
 */
const listed = (items) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : (items[0] ?? '');

/**
 * The decision, from the facts: which programs are missing, the rights to install, and whether this is CI.
 * @param {{ missing: readonly string[], rights: 'root' | 'sudo' | 'none', ci: boolean }} facts
 * @returns {{ action: 'none' } | { action: 'install', packages: string[], steps: string[][], line: string }
 *   | { action: 'fail' | 'skip', packages: string[], line: string }}
 */
export function decide({ missing, rights, ci }) {
  const entries = SYSTEM_PROGRAMS.filter((entry) => missing.includes(entry.program));
  if (entries.length === 0) return { action: 'none' };
  const packages = entries.map((entry) => entry.debianPackage);
  if (rights !== 'none') {
    return {
      action: 'install',
      packages,
      steps: installSteps(packages, { sudo: rights === 'sudo' }),
      line: `system-packages: installing ${packages.join(', ')} from Debian's packages (apt-get${rights === 'sudo' ? ' through sudo' : ''}), needed by ${listed(entries.map((entry) => entry.neededBy))}`,
    };
  }
  const fix = `run \`${installHint(packages)}\``;
  const needed = listed(entries.map((entry) => entry.neededBy));
  if (ci) {
    return {
      action: 'fail',
      packages,
      line: `system-packages: FAILED: CI must run every test, but ${packages.join(', ')} ${packages.length > 1 ? 'are' : 'is'} missing and this user cannot install (not root, no sudo without a password): ${fix}, or run CI as root`,
    };
  }
  return {
    action: 'skip',
    packages,
    line: `!!!! system-packages: ${packages.join(', ')} missing and not installable here (not root, no sudo without a password): ${fix}; until then ${needed} ${entries.length > 1 ? 'are' : 'is'} SKIPPED`,
  };
}

/**
 * The full path of `program` on the PATH; else, for a program Debian installs off the PATH, in
 * `<versionsIn>/<major>/bin/`, newest major first; else undefined. For a Python module (`pythonModuleIn`),
 * the path of its package folder there, or undefined.
 * @param {string} program
 * @param {NodeJS.ProcessEnv} [env]
 * @param {{ versionsIn?: string, pythonModuleIn?: string }} [options] - default: the program's
 *   `versionsIn` and `pythonModuleIn` in SYSTEM_PROGRAMS.
 */
export function findProgram(
  program,
  env = process.env,
  {
    versionsIn = SYSTEM_PROGRAMS.find((entry) => entry.program === program)?.versionsIn,
    pythonModuleIn = SYSTEM_PROGRAMS.find((entry) => entry.program === program)?.pythonModuleIn,
  } = {},
) {
  if (pythonModuleIn !== undefined) {
    const module = path.join(pythonModuleIn, program);
    return existsSync(path.join(module, '__init__.py')) ? module : undefined;
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '');
  if (versionsIn !== undefined) dirs.push(...versionedBinDirs(versionsIn));
  for (const dir of dirs) {
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/**
 * `<root>/<major>/bin` for each major version installed in `root` (`15`, `17`, or the older `9.6`), newest
 * first; none when `root` is missing.
 * @param {string} root
 */
export function versionedBinDirs(root) {
  /** @type {string[]} */
  let names;
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const version = (/** @type {string} */ name) => name.split('.').map(Number);
  return names
    .filter((name) => /^\d+(\.\d+)*$/.test(name))
    .sort((a, b) => {
      const [x, y] = [version(a), version(b)];
      for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
        const difference = (y[i] ?? 0) - (x[i] ?? 0);
        if (difference !== 0) return difference;
      }
      return 0;
    })
    .map((name) => path.join(root, name, 'bin'));
}

/** Whether this user may install Debian packages: as root, through `sudo -n` (no password asked), or not at all. */
export function installRights(env = process.env) {
  if (findProgram('apt-get', env) === undefined) return 'none';
  if (process.getuid?.() === 0) return 'root';
  if (findProgram('sudo', env) === undefined) return 'none';
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', env }).status === 0 ? 'sudo' : 'none';
}

/** Under CI (CI set to anything but "false" or "0") nothing may be skipped. */
export function isCI(env = process.env) {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

/**
 * The path of `program` (one of SYSTEM_PROGRAMS) for a test or check that needs it. When it is missing:
 * under CI, throws (CI never skips); elsewhere, prints one loud line saying what to run and returns
 * undefined, and the caller skips the part that needs it.
 * @param {string} program
 * @param {{ env?: NodeJS.ProcessEnv, log?: (line: string) => void, versionsIn?: string, pythonModuleIn?: string }} [options] -
 *   `versionsIn` and `pythonModuleIn` override the entry's (for tests).
 * @returns {string | undefined}
 */
export function programOrSkip(
  program,
  { env = process.env, log = console.warn, versionsIn, pythonModuleIn } = {},
) {
  const entry = SYSTEM_PROGRAMS.find((candidate) => candidate.program === program);
  if (entry === undefined) throw new Error(`system-packages: ${program} is not in SYSTEM_PROGRAMS`);
  const where = {
    versionsIn: versionsIn ?? entry.versionsIn,
    pythonModuleIn: pythonModuleIn ?? entry.pythonModuleIn,
  };
  const found = findProgram(program, env, where);
  if (found !== undefined) return found;
  const what =
    where.pythonModuleIn === undefined
      ? program
      : `Python module ${program} in ${where.pythonModuleIn} (Debian's python3)`;
  const hint = `run \`${installHint([entry.debianPackage])}\` (or \`node scripts/system-packages.mjs\` as root)`;
  if (isCI(env))
    throw new Error(
      `cannot run ${entry.neededBy}: no ${what} on this machine, and CI skips nothing: ${hint}`,
    );
  log(`!!!! SKIPPED ${entry.neededBy}: no ${what} on this machine; ${hint}`);
  return undefined;
}

/** Runs the decision on this machine; the exit code is 1 only when it fails. */
function main() {
  const missing = SYSTEM_PROGRAMS.map((entry) => entry.program).filter((program) => !findProgram(program));
  const decision = decide({ missing, rights: missing.length > 0 ? installRights() : 'none', ci: isCI() });
  if (decision.action === 'none') return 0;
  console.log(decision.line);
  if (decision.action !== 'install') return decision.action === 'fail' ? 1 : 0;
  for (const [command, ...args] of decision.steps) {
    if (command === undefined) continue; // every step names its program
    const run = spawnSync(command, args, {
      encoding: 'utf8',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (run.status !== 0) {
      console.log(`${run.stdout ?? ''}${run.stderr ?? ''}${run.error?.message ?? ''}`);
      console.log(
        `system-packages: FAILED: \`${[command, ...args].join(' ')}\` exited ${run.status ?? run.signal}`,
      );
      return 1;
    }
  }
  const still = missing.filter((program) => !findProgram(program));
  if (still.length > 0) {
    console.log(
      `system-packages: FAILED: installed, yet still found neither on the PATH nor where Debian puts them: ${still.join(', ')}`,
    );
    return 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) process.exitCode = main();
