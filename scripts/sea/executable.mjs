// A Node 20 single executable from one CommonJS script, as Node's documentation makes one: the script and its
// V8 code cache into a blob (`node --experimental-sea-config`), a copy of this very node, and the blob injected
// into the copy with postject. The macOS and Windows steps are Node's documented ones; this project's tests run
// the Linux ones.
import { chmod, copyFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { binScript, run } from '../packaging/process.mjs';
import { SEA_FUSE, SEA_RESOURCE } from './artefact.mjs';

/** The workspace whose postject injects the blob (a dev dependency of it). */
const TOOLS_ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The single-executable configuration. `disableExperimentalSEAWarning`: the binary's users did not choose
 * an experimental Node feature, and the warning on every start would read as the mock's own.
 * `useCodeCache`: the script's compiled code goes into the blob, for about 0.7 MB: when this was written, 8
 * starts each to the JSON line took 170–250 ms with it and 200–410 ms without (medians 183 and 280 ms).
 *
 * @param {string} script
 * @param {string} blob
 */
export const seaConfig = (script, blob) => ({
  main: script,
  output: blob,
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
});

/**
 * Makes `target`, a single executable that runs `script` with this process's Node (`process.execPath`).
 *
 * @param {string} script - one CommonJS file that requires only Node's own modules.
 * @param {string} target - the executable to write.
 * @param {string} workDir - an empty folder for the intermediate files (left for the caller to remove).
 * @returns {Promise<void>}
 * @throws {Error} with the failing command's output.
 */
export async function makeExecutable(script, target, workDir) {
  const blob = path.join(workDir, 'sea-prep.blob');
  const config = path.join(workDir, 'sea-config.json');
  await writeFile(config, JSON.stringify(seaConfig(script, blob), null, 2));
  await run(process.execPath, ['--experimental-sea-config', config], { cwd: workDir });
  await rm(target, { force: true });
  await copyFile(process.execPath, target);
  await chmod(target, 0o755);
  const darwin = process.platform === 'darwin';
  // macOS: node is signed, and the injection would break the signature; the binary is signed ad hoc after.
  if (darwin) await run('codesign', ['--remove-signature', target]);
  const postject = binScript(TOOLS_ROOT, 'postject', 'postject');
  await run(process.execPath, [
    postject,
    target,
    SEA_RESOURCE,
    blob,
    '--sentinel-fuse',
    SEA_FUSE,
    ...(darwin ? ['--macho-segment-name', 'NODE_SEA'] : []),
  ]);
  if (darwin) await run('codesign', ['--sign', '-', target]);
}
