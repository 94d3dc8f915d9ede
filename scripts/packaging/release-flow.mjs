// The changesets release flow: scripts wired, `changeset status` passes, and `changeset version` would bump
// every package and write its changelog. The version run happens in a throwaway copy, never in the repository.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { binScript, cleanEnv, run } from './process.mjs';
import { readJson } from './workspace.mjs';

/**
 * Checks that the root scripts and the changesets configuration form a working release flow, and that every
 * package can be published publicly.
 *
 * @param {string} root
 * @param {readonly import('./workspace.mjs').WorkspacePackage[]} packages
 * @returns {string[]} one line per problem; empty when all is wired.
 */
export function releaseWiringProblems(root, packages) {
  const { scripts = {} } = readJson(path.join(root, 'package.json'));
  const config = readJson(path.join(root, '.changeset', 'config.json'));
  /** @type {string[]} */
  const problems = [];
  const expect = (/** @type {boolean} */ ok, /** @type {string} */ problem) => {
    if (!ok) problems.push(problem);
  };
  expect(/^changeset(?:\s|$)/.test(scripts.changeset ?? ''), 'root script `changeset` must run `changeset`');
  expect(
    /^changeset version(?:\s|$)/.test(scripts['version-packages'] ?? ''),
    'root script `version-packages` must run `changeset version`',
  );
  expect(
    /\bnpm run build &&.*\bchangeset publish\b/.test(scripts.release ?? ''),
    'root script `release` must build (`npm run build`) and then run `changeset publish`',
  );
  expect(
    /\bchangeset publish\b.*&&.*\bnpm run build:mock-binary\b/.test(scripts.release ?? '') &&
      /^node scripts\/sea\/build-mock-binary\.mjs\b/.test(scripts['build:mock-binary'] ?? ''),
    'root script `release` must build the mock binary (`npm run build:mock-binary`, scripts/sea/build-mock-binary.mjs) after `changeset publish`',
  );
  expect(typeof config.baseBranch === 'string', '.changeset/config.json needs a baseBranch');
  for (const pkg of packages) {
    const access = pkg.manifest.publishConfig?.access ?? config.access;
    expect(access === 'public', `${pkg.name}: a scoped package needs publishConfig.access "public"`);
    expect(
      /^\d+\.\d+\.\d+(?:-[\w.]+)?$/.test(pkg.version ?? ''),
      `${pkg.name}: version "${pkg.version}" is not semver`,
    );
    expect(Boolean(pkg.manifest.license), `${pkg.name}: no license field`);
  }
  return problems;
}

/**
 * Runs `changeset status` as a contributor would: it fails when a package changed since the base branch
 * without a changeset. In a checkout without the base branch (a shallow CI clone) it compares with
 * `origin/<base>` or, failing that, HEAD; changesets then only counts the changesets added since that ref.
 *
 * @param {string} root
 * @param {string} tempDir - where its report is written
 * @returns {Promise<{ since: string, changesets: number, releases: { name: string, type: string, newVersion: string }[] }>}
 */
export async function changesetStatus(root, tempDir) {
  const changeset = binScript(root, '@changesets/cli', 'changeset');
  const { baseBranch } = readJson(path.join(root, '.changeset', 'config.json'));
  const since = await firstExistingRef(root, [baseBranch, `origin/${baseBranch}`, 'HEAD']);
  const output = path.join(tempDir, 'changeset-status.json');
  const sinceArgs = since === baseBranch ? [] : [`--since=${since}`];
  await run(process.execPath, [changeset, 'status', ...sinceArgs, `--output=${output}`], { cwd: root });
  const plan = readJson(output);
  return { since, changesets: plan.changesets.length, releases: plan.releases };
}

/**
 * @param {string} root
 * @param {readonly string[]} refs
 */
async function firstExistingRef(root, refs) {
  for (const ref of refs) {
    const { code } = await run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      cwd: root,
      allowFailure: true,
    });
    if (code === 0) return ref;
  }
  throw new Error(`none of the git refs ${refs.join(', ')} exists in ${root}; is this a git checkout?`);
}

const DRY_RUN_CHANGESET = 'zz-check-packages-dry-run';
const DRY_RUN_SUMMARY = 'Dry run of the release flow by `npm run check:packages`.';

/**
 * Copies what changesets reads (root package.json, .changeset/, every package.json and CHANGELOG.md) into
 * `copyDir`, adds an empty changeset with `npm run changeset -- add --empty` and a patch changeset for every
 * package, runs `npm run version-packages` there, and checks that every package got a higher version, a
 * CHANGELOG.md entry and updated internal dependency ranges, and that all changesets were consumed.
 * The repository's own files are fingerprinted before and after to prove they were not touched.
 *
 * @param {string} root
 * @param {readonly import('./workspace.mjs').WorkspacePackage[]} packages
 * @param {string} copyDir
 * @returns {Promise<{ bumps: string[], problems: string[] }>} `name old → new` per package, and one line
 *   per problem.
 */
export async function versionDryRun(root, packages, copyDir) {
  const watched = watchedFiles(root, packages);
  const before = fingerprints(watched);

  await copyReleaseInputs(root, packages, copyDir);
  // npm and changesets resolve their tools (changelog generator, prettier) from the copy's node_modules.
  await symlink(path.join(root, 'node_modules'), path.join(copyDir, 'node_modules'), 'junction');
  // The copy is not a git repository; this stops git from finding one further up the temporary directory.
  const env = cleanEnv({ GIT_CEILING_DIRECTORIES: path.dirname(copyDir) });

  await run('npm', ['run', 'changeset', '--', 'add', '--empty'], { cwd: copyDir, env });
  const changesetDir = path.join(copyDir, '.changeset');
  const pendingBefore = pendingChangesets(changesetDir);
  /** @type {string[]} */
  const problems = [];
  if (pendingBefore.length < 2) problems.push('`npm run changeset -- add --empty` wrote no changeset file');

  const releases = packages.map((pkg) => `"${pkg.name}": patch`).join('\n');
  await writeFile(
    path.join(changesetDir, `${DRY_RUN_CHANGESET}.md`),
    `---\n${releases}\n---\n\n${DRY_RUN_SUMMARY}\n`,
  );
  await run('npm', ['run', 'version-packages'], { cwd: copyDir, env });

  const bumps = [];
  /** @type {Map<string, string>} */
  const newVersions = new Map();
  for (const pkg of packages) {
    const manifest = readJson(path.join(copyDir, pkg.relativeDir, 'package.json'));
    newVersions.set(pkg.name, manifest.version);
    bumps.push(`${pkg.name} ${pkg.version} → ${manifest.version}`);
    if (compareVersions(manifest.version, pkg.version) <= 0) {
      problems.push(`${pkg.name}: version stayed at ${manifest.version}`);
    }
    const changelogPath = path.join(copyDir, pkg.relativeDir, 'CHANGELOG.md');
    const changelog = existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : '';
    if (!changelog.includes(`## ${manifest.version}`) || !changelog.includes(DRY_RUN_SUMMARY)) {
      problems.push(`${pkg.name}: CHANGELOG.md has no entry for ${manifest.version}`);
    }
  }
  for (const pkg of packages) {
    /** @type {import('./workspace.mjs').PackageManifest} */
    const manifest = readJson(path.join(copyDir, pkg.relativeDir, 'package.json'));
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      const version = newVersions.get(dependency);
      if (version && range.replace(/^[\^~]/, '') !== version) {
        problems.push(
          `${pkg.name}: dependency ${dependency} stayed at "${range}" instead of following ${version}`,
        );
      }
    }
  }
  const left = pendingChangesets(changesetDir);
  if (left.length > 0) problems.push(`changesets left unconsumed: ${left.join(', ')}`);

  const after = fingerprints(watched);
  const changed = watched.filter((file) => after.get(file) !== before.get(file));
  if (changed.length > 0) problems.push(`the dry run modified the repository: ${changed.join(', ')}`);
  return { bumps, problems };
}

/**
 * The files `changeset version` reads and writes, relative to the repository root.
 *
 * @param {string} root
 * @param {readonly import('./workspace.mjs').WorkspacePackage[]} packages
 */
function releaseInputs(root, packages) {
  const changesets = readdirSync(path.join(root, '.changeset')).map((file) => path.join('.changeset', file));
  const perPackage = packages.flatMap((pkg) =>
    ['package.json', 'CHANGELOG.md'].map((file) => path.join(pkg.relativeDir, file)),
  );
  return ['package.json', ...changesets, ...perPackage].filter((file) => existsSync(path.join(root, file)));
}

/**
 * @param {string} root
 * @param {readonly import('./workspace.mjs').WorkspacePackage[]} packages
 * @param {string} copyDir
 */
async function copyReleaseInputs(root, packages, copyDir) {
  for (const file of releaseInputs(root, packages)) {
    await mkdir(path.dirname(path.join(copyDir, file)), { recursive: true });
    await copyFile(path.join(root, file), path.join(copyDir, file));
  }
}

/**
 * Every file the version run could touch in the repository, as absolute paths, including ones not there yet.
 *
 * @param {string} root
 * @param {readonly import('./workspace.mjs').WorkspacePackage[]} packages
 */
function watchedFiles(root, packages) {
  const files = new Set(releaseInputs(root, packages).map((file) => path.join(root, file)));
  for (const pkg of packages) files.add(path.join(pkg.dir, 'CHANGELOG.md'));
  return [...files];
}

/**
 * A digest per file of its contents; an absent file gets none, so appearing or vanishing counts as a change.
 *
 * @param {readonly string[]} files
 */
function fingerprints(files) {
  /** @type {Map<string, string>} */
  const digests = new Map();
  for (const file of files) {
    digests.set(
      file,
      existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'absent',
    );
  }
  return digests;
}

/**
 * @param {string} changesetDir
 */
function pendingChangesets(changesetDir) {
  return readdirSync(changesetDir).filter((file) => file.endsWith('.md') && file !== 'README.md');
}

/**
 * Compares two `major.minor.patch` versions (a prerelease tag counts as lower than the release).
 *
 * @param {string} a
 * @param {string} b
 */
function compareVersions(a, b) {
  const parse = (/** @type {string} */ version) => {
    const [core = '', prerelease] = version.split('-');
    return [...core.split('.').map(Number), prerelease ? 0 : 1];
  };
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < left.length; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
