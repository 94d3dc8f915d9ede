// The files a package ships, read from its packed tarball, then the shipping rules on that list. `npm pack`
// and `npm publish` pack the same files (npm's one file list), so the tarball packed once for all the checks
// is what `npm publish` would upload; asking `npm publish --dry-run` again cost about 0.7 CPU-seconds a
// package. The release rehearsal publishes these tarballs for real (scripts/packaging/registry-rehearsal.mjs).
import { statSync } from 'node:fs';
import { EXTRA_FILES } from './expectations.mjs';
import { run } from './process.mjs';
import { checkTarballFiles } from './tarball-rules.mjs';

/**
 * Lists the tarball's files and checks them.
 *
 * @returns {Promise<{ files: string[], size: number, problems: string[] }>} the shipped files, the packed
 *   size in bytes, and one line per offending or missing file (empty when the tarball is right).
 * @param {import('./pack.mjs').Packed} packed
 */
export async function tarballContents({ pkg, tarball }) {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  // npm packs every file under `package/`; tar lists files only (npm writes no folder entries).
  const files = stdout
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
  const { offending, missing } = checkTarballFiles(files, { extraFiles: EXTRA_FILES[pkg.name] ?? [] });
  const problems = [
    ...offending.map((file) => `ships ${file.path} (${file.reason})`),
    ...missing.map((file) => `does not ship ${file}`),
  ];
  return { files, size: statSync(tarball).size, problems };
}
