// publint (strict) and Are the Types Wrong? on a packed tarball: the package.json and the types users get.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { run } from './process.mjs';
import { packagingTools } from './tools.mjs';

/**
 * Lints the package's tarball with publint in strict mode: the files it publishes, as packed once for all
 * the checks (packing again with npm for publint cost about 0.7 CPU-seconds a package). A file the manifest
 * names but the tarball lacks is a problem either way; publint words it as missing rather than as not
 * published. Every message counts as a problem, suggestions included.
 *
 * @param {string} tarball
 * @returns {Promise<string[]>} one readable line per problem; empty when the package is clean.
 */
export async function publintProblems(tarball) {
  const data = await readFile(tarball);
  const { messages, pkg: manifest } = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    strict: true,
  });
  return messages.map(
    (message) => `${message.type}: ${formatMessage(message, manifest, { color: false }) ?? message.code}`,
  );
}

/**
 * Are the Types Wrong? on the tarball, with the strict profile: every entry point must resolve to correct
 * types under node10, node16 from CJS, node16 from ESM and bundler resolution. The analysis is attw's own
 * (`checkPackage` of `@arethetypeswrong/core`, which its command runs, with no option: the strict profile
 * ignores nothing), in this process: one start of attw and its TypeScript for every package, not one each
 * (4.3 CPU-seconds for the five packages against 11.8 through the command).
 *
 * @returns {Promise<string[]>} empty when every resolution is green; otherwise one entry: the problem kinds,
 *   then attw's table of entry points by resolution (from its command, run only then).
 * @param {string} root - where attw's command runs, when there are problems to show.
 * @param {string} tarball
 */
export async function attwProblems(root, tarball) {
  const tools = await packagingTools();
  /** @type {{ createPackageFromTarballData: (data: Uint8Array) => unknown, checkPackage: (pkg: unknown) => Promise<{ types: unknown, problems?: { kind: string }[] }> }} */
  const core = await import(
    pathToFileURL(path.join(tools.dir, 'node_modules', '@arethetypeswrong', 'core', 'dist', 'index.js')).href
  );
  const analysis = await core.checkPackage(
    core.createPackageFromTarballData(new Uint8Array(await readFile(tarball))),
  );
  // A package without types has nothing to resolve: attw's command passes it too.
  const problems = analysis.types ? (analysis.problems ?? []) : [];
  if (problems.length === 0) return [];
  // The analysis names only the kinds; attw's own table shows which entry point fails under which resolution.
  const attw = tools.script('@arethetypeswrong/cli', 'attw');
  const { stdout: table } = await run(
    process.execPath,
    [attw, tarball, '--profile', 'strict', '--no-color', '--no-emoji'],
    {
      cwd: root,
      allowFailure: true,
    },
  );
  return [`${[...new Set(problems.map((problem) => problem.kind))].join(', ')}\n${table.trim()}`];
}
