// Install by name, rehearsed: the four packages go through the real release path into a throwaway registry,
// and a fresh project installs them by name with exactly the commands the README and Getting started print.
//
// The registry is Verdaccio (pinned in tools/package.json: 6.8, the last line that runs on Node 20), on 127.0.0.1 at a
// free port, with its storage in the temporary folder, publishing open to anyone for `@company-data/*` and no
// uplink: it holds only what we publish, and never reaches the network. The consumer's `.npmrc` points only
// the `@company-data` scope at it (`@company-data:registry=…`), so third-party dependencies come from the
// usual registry, as on release day. Verdaccio is stopped by its pid.
//
// The release path is the repository's own, in a throwaway copy (the repository is never touched): the
// packed tarballs unpacked into a copy of the workspace layout, `npm run version-packages` (changeset
// version), then `changeset publish`, its registry set to Verdaccio.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { codeBlocks, shellCommands } from '../docs/markdown.mjs';
import { freePort } from '../lib/free-port.mjs';
import { mockEnv, startInstalledMockCli } from '../lib/mock-cli.mjs';
import { assertDependencyKinds } from './consumer.mjs';
import { binScript, cleanEnv, run } from './process.mjs';
import { packagingTools } from './tools.mjs';
import { readJson } from './workspace.mjs';

const SCOPE = '@company-data';
const START_TIMEOUT_MS = 30_000;
// Reused cached metadata for third-party packages keeps the install quick (missing ones still download).
const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline'];

/**
 * Starts Verdaccio on loopback with its storage in `dir`.
 *
 * @param {string} dir - its storage and configuration
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>} its address (with a trailing slash) and a
 *   function that stops it by pid.
 */
export async function startRegistry(dir) {
  const port = await freePort();
  const storage = path.join(dir, 'storage');
  await mkdir(storage, { recursive: true });
  const config = path.join(dir, 'config.yaml');
  await writeFile(
    config,
    [
      `storage: ${JSON.stringify(storage)}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
      '    max_users: -1',
      'uplinks: {}',
      'packages:',
      `  '${SCOPE}/*':`,
      '    access: $all',
      '    publish: $all',
      '    unpublish: $all',
      "  '**':",
      '    access: $all',
      'log: { type: stdout, format: pretty, level: warn }',
      'web: { enable: false }',
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${port}/`;
  const bin = (await packagingTools()).script('verdaccio', 'verdaccio');
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.setEncoding('utf8').on('data', (text) => {
      output += text;
    });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`Verdaccio exited with code ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Verdaccio did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    const ready = await fetch(`${url}-/ping`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error('Verdaccio did not start');
}

/**
 * The registry settings of a project or a release copy: only our scope goes to the throwaway registry.
 *
 * @param {string} registryUrl
 */
function npmrc(registryUrl) {
  const host = registryUrl.replace(/^https?:/, '');
  // Verdaccio lets anyone publish here; npm still wants a token for the host before it sends one.
  return `${SCOPE}:registry=${registryUrl}\n${host}:_authToken=rehearsal\n`;
}

/**
 * The same settings as npm's environment variables, for commands run where no `.npmrc` is read.
 *
 * @param {string} registryUrl
 */
function registryEnv(registryUrl) {
  const host = registryUrl.replace(/^https?:/, '');
  return { [`npm_config_${SCOPE}:registry`]: registryUrl, [`npm_config_${host}:_authToken`]: 'rehearsal' };
}

/**
 * Publishes the packed packages through the release path, in `copyDir`: each tarball unpacked where its
 * package lives in the workspace, the root `package.json` and `.changeset/` copied, `npm run version-packages`,
 * then `changeset publish` with the scope's registry set to `registryUrl`.
 *
 * @param {string} root
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @param {string} copyDir
 * @param {string} registryUrl
 * @returns {Promise<Map<string, string>>} the version published for each package.
 */
export async function publishThroughChangesets(root, packed, copyDir, registryUrl) {
  await mkdir(path.join(copyDir, '.changeset'), { recursive: true });
  await copyFile(path.join(root, 'package.json'), path.join(copyDir, 'package.json'));
  for (const file of await readdir(path.join(root, '.changeset')))
    await copyFile(path.join(root, '.changeset', file), path.join(copyDir, '.changeset', file));
  for (const { pkg, tarball } of packed) {
    const dir = path.join(copyDir, pkg.relativeDir);
    await mkdir(dir, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  }
  // The release tools (changesets and its changelog generator) from the workspace.
  await symlink(path.join(root, 'node_modules'), path.join(copyDir, 'node_modules'), 'junction');
  await writeFile(path.join(copyDir, '.npmrc'), npmrc(registryUrl));
  // changeset publish tags each release in git: the copy is a repository of its own, never the workspace's.
  const env = cleanEnv({
    ...registryEnv(registryUrl),
    GIT_CEILING_DIRECTORIES: path.dirname(copyDir),
    GIT_AUTHOR_NAME: 'check-packages',
    GIT_AUTHOR_EMAIL: 'check-packages@localhost',
    GIT_COMMITTER_NAME: 'check-packages',
    GIT_COMMITTER_EMAIL: 'check-packages@localhost',
  });
  await run('npm', ['run', 'version-packages'], { cwd: copyDir, env });
  await run('git', ['init', '-q'], { cwd: copyDir, env });
  await run('git', ['add', '-A'], { cwd: copyDir, env });
  await run('git', ['commit', '-q', '-m', 'release rehearsal'], { cwd: copyDir, env });
  const changeset = binScript(root, '@changesets/cli', 'changeset');
  await run(process.execPath, [changeset, 'publish'], { cwd: copyDir, env, timeoutMs: 120_000 });
  /** @type {Map<string, string>} */
  const versions = new Map();
  for (const { pkg } of packed) {
    const { version } = readJson(path.join(copyDir, pkg.relativeDir, 'package.json'));
    const { stdout } = await run('npm', ['view', `${pkg.name}@${version}`, 'version'], {
      cwd: copyDir,
      env,
    });
    if (stdout.trim() !== version)
      throw new Error(`${pkg.name}@${version} is not on the registry after publishing`);
    versions.set(pkg.name, version);
  }
  return versions;
}

/**
 * The install commands by name, exactly as printed: every `npm install` of an `@company-data` package in the
 * README's and Getting started's shell blocks, in that order, then the other guides' (an add-on's own guide
 * installs it, as the Redis gate's does).
 * @param {string} root
 */
export function installByNameCommands(root) {
  /** @type {{ file: string, command: string }[]} */
  const commands = [];
  const first = ['README.md', path.join('docs', 'getting-started.md')];
  const guides = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name))
    .filter((file) => !first.includes(file))
    .sort();
  for (const file of [...first, ...guides]) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const block of codeBlocks(text).filter((b) => b.lang === 'sh')) {
      for (const command of shellCommands(block)) {
        if (/^npm install /.test(command) && / @company-data\//.test(command) && !command.includes('.tgz'))
          commands.push({ file, command });
      }
    }
  }
  if (commands.length === 0)
    throw new Error('no `npm install @company-data/…` command in the README or Getting started');
  return commands;
}

/**
 * A fresh project that installs the packages by name from the registry, as on release day: `npm init`,
 * `"type": "module"`, the `.npmrc` of the scope, the README's and Getting started's install commands by name,
 * and the snippets' tools; then Getting started's `first-calls.ts` against the installed mock CLI.
 *
 * @param {string} root
 * @param {string} projectDir
 * @param {string} registryUrl
 * @param {ReadonlyMap<string, string>} versions - the published version of each package
 * @param {import('./recipe.mjs').InstallRecipe} recipe
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @param {ReadonlyMap<string, string>} files - the files the guides give, by name
 * @returns {Promise<string[]>} what was installed and run.
 */
export async function installByName(root, projectDir, registryUrl, versions, recipe, packed, files) {
  await mkdir(projectDir, { recursive: true });
  await writeFile(path.join(projectDir, '.npmrc'), npmrc(registryUrl));
  const env = cleanEnv({ NODE_OPTIONS: '' });
  const lines = [];
  for (const args of recipe.setup) {
    const [program = 'npm', command] = args;
    // Getting started's project setup, without the from-a-clone tarballs (their by-name commands follow).
    if (command === 'install' && args.some((arg) => arg.includes('.tgz'))) continue;
    await run(program, [command ?? '', ...(command === 'install' ? INSTALL_FLAGS : []), ...args.slice(2)], {
      cwd: projectDir,
      env,
      timeoutMs: 150_000,
    });
  }
  for (const { file, command } of installByNameCommands(root)) {
    const [npm = 'npm', install = 'install', ...rest] = command.split(/\s+/);
    await run(npm, [install, ...INSTALL_FLAGS, ...rest], { cwd: projectDir, env, timeoutMs: 150_000 });
    lines.push(`${command} (${file})`);
  }
  assertDependencyKinds(projectDir, packed, { installedOnly: true });
  for (const [name, version] of versions) {
    const installed = readJson(path.join(projectDir, 'node_modules', ...name.split('/'), 'package.json'));
    if (installed.version !== version)
      throw new Error(`${name}: installed ${installed.version}, published ${version}`);
  }
  const firstCalls = files.get('first-calls.ts');
  if (!firstCalls) throw new Error('Getting started gives no first-calls.ts');
  await writeFile(path.join(projectDir, 'first-calls.ts'), firstCalls);
  const mock = await startInstalledMockCli(projectDir, env);
  try {
    await run('npx', ['tsx', 'first-calls.ts'], {
      cwd: projectDir,
      env: cleanEnv({ NODE_OPTIONS: '', NO_COLOR: '1', ...mockEnv(mock.summary) }),
      timeoutMs: 90_000,
    });
  } finally {
    await mock.stop();
  }
  lines.push('npx tsx first-calls.ts against the installed company-data-mock');
  return lines;
}
