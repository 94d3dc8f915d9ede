// Are the Types Wrong?'s analysis on a thread of its own (scripts/packaging/lint-packages.mjs starts it).
// attw runs TypeScript synchronously, for seconds a package on a loaded machine; on the check's main thread
// that would stall everything else the check drives meanwhile: the guides' shell, its output and the start
// of its network (a ready signal read 10 s late failed a run).
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ createPackageFromTarballData: (data: Uint8Array) => unknown, checkPackage: (pkg: unknown) => Promise<{ types: unknown, problems?: { kind: string }[] }> }} */
const core = await import(workerData.coreUrl);

parentPort?.on('message', async (/** @type {{ id: number, tarball: string }} */ { id, tarball }) => {
  try {
    const analysis = await core.checkPackage(
      core.createPackageFromTarballData(new Uint8Array(await readFile(tarball))),
    );
    // A package without types has nothing to resolve: attw's command passes it too.
    const problems = analysis.types ? (analysis.problems ?? []) : [];
    parentPort?.postMessage({ id, kinds: [...new Set(problems.map((problem) => problem.kind))] });
  } catch (error) {
    parentPort?.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
