// A TypeScript entry of this repository, and the workspace sources it imports, compiled into one JavaScript
// file that plain `node` runs: how the tests and `examples/with-mock.mjs` start the packages' commands (the
// mock server's, the CLI's) and the tests' own worker scripts in child processes, from the sources, with
// nothing built first. The published commands are such bundles too (tsup's, of the same sources).
//
// Why not tsx: Node 20 resolves and loads every module of a child started with `--import tsx` through tsx's
// hooks, on a thread of their own. For the CLI's 171 modules that costs about 1.4 CPU-seconds a process (2.0
// against 0.5), for the mock server's 93 about 0.6; `npm test` starts some forty such processes. Compiling
// takes 0.2 to 0.3 CPU-seconds, once per entry and process. The examples still run through tsx, as their
// README tells a reader to run them.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * Where the compiled files go: inside the repository's `node_modules`, so that the third-party packages they
 * import resolve from there, as they do from the sources.
 */
const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'company-data-source-bundles');
/** A compiled file no run has written for this long is removed (its sources have changed since). */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];

/** @type {Map<string, string>} */
const compiled = new Map();

/**
 * The compiled file of a TypeScript entry of this repository: the entry and the workspace packages it
 * imports, read from their sources (the `@company-data/source` condition), in one ES module; third-party
 * packages stay imports. Compiled on the first call in a process; a file with the same content is reused
 * across processes (its name holds a hash of it).
 *
 * @param {string} entry - the entry's path.
 * @returns {string} the compiled file's path, for `node <path> [arguments]`.
 * @throws {Error} when the sources do not compile (esbuild's message names the file and line).
 * @example
 * spawn(process.execPath, [sourceBundle('packages/mock-server/src/entries/bin.ts'), '--port', '0']);
 */
export function sourceBundle(entry) {
  const absolute = path.resolve(ROOT, entry);
  let file = compiled.get(absolute);
  if (file === undefined) {
    file = compile(absolute);
    compiled.set(absolute, file);
  }
  return file;
}

/** @param {string} entry - an absolute path. */
function compile(entry) {
  const [output] = buildSync({
    entryPoints: [entry],
    outfile: path.join(OUT_DIR, 'entry.mjs'),
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // As the packages' builds do (build/tsup.ts): a class keeps its source name in messages and stacks.
    keepNames: true,
    conditions: ['@company-data/source'],
    external: thirdPartyPackages(),
    logLevel: 'silent',
  }).outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  const hash = createHash('sha256').update(output.contents).digest('hex').slice(0, 16);
  const file = path.join(OUT_DIR, `${path.basename(entry, path.extname(entry))}-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(OUT_DIR, { recursive: true });
    // Written whole under another name first: a test process beside this one may be compiling it too.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, output.contents);
    renameSync(partial, file);
    removeStale();
  }
  return file;
}

/** Every package the workspace's manifests name, but the workspace's own: these stay imports. */
function thirdPartyPackages() {
  const manifests = [
    ROOT,
    ...readdirSync(path.join(ROOT, 'packages')).map((dir) => path.join(ROOT, 'packages', dir)),
  ];
  const names = new Set();
  for (const dir of manifests) {
    const manifestFile = path.join(dir, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    for (const field of DEPENDENCY_FIELDS) {
      for (const name of Object.keys(manifest[field] ?? {})) {
        if (!name.startsWith('@company-data/')) names.add(name);
      }
    }
  }
  return [...names];
}

/** Removes the compiled files of sources that have changed since, a day after they were written. */
function removeStale() {
  const now = Date.now();
  for (const name of readdirSync(OUT_DIR)) {
    const file = path.join(OUT_DIR, name);
    try {
      if (now - statSync(file).mtimeMs > STALE_AFTER_MS) rmSync(file, { force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
