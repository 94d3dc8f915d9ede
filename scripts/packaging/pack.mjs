// Packs a workspace package with `npm pack`, exactly as `npm publish` would, into a directory of our choosing.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { run } from './process.mjs';

/**
 * Packs `pkg` into `destination` and returns the tarball's path and its file list.
 *
 * @returns {Promise<{ tarball: string, files: string[], size: number }>}
 */
export async function packPackage(pkg, destination) {
  await mkdir(destination, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: pkg.dir,
  });
  const [report] = JSON.parse(stdout);
  if (!report?.filename) throw new Error(`npm pack printed no tarball name for ${pkg.name}:\n${stdout}`);
  return {
    tarball: path.join(destination, report.filename),
    files: report.files.map((file) => file.path),
    size: report.size,
  };
}
