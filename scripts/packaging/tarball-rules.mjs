// Decides whether the file list of a package tarball ships only what users need.

/** Files every package must ship. */
const REQUIRED = ['package.json', 'README.md', 'LICENSE'];

/** Top-level files any package may ship. */
const ALLOWED_TOP_LEVEL = new Set(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']);

/** The build output: ESM and CJS code, their declaration files and the source maps of the library. */
const ALLOWED_DIST = /^dist\/(?:[\w.-]+\/)*[\w.-]+\.(?:js|cjs|mjs|d\.ts|d\.cts|d\.mts)(?:\.map)?$/;

/** Library sources, shipped so the source maps resolve and the `@company-data/source` condition works. */
const ALLOWED_SRC = /^src\/(?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts|cts|json)$/;

/**
 * Things users never need, with the reason shown when one slips into a tarball.
 *
 * @type {readonly [RegExp, string][]}
 */
const FORBIDDEN = [
  [/(?:^|\/)(?:test|tests|__tests__|__mocks__|e2e)\//, 'test directory'],
  [/\.(?:test|spec|bench)\.[cm]?[jt]sx?(?:\.map)?$/, 'test file'],
  [/\.test-d\.[cm]?ts$/, 'type test'],
  // Fixture data, not the fixture-loading code a package may keep in a `fixture/` folder of its sources.
  [/(?:^|\/)_*fixtures?_*\/(?:[\w.-]+\/)*[\w.-]+\.(?:json|jsonl|ndjson|csv|ya?ml|txt|har)$/, 'test fixture'],
  [/(?:^|\/)coverage\//, 'coverage report'],
  [/(?:^|\/)(?:tsup|vitest|vite|rollup|esbuild)\.config\.[cm]?[jt]s$/, 'build or test config'],
  [/(?:^|\/)(?:tsconfig[\w.-]*\.json|biome\.jsonc?|\.npmrc)$/, 'tooling config'],
  [/\.tsbuildinfo$/, 'compiler cache'],
  [/\.tgz$/, 'packed tarball'],
  [/(?:^|\/)\.[^/]+$/, 'dotfile'],
];

/**
 * Checks a tarball's file list (paths relative to the package root, as `npm publish --dry-run --json` lists
 * them) against the shipping rules.
 *
 * @param {readonly string[]} files - the paths in the tarball.
 * @param {{ extraFiles?: readonly string[] }} [options] - exact paths this package ships on purpose (and must ship).
 * @returns {{ offending: { path: string, reason: string }[], missing: string[] }} files that must not be
 *   shipped, with why, and required files that are absent; both empty when the tarball is right.
 */
export function checkTarballFiles(files, { extraFiles = [] } = {}) {
  const extras = new Set(extraFiles);
  const offending = [];
  for (const file of files) {
    // A declared extra was shipped on purpose, even when it looks like something users never need.
    if (extras.has(file)) continue;
    const forbidden = FORBIDDEN.find(([pattern]) => pattern.test(file));
    if (forbidden) {
      offending.push({ path: file, reason: forbidden[1] });
    } else if (!(ALLOWED_TOP_LEVEL.has(file) || ALLOWED_DIST.test(file) || ALLOWED_SRC.test(file))) {
      offending.push({ path: file, reason: 'not in the list of files users need' });
    }
  }
  const shipped = new Set(files);
  const missing = [...REQUIRED, ...extraFiles].filter((file) => !shipped.has(file));
  return { offending, missing };
}
