import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const scripts = new URL('../scripts/', import.meta.url);
const build = new URL('../../../build/', import.meta.url);
const folder = mkdtempSync(join(tmpdir(), 'generated-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `emitGenerated(target, content)` in a child process, as the build does, with the given flags. */
function emit(target: string, content: string, flags: string[]) {
  const code = `import { emitGenerated } from ${JSON.stringify(new URL('generated-file.ts', build).href)};
emitGenerated(new URL(${JSON.stringify(pathToFileURL(target).href)}), ${JSON.stringify(content)});`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, '--', ...flags], {
    encoding: 'utf8',
  });
}

describe('generated files', () => {
  it('the build (--check) fails on a stale committed copy and names the command that refreshes it', () => {
    const target = join(folder, 'stale.generated.ts');
    writeFileSync(target, 'export const A = 1;\n');
    const run = emit(target, 'export const A = 2;\n', ['--check']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('stale.generated.ts is stale');
    expect(run.stderr).toContain('npm run generate');
    expect(readFileSync(target, 'utf8')).toBe('export const A = 1;\n');
  });

  it('generate writes TypeScript formatted as the repository formats code, and --check then passes', () => {
    const target = join(folder, 'fresh.generated.ts');
    expect(emit(target, 'export const  A = {a:"x"}', []).status).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe("export const A = { a: 'x' };\n");
    expect(emit(target, 'export const A = {a:"x"}', ['--check']).status).toBe(0);
  });

  it.each(['write-validators.ts', 'write-operations.ts'])('the committed output of %s is fresh', (script) => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', new URL(script, scripts).pathname, '--check'],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
