// `npm run check:packages`: proves the packages publish and install cleanly. Run after `npm run build`.
//
//   node scripts/check-packages.mjs [--only=lint,contents,consumer,release,registry] [--keep-temp]
//
// Steps: pack the packages with the from-a-clone command of Getting started; publint (strict) and Are the
// Types Wrong? (strict profile); each tarball ships only what users need (the files `npm publish` uploads);
// every guide followed as written, in the README's order, in one shell and one project, from an empty home
// folder, with a PostgreSQL of their own as $DATABASE_URL (scripts/lib/postgres-server.mjs; skipped loudly
// where PostgreSQL is missing outside CI, then DATABASE_URL is unset): each shell
// command (Getting started's pack in the clone, its project outside the workspace, the mock server it leaves
// running for the guides after it), each snippet and each printed command, each Python snippet pasted into one
// python3 per guide (scripts/packaging/python-session.mjs), then the package READMEs' quick
// starts, their printed output checked against their `// → ` (`# → `) comments (scripts/packaging/guide-snippets.mjs,
// guide-runner.mjs); in the project the guides made, an ESM and a CJS script against a started mock server,
// a test file of the mock server's vitest matchers run by the project's vitest (a passing and a failing
// expectation, and vitest printing the near-miss report) and type-checked by its tsc, a folder of two test files
// run by `npx vitest run` at once under the one-line global setup, each in its own session of the run's one
// mock (scripts/pack-consumer/sessions/) and the same in a CommonJS project (sessions-cjs/), a check that
// importing the SDK loads no schemas, a smoke script under Bun and Deno, and on each Node.js that
// scripts/packaging/tools pins (the engines floor, the newest 22, 24 and 26) the smoke script against the
// mock's single-file build, export and sync into the guides' PostgreSQL, and the vitest folders
// (scripts/packaging/node-matrix.mjs); the changesets release
// flow works (status, and a version run in a throwaway copy); and install by name, rehearsed: the packages
// published through changesets into a throwaway local registry (Verdaccio on loopback, no uplink), then
// installed by name in a fresh project with the README's and Getting started's commands, and Getting
// started's first-calls.ts run (scripts/packaging/registry-rehearsal.mjs); after publishing, the mock's
// single executable built in the same release copy as `npm run release` builds it, then run alone in an empty
// folder without node on its PATH, and as its guide runs it (scripts/sea/). The guides and what follows them
// run beside the other steps. Prints one line per step as it ends and exits non-zero when any step fails.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readGuides } from './docs/guides.mjs';
import { codeBlocks } from './docs/markdown.mjs';
import { postgresOrSkip, startPostgres } from './lib/postgres-server.mjs';
import { checkConsumerProject, runConsumers, runMatchers, runSharedMock } from './packaging/consumer.mjs';
import { readerEnv, runGuides } from './packaging/guide-runner.mjs';
import { inReadmeOrder, readmeQuickStarts, snippetPlan } from './packaging/guide-snippets.mjs';
import { attwProblems, publintProblems } from './packaging/lint-packages.mjs';
import { HOST_LOOPBACK, isolatedNetworkOrSkip } from './packaging/network-namespace.mjs';
import { checkOnNode } from './packaging/node-matrix.mjs';
import { ENGINES_FLOOR, installedNodes, missingNode } from './packaging/node-versions.mjs';
import { packWorkspaces } from './packaging/pack.mjs';
import { cleanEnv } from './packaging/process.mjs';
import { installRecipe } from './packaging/recipe.mjs';
import { installByName, publishThroughChangesets, startRegistry } from './packaging/registry-rehearsal.mjs';
import { changesetStatus, releaseWiringProblems, versionDryRun } from './packaging/release-flow.mjs';
import { checkLazySchemas, checkRuntimes } from './packaging/runtimes.mjs';
import { tarballContents } from './packaging/tarball-contents.mjs';
import { packagingTools } from './packaging/tools.mjs';
import { checkWithout, WITHOUT_CHECKS } from './packaging/without-optional.mjs';
import { assertBuilt, publishablePackages, ROOT } from './packaging/workspace.mjs';
import { buildMockBinary } from './sea/build.mjs';
import { bundleCli } from './sea/bundle.mjs';
import { mockBinaryPlan, runMockBinaryBlocks } from './sea/guide-blocks.mjs';
import { checkAlone, copyAlone } from './sea/run-alone.mjs';
import { programOrSkip } from './system-packages.mjs';

const GROUPS = ['lint', 'contents', 'consumer', 'release', 'registry'];
const options = parseArguments(process.argv.slice(2));
const started = performance.now();
/** @type {{ name: string, ok: boolean }[]} */
const results = [];

/** @typedef {import('./packaging/workspace.mjs').WorkspacePackage} WorkspacePackage */
/** @typedef {import('./packaging/pack.mjs').Packed} Packed */
/** @typedef {import('./packaging/recipe.mjs').InstallRecipe} InstallRecipe */
/** @typedef {import('./docs/guides.mjs').Guide} Guide */

/**
 * Runs one step, prints its one-line outcome (details indented below on failure) and records it. `elapsed`
 * overrides the measured time, for a step whose work ran earlier in parallel.
 *
 * @param {string} name
 * @param {() => Promise<string>} action - resolves with the step's one-line summary.
 * @param {number} [elapsed] - in ms.
 * @returns {Promise<string | undefined>} the summary; undefined when the step failed.
 */
async function step(name, action, elapsed) {
  const stepStarted = performance.now();
  try {
    const summary = await action();
    const seconds = ((elapsed ?? performance.now() - stepStarted) / 1000).toFixed(1);
    console.log(`ok    ${name}: ${summary} (${seconds} s)`);
    results.push({ name, ok: true });
    return summary;
  } catch (error) {
    const [headline, ...details] = String(error instanceof Error ? error.message : error).split('\n');
    console.log(`FAIL  ${name}: ${headline}`);
    for (const line of details) console.log(`      ${line}`);
    results.push({ name, ok: false });
    return undefined;
  }
}

/**
 * Throws the problems as one error (first line a count, then one problem per line), if there are any.
 *
 * @param {readonly string[]} problems
 * @param {string} what - what they are, after their count.
 */
function failOn(problems, what) {
  if (problems.length > 0) {
    throw new Error(`${problems.length} ${what}\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
  }
}

const kB = (/** @type {number} */ bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const shortName = (/** @type {string} */ name) => name.replace('@company-data/', '');

const tempRoot = mkdtempSync(path.join(os.tmpdir(), 'company-data-check-packages-'));
const tarballDir = path.join(tempRoot, 'tarballs');
const cleanUp = () => {
  if (!options.keepTemp) rmSync(tempRoot, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

try {
  const packages = publishablePackages();
  const built = await step('built', async () => {
    for (const pkg of packages) assertBuilt(pkg);
    return packages.map((pkg) => `${pkg.name}@${pkg.version}`).join(', ');
  });
  if (built) {
    const guides = readGuides(ROOT);
    /** @type {InstallRecipe | undefined} */
    let recipe;
    await step('install recipe', async () => {
      recipe = installRecipe(guides);
      return `from Getting started: npm ${recipe.pack.join(' ')}, then ${recipe.setup.length} commands in a fresh project`;
    });
    const needsPacks =
      recipe && ['lint', 'contents', 'consumer', 'registry'].some((group) => options.groups.has(group));
    const needsTools = ['lint', 'consumer', 'registry'].some((group) => options.groups.has(group));
    // The pinned tools (attw, Bun, Deno, Verdaccio) install while the packages pack.
    const tools = needsPacks && needsTools ? packagingTools() : undefined;
    tools?.catch(() => {}); // reported by the step below, once the packing is done
    const packed = needsPacks && recipe ? await packAll(recipe, packages) : [];
    const allPacked = packed.length === packages.length;
    // The guides, one command after another, are the longest part: everything that does not need the
    // project they make runs beside them, one after another, in its own folders and on its own ports. The
    // guides need none of the tools, whose first install (a gigabyte, four Node.js builds among it) takes a
    // minute on a fresh machine: they start at once, and what needs the tools waits for them.
    const followGuides = async () => {
      if (options.groups.has('consumer') && allPacked) await checkConsumer(packed, guides);
    };
    const checkTheRest = async () => {
      if (tools) await step('packaging tools', async () => toolsSummary(await tools));
      if (options.groups.has('lint')) await lint(allPacked ? packed : []);
      if (options.groups.has('contents')) await checkContents(allPacked ? packed : []);
      if (options.groups.has('release')) await checkReleaseFlow(packages);
      if (options.groups.has('registry') && allPacked && recipe)
        await checkInstallByName(recipe, packed, guides);
      if (options.groups.has('consumer') && allPacked) await checkOptionalPeers(packed);
    };
    await Promise.all([followGuides(), checkTheRest()]);
  }
} finally {
  cleanUp();
}

const failed = results.filter((result) => !result.ok);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (options.keepTemp) console.log(`kept temporary files in ${tempRoot}`);
if (failed.length > 0) {
  console.log(`check:packages: ${failed.length} of ${results.length} steps failed (${seconds} s)`);
  process.exitCode = 1;
} else {
  console.log(`check:packages: all ${results.length} steps passed (${seconds} s)`);
}

/** Where the pinned tools came from, in one line. */
function toolsSummary(/** @type {import('./packaging/tools.mjs').PackagingTools} */ { dir, installedIn }) {
  const how = installedIn === undefined ? 'cached' : `installed in ${(installedIn / 1000).toFixed(1)} s`;
  const nodes = installedNodes(dir).map((node) => node.version);
  return `attw, Bun, Deno, Verdaccio and node ${nodes.join(', ')} as scripts/packaging/tools pins them: ${how} (${dir})`;
}

/**
 * Packs every package once, as the recipe says; the tarballs feed attw, the projects without msw and without Redis, and the release rehearsal (the guides pack their own, as written).
 *
 * @param {InstallRecipe} recipe
 * @param {readonly WorkspacePackage[]} packages
 */
async function packAll(recipe, packages) {
  /** @type {Packed[]} */
  let packed = [];
  await step('npm pack', async () => {
    packed = await packWorkspaces(recipe, packages, tarballDir);
    return packed.map(({ pkg, size }) => `${shortName(pkg.name)} ${kB(size)}`).join(', ');
  });
  return packed;
}

/**
 * @param {readonly Packed[]} packed
 */
async function lint(packed) {
  for (const { pkg, tarball } of packed) {
    await step(`publint ${pkg.name}`, async () => {
      failOn(await publintProblems(tarball), 'publint problems (strict: warnings and suggestions count)');
      return 'no problems (strict), in its tarball';
    });
  }
  for (const { pkg, tarball } of packed) {
    await step(`attw ${pkg.name}`, async () => {
      failOn(await attwProblems(ROOT, tarball), 'type resolution problems (strict profile)');
      return 'node10, node16 (CJS and ESM) and bundler resolve correct types';
    });
  }
}

/**
 * @param {readonly Packed[]} packed
 */
async function checkContents(packed) {
  for (const tarball of packed) {
    await step(`contents ${tarball.pkg.name}`, async () => {
      const { files, size, problems } = await tarballContents(tarball);
      failOn(problems, 'files users do not need, or needed files missing');
      return `${files.length} files, ${kB(size)}, only what users need (the files npm publish uploads)`;
    });
  }
}

/**
 * @param {readonly Packed[]} packed
 * @param {readonly Guide[]} guides
 */
async function checkConsumer(packed, guides) {
  /** @type {import('./lib/postgres-server.mjs').PostgresServer | undefined} */
  let database;
  try {
    await checkConsumerWith(packed, guides, (started) => {
      database = started;
    });
  } finally {
    await database?.stop();
  }
}

/**
 * The guides, then the checks in the project they made. The guides' PostgreSQL stays up for the checks on the
 * other Nodes; `keep` hands it to {@link checkConsumer}, which stops it.
 *
 * @param {readonly Packed[]} packed
 * @param {readonly Guide[]} guides
 * @param {(database: import('./lib/postgres-server.mjs').PostgresServer) => void} keep
 */
async function checkConsumerWith(packed, guides, keep) {
  /** @type {string | undefined} */
  let projectDir;
  /** @type {string | undefined} */
  let databaseUrl;
  /** @type {string[]} */
  let guideLines = [];
  await step('guides in one shell', async () => {
    const ordered = inReadmeOrder(guides, readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    const readmes = readmeQuickStarts(ROOT, ['sdk', 'mock-server', 'contract'], codeBlocks);
    const plan = snippetPlan(ordered, readmes);
    const home = path.join(tempRoot, 'home');
    // The guides' database ($DATABASE_URL): a PostgreSQL of their own, for the run. Missing, it fails the
    // step under CI; elsewhere it is skipped loudly, and DATABASE_URL stays unset.
    const postgres = postgresOrSkip({ log: console.log });
    const database = postgres === undefined ? undefined : await startPostgres({ postgres });
    if (database) keep(database);
    databaseUrl = database?.url;
    // Ports of their own, so a reader's mock left on 4010 does not fail npm test.
    const network = isolatedNetworkOrSkip({ log: console.log });
    const result = await runGuides({
      plan,
      home,
      cloneDir: ROOT,
      env: await readerEnv(home, cleanEnv(), {
        // From inside their network, the machine's loopback has another address.
        databaseUrl: network ? database?.url.replace('@127.0.0.1:', `@${HOST_LOOPBACK}:`) : database?.url,
        keptMock: path.join(tempRoot, 'kept-mock.json'),
      }),
      sessionDir: path.join(tempRoot, 'shell'),
      network,
    });
    projectDir = result.projectDir;
    guideLines = result.lines;
    const steps = plan.guides.flatMap((guide) => guide.steps);
    const commands = steps.filter((step) => !('save' in step) && !step.doneBefore).length;
    const promised = steps.reduce((sum, step) => sum + ('save' in step ? 0 : step.promises.length), 0);
    const networkLine = network
      ? `in ${network.how}`
      : "SKIPPED their own network (they used the machine's ports)";
    const databaseLine = database
      ? `DATABASE_URL a PostgreSQL of their own (${database.url}), kept for the checks on other Nodes`
      : 'SKIPPED their database (no PostgreSQL: DATABASE_URL unset)';
    return `${guides.length} guides in the README's order and ${readmes.length} package READMEs' quick starts, followed as written in one shell and one project: ${commands} commands, ${plan.files.size} files, ${promised} promised output lines checked; ${networkLine}; ${databaseLine}`;
  });
  for (const line of guideLines) console.log(`      ${line}`);
  if (!projectDir) return;
  const project = projectDir;
  const installed = await step('consumer project', async () => {
    const lines = await checkConsumerProject(project, packed);
    return `the project the guides set up, outside the workspace: ${lines.join(', ')}`;
  });
  if (!installed) return;
  /** @type {{ script: string, lines: string[] }[]} */
  let outputs = [];
  await step('consumer scripts', async () => {
    outputs = await runConsumers(project);
    return outputs
      .map(
        ({ script, lines }) => `${script} passed ${lines.filter((line) => / ok /.test(line)).length} checks`,
      )
      .join(', ');
  });
  for (const { lines } of outputs) for (const line of lines) console.log(`      ${line}`);
  /** @type {string[]} */
  let matcherLines = [];
  await step('mock server vitest matchers', async () => {
    matcherLines = await runMatchers(project);
    return "a test file with expect(mock).toHaveReceived…, run by the project's vitest and type-checked by its tsc";
  });
  for (const line of matcherLines) console.log(`      ${line}`);
  /** @type {string[]} */
  let sessionLines = [];
  await step('mock server vitest sessions', async () => {
    sessionLines = await runSharedMock(project);
    return "the one-line globalSetup and useMockSession(): two test files at once, each in its own session of the run's one mock, and a CommonJS project's global setup and test file, run by npx vitest run in the project and type-checked by its tsc";
  });
  for (const line of sessionLines) console.log(`      ${line}`);
  /** @type {string[]} */
  let lazyLines = [];
  await step('sdk loads its schemas lazily', async () => {
    lazyLines = await checkLazySchemas(project);
    return 'importing the SDK and valid calls load neither zod nor the schemas';
  });
  for (const line of lazyLines) console.log(`      ${line}`);
  /** @type {string[]} */
  let runtimeLines = [];
  await step('sdk on bun and deno', async () => {
    runtimeLines = await checkRuntimes(project);
    const skipped = runtimeLines.filter((line) => line.startsWith('SKIPPED'));
    return skipped.length > 0
      ? `SKIPPED ${skipped.length} runtime(s): see below`
      : 'list with prefetch, retrieve, NotFoundError, both webhooks and close, under each, against the installed mock CLI';
  });
  for (const line of runtimeLines) console.log(`      ${line}`);
  await checkOtherNodes(project, databaseUrl);
}

/**
 * The packages on each Node.js that scripts/packaging/tools pins (scripts/packaging/node-matrix.mjs): the
 * smoke script against the mock's single-file build, export and sync into PostgreSQL against the installed
 * mock, and the vitest folders. A Node with no package for this platform is SKIPPED in capitals, and fails
 * under CI.
 *
 * @param {string} projectDir - the project the guides made.
 * @param {string | undefined} databaseUrl - the guides' PostgreSQL, seen from this machine.
 */
async function checkOtherNodes(projectDir, databaseUrl) {
  const tools = await packagingTools();
  const singleFile = path.join(tempRoot, 'single-file', 'company-data-mock.cjs');
  const bundled = await step('mock single file', async () => {
    const { bytes } = await bundleCli(ROOT, singleFile);
    return `the mock's command in one CommonJS script, as npm run build:mock-binary bundles it: ${kB(bytes)}`;
  });
  if (!bundled) return;
  for (const node of installedNodes(tools.dir)) {
    /** @type {string[]} */
    let lines = [];
    await step(`on node ${node.version}`, async () => {
      const missing = missingNode(node);
      if (missing !== undefined) {
        if (process.env.CI === 'true') throw new Error(missing);
        return `SKIPPED: ${missing}`;
      }
      lines = await checkOnNode(node, { projectDir, singleFile, databaseUrl });
      const [which, last] =
        node.version === ENGINES_FLOOR
          ? ["the packages' engines floor", 'the CommonJS builds by require() (vitest does not run on it)']
          : [`node ${node.major}'s newest`, "the project's vitest folders"];
      return `${which}: the SDK's smoke script against the mock's single-file build, company-data export and sync into PostgreSQL against its installed command, and ${last} (below)`;
    });
    for (const line of lines) console.log(`      ${line}`);
  }
}

/**
 * The packages without their optional peers, each in a project of its own (not the guides' one, so beside
 * the guides).
 *
 * @param {readonly Packed[]} packed
 */
async function checkOptionalPeers(packed) {
  for (const check of WITHOUT_CHECKS) await step(check.title, () => checkWithout(check, tempRoot, packed));
}

/**
 * @param {readonly WorkspacePackage[]} packages
 */
async function checkReleaseFlow(packages) {
  await step('release scripts', async () => {
    failOn(releaseWiringProblems(ROOT, packages), 'release flow problems');
    return 'changeset, version-packages and release are wired; packages publish publicly';
  });
  await step('changeset status', async () => {
    const { since, changesets, releases } = await changesetStatus(ROOT, tempRoot);
    const plan = releases.map(
      (release) => `${shortName(release.name)} ${release.newVersion} (${release.type})`,
    );
    return `${changesets} pending changesets since ${since}; would release ${plan.join(', ') || 'nothing'}`;
  });
  await step('changeset version (dry run in a copy)', async () => {
    const { bumps, problems } = await versionDryRun(ROOT, packages, path.join(tempRoot, 'release-copy'));
    failOn(problems, 'release flow problems');
    return `${bumps.join(', ')}; CHANGELOG.md written; repository untouched`;
  });
}

/**
 * @param {InstallRecipe} recipe
 * @param {readonly Packed[]} packed
 * @param {readonly Guide[]} guides
 */
async function checkInstallByName(recipe, packed, guides) {
  /** @type {{ url: string, stop: () => Promise<void> } | undefined} */
  let registry;
  const started = await step('local registry', async () => {
    registry = await startRegistry(path.join(tempRoot, 'registry'));
    return `Verdaccio on ${registry.url}, storage in the temporary folder, no uplink`;
  });
  if (!started || !registry) return;
  const { url: registryUrl, stop: stopRegistry } = registry;
  try {
    /** @type {Map<string, string>} */
    let versions = new Map();
    const publishCopy = path.join(tempRoot, 'publish-copy');
    const published = await step('publish through changesets', async () => {
      versions = await publishThroughChangesets(ROOT, packed, publishCopy, registryUrl);
      return `npm run version-packages, then changeset publish: ${[...versions].map(([name, version]) => `${shortName(name)}@${version}`).join(', ')}`;
    });
    if (!published) return;
    await checkMockBinary(publishCopy, versions.get('@company-data/mock-server') ?? '', guides);
    /** @type {string[]} */
    let lines = [];
    await step('install by name', async () => {
      const { files } = snippetPlan(guides);
      lines = await installByName(
        ROOT,
        path.join(tempRoot, 'by-name'),
        registryUrl,
        versions,
        recipe,
        packed,
        files,
      );
      return 'a fresh project installs the published packages by name, as the README and Getting started print, and runs first-calls.ts';
    });
    for (const line of lines) console.log(`      ${line}`);
  } finally {
    await stopRegistry();
  }
}

/**
 * The mock's single executable as `npm run release` makes it after publishing (`npm run build:mock-binary`),
 * here in the release copy, from the sources published at their new version; then run as a person without
 * Node runs it, alone in an empty folder (scripts/sea/run-alone.mjs), and as the guides' `with-mock-binary`
 * blocks run it (scripts/sea/guide-blocks.mjs). Built once, about 100 MB, in the temporary folder.
 *
 * @param {string} releaseCopy
 * @param {string} version - the mock server's published version.
 * @param {readonly Guide[]} guides
 */
async function checkMockBinary(releaseCopy, version, guides) {
  /** @type {import('./sea/build.mjs').MockBinary | undefined} */
  let built;
  await step('mock binary', async () => {
    built = await buildMockBinary(releaseCopy);
    if (built.version !== version)
      throw new Error(`built from mock server ${built.version}, but ${version} was published`);
    const mb = (built.bytes / 1e6).toFixed(1);
    return `npm run build:mock-binary after publishing: ${path.basename(built.binary)} (${mb} MB, script ${kB(built.bundleBytes)}) and its .sha256`;
  });
  if (!built) return;
  const binary = built;
  const base = path.join(tempRoot, 'mock-binary');
  /** @type {import('./sea/run-alone.mjs').Alone | undefined} */
  let alone;
  /** @type {string[]} */
  let lines = [];
  const ran = await step('mock binary alone', async () => {
    alone = await copyAlone(binary, base);
    lines = await checkAlone(alone, version);
    return 'copied alone with its checksum file into an empty folder, PATH an empty folder: it serves, and stops on SIGTERM and with its parent';
  });
  for (const line of lines) console.log(`      ${line}`);
  if (!ran || !alone) return;
  const folder = alone.dir;
  lines = [];
  await step('mock binary in its guide', async () => {
    const plan = mockBinaryPlan(guides);
    if (programOrSkip('pytest-3', { log: console.log }) === undefined)
      return `SKIPPED ${plan.commands.length} commands: no pytest (see above)`;
    lines = await runMockBinaryBlocks(plan, folder, path.join(base, 'programs'));
    const skipped = lines.filter((line) => line.startsWith('SKIPPED')).length;
    const where = plan.folder ? `the tests' folder (the guide's ${plan.folder})` : "the tests' folder";
    return `${plan.commands.length - skipped} commands of the guides' with-mock-binary blocks in ${where}, beside the binary, no node on the PATH${skipped > 0 ? `; ${skipped} SKIPPED (below)` : ''}`;
  });
  for (const line of lines) console.log(`      ${line}`);
}

/** @param {readonly string[]} args */
function parseArguments(args) {
  const groups = new Set(GROUPS);
  let keepTemp = false;
  for (const arg of args) {
    if (arg === '--keep-temp') {
      keepTemp = true;
    } else if (arg.startsWith('--only=')) {
      groups.clear();
      for (const group of arg.slice('--only='.length).split(',')) {
        if (!GROUPS.includes(group)) usage(`unknown group "${group}"`);
        groups.add(group);
      }
    } else {
      usage(`unknown argument "${arg}"`);
    }
  }
  return { groups, keepTemp };
}

/**
 * @param {string} problem
 * @returns {never}
 */
function usage(problem) {
  console.error(
    `check-packages: ${problem}\nusage: node scripts/check-packages.mjs [--only=${GROUPS.join(',')}] [--keep-temp]`,
  );
  process.exit(2);
}
