// The mock's single executable, built as a release file: bundled, made executable, named with its version and
// platform, with its checksum beside it. The intermediate files go to a temporary folder removed at the end.
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readJson } from '../packaging/workspace.mjs';
import { ARTEFACTS_DIR, artefactPaths } from './artefact.mjs';
import { bundleCli } from './bundle.mjs';
import { writeChecksum } from './checksum.mjs';
import { makeExecutable } from './executable.mjs';

/**
 * What the build wrote.
 *
 * @typedef {object} MockBinary
 * @property {string} binary - its path.
 * @property {string} checksum - the path of its `.sha256` file.
 * @property {string} version - the mock server's version it carries.
 * @property {string} sha256 - its digest, hex.
 * @property {number} bytes - its size.
 * @property {number} bundleBytes - the size of the script inside it.
 */

/**
 * Builds the single executable of the mock server under `root` for this platform.
 *
 * @param {string} root - the repository, or a release copy of it (its `packages/mock-server` sources and
 *   `package.json`, its `node_modules`).
 * @param {string} [outDir] - where to write it; a release's is `<root>/release-artefacts`.
 * @returns {Promise<MockBinary>}
 * @throws {Error} when the bundle or a build command fails.
 */
export async function buildMockBinary(root, outDir = path.join(root, ARTEFACTS_DIR)) {
  const { version } = readJson(path.join(root, 'packages', 'mock-server', 'package.json'));
  const { binary, checksum } = artefactPaths(outDir, version);
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'company-data-mock-binary-'));
  try {
    const script = path.join(workDir, 'company-data-mock.cjs');
    const { bytes: bundleBytes } = await bundleCli(root, script);
    await mkdir(path.dirname(binary), { recursive: true });
    await makeExecutable(script, binary, workDir);
    const sha256 = await writeChecksum(binary, checksum);
    return { binary, checksum, version, sha256, bytes: (await stat(binary)).size, bundleBytes };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
