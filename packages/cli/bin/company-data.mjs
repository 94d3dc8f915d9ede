#!/usr/bin/env node
// The `company-data` command. A published package runs its built CLI. Inside the repository before
// `npm run build` there is no dist yet, so the TypeScript source runs through tsx instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const source = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
  const args = ['--conditions=@company-data/source', '--import', 'tsx', source, ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
