// The class names a user's stack trace and `constructor.name` show come from the build, not the sources:
// esbuild renames a class that refers to itself (`class _CompanyDataError`) unless told to keep names. So
// this builds the SDK with its own tsup config (ESM and CJS, without declarations, into a temporary folder
// under node_modules/.cache, the workspace packages bundled from their sources) and reads the names in a
// plain Node process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sdkConfig from '../../tsup.config.js';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
/** Inside the repository, so the build's dependencies (undici, zod) resolve from its node_modules. */
const { dependencies: deps = {}, peerDependencies: peers = {} } = JSON.parse(
  readFileSync(join(PACKAGE, 'package.json'), 'utf8'),
);
const dependencies = [...Object.keys(deps), ...Object.keys(peers)];
const CACHE = fileURLToPath(new URL('../../../../node_modules/.cache', import.meta.url));

/** Every class the SDK exports, and what a user sees of each: the names and the first line of a stack. */
const PROBE = `
  const sdk = FORMAT === 'esm' ? await import(ENTRY) : require(ENTRY);
  const seen = {};
  for (const [name, value] of Object.entries(sdk)) {
    if (typeof value !== 'function' || !/^[A-Z]/.test(name)) continue;
    seen[name] = { name: value.name };
    if (value.prototype instanceof Error) {
      // The classes whose first argument is a code or a reason rather than the message.
      const codeFirst = ['CompanyDataError', 'AuthenticationError', 'ConfigurationError'].includes(name);
      const error = Reflect.construct(value, codeFirst ? ['invalid_key', 'boom'] : ['boom', []]);
      seen[name].error = [String(error), error.name, error.constructor.name, error.stack.split('\\n')[0]];
    }
  }
  console.log(JSON.stringify(seen));
`;

function probe(format: 'esm' | 'cjs', entry: string): Record<string, { name: string; error?: string[] }> {
  const code = `const FORMAT = '${format}'; const ENTRY = ${JSON.stringify(entry)};${PROBE}`;
  const args =
    format === 'esm'
      ? ['--input-type=module', '-e', code]
      : ['--input-type=commonjs', '-e', `(async () => {${code}})()`];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }));
}

describe('the built SDK keeps its class names (ESM and CJS)', { timeout: 60_000 }, () => {
  mkdirSync(CACHE, { recursive: true });
  const out = mkdtempSync(join(CACHE, 'sdk-class-names-'));
  beforeAll(async () => {
    await build({
      ...(sdkConfig as Options),
      entry: [join(PACKAGE, 'src/index.ts')],
      tsconfig: join(PACKAGE, '../../tsconfig.base.json'),
      outDir: out,
      dts: false,
      sourcemap: false,
      silent: true,
      // The contract from its sources (no build of it needed); the other dependencies stay external.
      noExternal: [/^@company-data\//],
      external: dependencies.filter((name) => !name.startsWith('@company-data/')),
      esbuildOptions(options) {
        options.conditions = ['@company-data/source'];
      },
    });
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it.each([
    ['esm', 'index.js'],
    ['cjs', 'index.cjs'],
  ] as const)('%s: every class, and an uncaught error, says its own name', (format, file) => {
    const seen = probe(format, join(out, file));
    expect(Object.keys(seen)).toEqual(
      expect.arrayContaining(['CompanyData', 'CompanyDataError', 'NotFoundError']),
    );
    for (const [exported, { name, error }] of Object.entries(seen)) {
      expect(name, exported).toBe(exported);
      if (error)
        expect(error, exported).toEqual([`${exported}: boom`, exported, exported, `${exported}: boom`]);
    }
    // The error classes took the branch above (an error was thrown and caught for them).
    for (const exported of ['CompanyDataError', 'AuthenticationError'])
      expect(seen[exported]?.error).toEqual([`${exported}: boom`, exported, exported, `${exported}: boom`]);
  });
});
