/**
 * Checks on the workspace packages' builds, made before a figure measures them: a missing or stale build
 * would measure code that is not the current one, and a loader that rewrote the `dist` files would measure
 * code users never run.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (two levels above this file). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The SDK's ES module build, what `import('@company-data/sdk')` loads for users. */
export const SDK_DIST = 'packages/sdk/dist/index.js';

/** Each built file, with the source folders whose changes it must include (the SDK imports the contract). */
const BUILDS: readonly { file: string; sources: readonly string[] }[] = [
  { file: SDK_DIST, sources: ['packages/sdk/src', 'packages/contract/src'] },
  { file: 'packages/sdk/dist/index.cjs', sources: ['packages/sdk/src', 'packages/contract/src'] },
  { file: 'packages/contract/dist/index.js', sources: ['packages/contract/src'] },
  { file: 'packages/contract/dist/runtime.js', sources: ['packages/contract/src'] },
  {
    file: 'packages/mock-server/dist/cli.js',
    sources: ['packages/mock-server/src', 'packages/contract/src'],
  },
];

/** The most recently modified file under a folder of the repository. */
function newestFile(folder: string): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const entry of readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })) {
    const file = path.join(folder, entry);
    const stat = statSync(path.join(REPO_ROOT, file));
    if (stat.isFile() && (!newest || stat.mtimeMs > newest.mtimeMs)) newest = { file, mtimeMs: stat.mtimeMs };
  }
  return newest;
}

/**
 * Why the built SDK cannot be measured — a build file missing, or older than a source file it is built from
 * — or `undefined` when every build is current. Compares modification times, as `make` would.
 */
export function staleBuild(): string | undefined {
  for (const build of BUILDS) {
    const target = path.join(REPO_ROOT, build.file);
    if (!existsSync(target)) return `${build.file} does not exist: run npm run build`;
    const builtAt = statSync(target).mtimeMs;
    for (const folder of build.sources) {
      const newest = newestFile(folder);
      if (newest && newest.mtimeMs > builtAt) {
        return `${build.file} is older than ${newest.file}: run npm run build`;
      }
    }
  }
  return undefined;
}

/** Throws (so the figure is reported as not measured, with the reason) unless the builds are current. */
export function assertFreshBuild(): void {
  const reason = staleBuild();
  if (reason) throw new Error(`not measured: ${reason}`);
}

/**
 * Throws unless the SDK this process imported is its build, byte for byte: `resolved` (what the specifier
 * resolves to here) must be the SDK's `dist/index.js`, and the source text of each exported function or class
 * must appear verbatim in that file. The benchmark's TypeScript runs through tsx, whose transform adds
 * `__name(…)` calls (keepNames) to what it compiles; if it ever compiled the dist file, this catches it.
 */
export function assertRunsBuiltSdk(resolved: string, exports: Record<string, unknown>): void {
  const file = path.join(REPO_ROOT, SDK_DIST);
  if (fileURLToPath(resolved) !== file) {
    throw new Error(
      `@company-data/sdk resolves to ${path.relative(REPO_ROOT, fileURLToPath(resolved))}, not ${SDK_DIST}`,
    );
  }
  const text = readFileSync(file, 'utf8');
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value !== 'function') continue;
    const source = Function.prototype.toString.call(value);
    if (!text.includes(source)) {
      const why = source.includes('__name(') ? " (it contains tsx's __name helper)" : '';
      throw new Error(`the SDK's ${name} is not the code of ${SDK_DIST}${why}: a loader transformed it`);
    }
  }
}

/**
 * The packages a built file imports, by scanning its text: at load (`from "…"`, bare `import "…"`) and on
 * first need (`import("…")`). When the import cost misses its target, the first are what to look at.
 */
export function importedSpecifiers(file: string): { atLoad: string[]; onDemand: string[] } {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const collect = (pattern: RegExp) =>
    [...new Set([...text.matchAll(pattern)].map((match) => match[1] as string))].sort();
  return {
    atLoad: collect(/(?:\bfrom\s*|\bimport\s+)["']([^"']+)["']/g),
    onDemand: collect(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
  };
}
