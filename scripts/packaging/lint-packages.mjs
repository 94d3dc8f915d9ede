// publint (strict) and Are the Types Wrong? on a packed tarball: the package.json and the types users get.
import { readFile } from 'node:fs/promises';
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
 * Runs `attw` on the tarball with the strict profile: every entry point must resolve to correct types under
 * node10, node16 from CJS, node16 from ESM and bundler resolution.
 *
 * @returns {Promise<string[]>} empty when every resolution is green; otherwise one entry: the problem kinds,
 *   then attw's table of entry points by resolution.
 * @param {string} root - where attw runs.
 * @param {string} tarball
 */
export async function attwProblems(root, tarball) {
  const attw = (await packagingTools()).script('@arethetypeswrong/cli', 'attw');
  const { stdout } = await run(
    process.execPath,
    [attw, tarball, '--profile', 'strict', '--format', 'json', '--no-color'],
    { cwd: root, allowFailure: true },
  );
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    return [`attw printed no JSON report:\n${stdout}`];
  }
  // `analysis.problems` is the flat list; the top-level `problems` groups the same ones by kind.
  /** @type {{ kind: string }[]} */
  const problems = report.analysis?.problems ?? Object.values(report.problems ?? {}).flat();
  if (problems.length === 0) return [];
  // The JSON names only the kinds; attw's own table shows which entry point fails under which resolution.
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
