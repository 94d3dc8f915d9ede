// Writes a generated file, or with `--check` (what `npm run build` passes) fails when the committed copy is
// not what the generator makes now: a schema changed without `npm run generate`. TypeScript is formatted
// by the repository's Biome settings first, so the committed file reads like the rest of the code.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const checkOnly = process.argv.includes('--check');

/**
 * Writes (or checks) one generated file.
 *
 * @param target - the file.
 * @param content - what the generator made.
 */
export function emitGenerated(target: URL, content: string): void {
  const path = fileURLToPath(target);
  const shown = path.split('/').slice(-3).join('/');
  const expected = path.endsWith('.ts') ? formatTypeScript(content, path) : content;
  if (!checkOnly) {
    writeFileSync(path, expected);
    console.log(`wrote ${shown}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(path, 'utf8');
  } catch {}
  if (committed === expected) {
    console.log(`${shown} is up to date`);
    return;
  }
  console.error(
    `${shown} is stale: the schemas it is generated from changed. Run \`npm run generate\` (at the root, or in its package) and commit the result.`,
  );
  process.exit(1);
}

function formatTypeScript(code: string, path: string): string {
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  // A stdin path outside Biome's ignore list for generated files, in the same folder, so the same settings apply.
  const stdinPath = path.replace(/\.generated\.ts$/, '.ts');
  return execFileSync(process.execPath, [biome, 'format', `--stdin-file-path=${stdinPath}`], {
    input: code,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}
