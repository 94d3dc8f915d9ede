#!/usr/bin/env node
// The `company-data` command: the built CLI. Inside the repository it exists once `npm ci` and `npm run build`
// have run (the tests run the TypeScript source directly).
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  // In a clone: before `npm ci` the build cannot run either, so say both steps.
  const steps = installed('@company-data/sdk') ? '`npm run build`' : '`npm ci`, then `npm run build`';
  process.stderr.write(`company-data: not built yet. In the repository, run ${steps} first.\n`);
  process.exitCode = 1;
}

/** Whether a package resolves from here (the workspace's packages do once `npm ci` has linked them). */
function installed(name) {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}
