// The packed-tarball consumer test: the project outside the workspace that the guides set up (the tarballs
// installed by Getting started's commands, as written), runs a plain ESM and a plain CJS script that
// use the packages by name, a script that runs the installed company-data-mock command over a real socket,
// one that runs the installed company-data command, a vitest test file that uses the mock server's
// matchers (run by the project's vitest, type-checked by its TypeScript), a folder of two test files
// that share one mock through the one-line global setup, each in a session of its own, and a CommonJS
// project's folder with a global setup of its own.
import { existsSync } from 'node:fs';
import { copyFile, cp } from 'node:fs/promises';
import path from 'node:path';
import { binScript, CommandError, cleanEnv, run, SCRIPT_TIMEOUT_MS } from './process.mjs';
import { ROOT, readJson } from './workspace.mjs';

const FIXTURES = path.join(ROOT, 'scripts', 'pack-consumer');
const SCRIPTS = ['consumer.mjs', 'consumer.cjs', 'cli.mjs', 'company-data.mjs'];
// Copied beside the scripts, which share it.
const SHARED = ['checks.cjs'];
/** The test file of the mock server's vitest matchers, copied beside the scripts and run by {@link runMatchers}. */
const MATCHERS_SPEC = 'matchers.spec.ts';
/** The folder of the one-line global setup and its two test files, run by {@link runSharedMock}. */
const SESSIONS_DIR = 'sessions';
/** A CommonJS project's folder: its own global setup, and a test file that requires the SDK. */
const SESSIONS_CJS_DIR = 'sessions-cjs';
/**
 * Checks the project the guides made (scripts/packaging/guide-runner.mjs, Getting started's commands as
 * written) and copies the consumer scripts into it: each package installed from its tarball, once, with its
 * commands; the SDK and contract in dependencies, the mock server and CLI in devDependencies.
 *
 * @param {string} projectDir
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @returns {Promise<string[]>} what was installed.
 */
export async function checkConsumerProject(projectDir, packed) {
  for (const file of [...SCRIPTS, ...SHARED, MATCHERS_SPEC])
    await copyFile(path.join(FIXTURES, file), path.join(projectDir, file));
  for (const dir of [SESSIONS_DIR, SESSIONS_CJS_DIR])
    await cp(path.join(FIXTURES, dir), path.join(projectDir, dir), { recursive: true });
  assertDependencyKinds(projectDir, packed);
  return packed.map(({ pkg }) => assertInstalledFromTarball(projectDir, pkg));
}

/** Packages that serve tests, not the app: the recipe must put them in devDependencies. */
export const DEV_PACKAGES = new Set(['@company-data/mock-server', '@company-data/cli']);

/**
 * The SDK and the contract in `dependencies`, the mock server and the CLI in `devDependencies`. With
 * `installedOnly`, a package the commands did not name (the contract, installed as the SDK's dependency) may
 * be in neither.
 * @param {string} projectDir
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @param {{ installedOnly?: boolean }} options
 */
export function assertDependencyKinds(projectDir, packed, { installedOnly = false } = {}) {
  const manifest = readJson(path.join(projectDir, 'package.json'));
  for (const { pkg } of packed) {
    const named = manifest.dependencies?.[pkg.name] ?? manifest.devDependencies?.[pkg.name];
    if (installedOnly && named === undefined) continue;
    const kind = DEV_PACKAGES.has(pkg.name) ? 'devDependencies' : 'dependencies';
    const other = kind === 'dependencies' ? 'devDependencies' : 'dependencies';
    if (manifest[kind]?.[pkg.name] === undefined || manifest[other]?.[pkg.name] !== undefined)
      throw new Error(`the install commands put ${pkg.name} in ${other}, not ${kind}`);
  }
}

/**
 * The package must come from our tarball, once: a different version or a nested copy means npm fetched a
 * published release from the registry instead (e.g. an internal dependency range the local version misses).
 * @param {string} projectDir
 * @param {import('./workspace.mjs').WorkspacePackage} pkg
 */
function assertInstalledFromTarball(projectDir, pkg) {
  const installedDir = path.join(projectDir, 'node_modules', ...pkg.name.split('/'));
  const installed = readJson(path.join(installedDir, 'package.json'));
  if (installed.version !== pkg.version) {
    throw new Error(`${pkg.name}: installed ${installed.version}, but the workspace has ${pkg.version}`);
  }
  const nested = path.join(installedDir, 'node_modules', '@company-data');
  if (existsSync(nested)) {
    throw new Error(
      `${pkg.name} got its own copy of another @company-data package in ${nested}; an internal dependency range does not match the workspace versions`,
    );
  }
  const bins = Object.keys(binMap(pkg.manifest));
  for (const bin of bins) {
    if (!existsSync(path.join(projectDir, 'node_modules', '.bin', bin))) {
      throw new Error(`${pkg.name} declares the command \`${bin}\` but npm did not install it`);
    }
  }
  return `${pkg.name}@${installed.version}${bins.length > 0 ? ` (commands: ${bins.join(', ')})` : ''}`;
}

/**
 * @param {import('./workspace.mjs').PackageManifest} manifest
 */
function binMap(manifest) {
  if (typeof manifest.bin === 'string') return { [manifest.name.split('/').at(-1) ?? '']: manifest.bin };
  return manifest.bin ?? {};
}

/**
 * Runs the ESM and the CJS consumer script in the installed project. Each must print its checks and exit by
 * itself: a script that finished but keeps running means a server or client was not closed cleanly.
 *
 * @param {string} projectDir
 * @returns {Promise<{ script: string, lines: string[] }[]>} what each script reported.
 */
export async function runConsumers(projectDir) {
  // A plain user environment: no NODE_OPTIONS from the caller (e.g. custom conditions pointing at sources).
  const env = cleanEnv({ NODE_OPTIONS: '' });
  /** @type {{ script: string, lines: string[] }[]} */
  const results = [];
  for (const script of SCRIPTS) {
    try {
      const { stdout } = await run(process.execPath, [script], {
        cwd: projectDir,
        env,
        timeoutMs: SCRIPT_TIMEOUT_MS,
      });
      results.push({ script, lines: stdout.trim().split('\n').filter(Boolean) });
    } catch (error) {
      const finished = error instanceof CommandError && /: done$/m.test(error.stdout);
      const headline = finished
        ? `${script} finished its checks but did not exit: a server, client or timer was left open`
        : `${script} failed`;
      throw new Error(`${headline}\n${error instanceof Error ? error.message : error}`);
    }
  }
  return results;
}

/** Lines the report of the matchers' failing expectation must show in vitest's own output. */
const SHOWN_REPORT = [
  'Expected at least 1 request matching GET /v1/calls/ with query {"page":"3"}, received 0.',
  '   - query page: expected "3", received "2"',
];

/**
 * Runs the matchers' test file with the project's own vitest (installed by the testing guide): its passing
 * and failing expectations pass; then once more with the test that fails for real, whose failure vitest must
 * print with the near-miss report; then type-checks the file with the project's TypeScript, as the guides'
 * tsconfig.json does (strict, nodenext), so the matchers are typed on vitest's Assertion.
 *
 * @param {string} projectDir
 * @returns {Promise<string[]>} what was shown.
 */
export async function runMatchers(projectDir) {
  const env = cleanEnv({ NODE_OPTIONS: '', NO_COLOR: '1' });
  const vitest = [binScript(projectDir, 'vitest', 'vitest'), 'run', MATCHERS_SPEC];
  const options = { cwd: projectDir, env, timeoutMs: 120_000 };
  const passed = await run(process.execPath, vitest, options);
  const counts = /Tests\s+(.*)$/m.exec(passed.stdout)?.[1]?.trim();
  if (counts !== '2 passed | 1 skipped (3)')
    throw new Error(
      `vitest run ${MATCHERS_SPEC}: expected 2 passed and 1 skipped, got ${counts}\n${passed.stdout}`,
    );
  const failed = await run(process.execPath, vitest, {
    ...options,
    env: { ...env, MATCHERS_SHOW_FAILURE: '1' },
    allowFailure: true,
  });
  const output = `${failed.stdout}\n${failed.stderr}`;
  const missing = SHOWN_REPORT.filter((line) => !output.includes(line));
  if (failed.code === 0 || missing.length > 0)
    throw new Error(
      `vitest run ${MATCHERS_SPEC} with a failing expectation: exit code ${failed.code}, ${missing.length} lines of the report missing (${missing.join(' | ')})\n${output}`,
    );
  await typeCheckStrict(projectDir, [MATCHERS_SPEC], options);
  return [
    `vitest run ${MATCHERS_SPEC}: ${counts}: toHaveReceived, toHaveReceivedTimes and .not pass; a failing expectation's message is the near-miss report`,
    `with the expectation that fails for real: exit code ${failed.code}, and vitest printed the report`,
    `tsc --strict --module nodenext ${MATCHERS_SPEC}: the matchers are typed on vitest's Assertion`,
  ];
}

/**
 * Type-checks files with the consumer project's own TypeScript, strict, as a user's project compiles them.
 *
 * @param {string} projectDir
 * @param {readonly string[]} files
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number }} options
 */
async function typeCheckStrict(projectDir, files, options) {
  const tsc = binScript(projectDir, 'typescript', 'tsc');
  const flags = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--target', 'es2022'];
  await run(process.execPath, [tsc, ...flags, '--types', 'node', ...files], options);
}

/** The files of the sessions folders that TypeScript checks: their vitest config, test files and what they share. */
const SESSION_FILES = [
  ...['vitest.config.ts', 'change.spec.ts', 'look.spec.ts', 'rendezvous.ts'].map(
    (file) => `${SESSIONS_DIR}/${file}`,
  ),
  `${SESSIONS_CJS_DIR}/sdk.spec.ts`,
];

/**
 * The two folders vitest runs: the one-line global setup in an ES module project, whose two test files run
 * at once in two workers, each in a session of its own (`useMockSession()`), one deleting a call and moving
 * its clock while the other finds neither in its session (they wait for each other: run one after the
 * other, both fail); and a CommonJS project's folder (its own `package.json` says so), whose config and
 * global setup are CommonJS files (the global setup requires the CommonJS build of the mock server's), and
 * whose test file requires the SDK's CommonJS build.
 */
const SESSION_RUNS = [
  { dir: SESSIONS_DIR, files: ['change.spec.ts', 'look.spec.ts'], counts: '2 passed (2)' },
  { dir: SESSIONS_CJS_DIR, files: ['sdk.spec.ts'], counts: '1 passed (1)' },
];

/**
 * Runs vitest in each folder of {@link SESSION_RUNS}, as a user runs a suite: `vitest run` where its config is.
 *
 * @param {string} projectDir
 * @param {readonly string[]} vitest - the program and arguments that start vitest: `['npx', 'vitest']` as a
 *   user types it, or another Node and the project's vitest script.
 * @param {NodeJS.ProcessEnv} [env] - vitest's environment.
 * @returns {Promise<string[]>} one line per folder: its tests' counts and how long the run took.
 * @throws {Error} when a run fails or a test file did not pass, with vitest's output.
 */
export async function runSessionFolders(
  projectDir,
  vitest,
  env = cleanEnv({ NODE_OPTIONS: '', NO_COLOR: '1' }),
) {
  const [program = 'npx', ...args] = vitest;
  /** @type {string[]} */
  const lines = [];
  for (const { dir, files, counts: expected } of SESSION_RUNS) {
    const started = performance.now();
    const options = { cwd: path.join(projectDir, dir), env, timeoutMs: 120_000 };
    const { stdout } = await run(program, [...args, 'run'], options);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const counts = /Tests\s+(.*)$/m.exec(stdout)?.[1]?.trim();
    const passed = files.filter((file) => stdout.includes(`✓ ${file}`));
    if (counts !== expected || passed.length !== files.length)
      throw new Error(
        `vitest run in ${dir}/: expected ${files.join(' and ')} to pass (${expected}), got ${counts}\n${stdout}`,
      );
    lines.push(`${dir}/ ${counts} (${seconds} s)`);
  }
  return lines;
}

/**
 * Runs the sessions folders as a user runs a suite (`npx vitest run` where the config is): the one-line
 * global setup, `globalSetup: ['@company-data/mock-server/vitest/global-setup']`, starts one mock for the
 * run, and the CommonJS project's global setup another (see {@link SESSION_RUNS}). Then type-checks both
 * folders with the project's TypeScript, so the helper and `inject('companyDataMock')` are typed, and the
 * CommonJS file's `require()` of the SDK too.
 *
 * @param {string} projectDir
 * @returns {Promise<string[]>} what was shown.
 */
export async function runSharedMock(projectDir) {
  const [esm, cjs] = await runSessionFolders(projectDir, ['npx', 'vitest']);
  await typeCheckStrict(projectDir, SESSION_FILES, { cwd: projectDir, env: cleanEnv(), timeoutMs: 120_000 });
  return [
    `npx vitest run in ${esm}: one mock for the run from the one-line globalSetup; change.spec.ts and look.spec.ts at once, each in its own session: a deleted call and a clock a day ahead in one, neither in the other; the key routed the other's request`,
    `npx vitest run in ${cjs}: a CommonJS project, its config and global setup CommonJS files (the global setup requires the mock server's CommonJS build), its test file requiring the SDK's CommonJS build against a session of that mock`,
    `tsc --strict --module nodenext ${SESSIONS_DIR}/*.ts ${SESSIONS_CJS_DIR}/*.ts: useMockSession and inject('companyDataMock') are typed, and the require() of the SDK`,
  ];
}
