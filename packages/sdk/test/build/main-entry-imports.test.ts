import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The main entry must load in Bun, Deno and any Node service without OpenTelemetry installed: no file it
// reaches imports `@opentelemetry/*` (only the opt-in `@company-data/sdk/opentelemetry` entry does). Read
// from the sources' imports, type-only ones included (a declaration file naming a missing package breaks
// a consumer's type check too).

const SRC = resolve(import.meta.dirname, '../../src');

/** Every package a file reaches through its relative imports, with the file that names it. */
function packagesReached(entry: string): Map<string, string> {
  const reached = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith('.')) visit(resolve(dirname(file), fileName.replace(/\.js$/, '.ts')));
      else if (!fileName.endsWith('.json')) reached.set(fileName, file);
    }
  };
  visit(entry);
  return reached;
}

describe('what each entry of the SDK imports', () => {
  it('the main entry reaches no OpenTelemetry package', () => {
    const reached = [...packagesReached(resolve(SRC, 'index.ts')).keys()];
    expect(reached).toContain('undici');
    expect(reached.filter((name) => name.startsWith('@opentelemetry/'))).toEqual([]);
  });

  it('the opentelemetry entry reaches @opentelemetry/api alone of OpenTelemetry', () => {
    const reached = [...packagesReached(resolve(SRC, 'opentelemetry.ts')).keys()];
    expect(reached.filter((name) => name.startsWith('@opentelemetry/'))).toEqual(['@opentelemetry/api']);
  });
});
