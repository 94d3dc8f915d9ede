#!/usr/bin/env node
// The `company-data` command: the built CLI. Inside the repository it exists once `npm run build` has run (the
// tests run the TypeScript source directly).
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('company-data: not built yet. In the repository, run `npm run build` first.\n');
  process.exitCode = 1;
}
