// `npm run build`: every workspace package's `build` script, in dependency order and side by side where the
// order allows (scripts/build-steps.mjs), two at a time: one package's build keeps about one and a half
// cores busy (esbuild, then its declaration build), so one at a time left the second core partly idle.
// Measured on the 2-core machine beside other work (load average 4 to 5), 45 CPU-seconds either way: 47 s
// nearly one after another, 30 s side by side. Each package's output is printed whole when it ends
// (scripts/run-steps.mjs); the first failure stops the build.
import path from 'node:path';
import { buildSteps, workspaceManifests } from './build-steps.mjs';
import { runSteps } from './run-steps.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
// `npm run build --workspace=…` runs from here.
process.chdir(ROOT);

const controller = new AbortController();
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.on(signal, () => controller.abort());
const { ok } = await runSteps(buildSteps(workspaceManifests(ROOT)), {
  jobs: 2,
  signal: controller.signal,
});
process.exitCode = ok ? 0 : 1;
