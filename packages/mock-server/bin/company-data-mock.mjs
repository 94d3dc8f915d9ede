#!/usr/bin/env node
// The `company-data-mock` command. A published package runs its built CLI. Inside the repository before
// `npm run build` there is no dist yet, so the TypeScript source runs through tsx instead: this keeps
// `npx company-data-mock` working on a fresh clone right after `npm ci` (before it, it says to run `npm ci`).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const tsx = resolved('tsx');
  if (tsx === undefined) {
    // A clone before `npm ci`: no tsx, nor anything else the sources import.
    process.stderr.write(
      'company-data-mock: its dependencies are not installed. In the repository, run `npm ci` first.\n',
    );
    process.exit(1);
  }
  const source = fileURLToPath(new URL('../src/entries/bin.ts', import.meta.url));
  const args = ['--conditions=@company-data/source', '--import', tsx, source, ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

/** The URL of an installed package, or undefined when it is not installed. */
function resolved(name) {
  try {
    return import.meta.resolve(name);
  } catch {
    return undefined;
  }
}
