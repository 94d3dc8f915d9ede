// The packages' commands, run from their sources as one compiled file: what the tests' child processes run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MOCK_SERVER_VERSION } from '../../packages/mock-server/src/server/version.js';
import { sourceBundle } from './source-bundle.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MOCK_BIN = 'packages/mock-server/src/entries/bin.ts';

describe('sourceBundle', () => {
  it('compiles a command from its sources into one file that plain node runs', () => {
    const file = sourceBundle(MOCK_BIN);
    const run = spawnSync(process.execPath, [file, '--version'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(MOCK_SERVER_VERSION);
  });

  it('compiles the workspace packages in from their sources and leaves third-party packages as imports', () => {
    const code = readFileSync(sourceBundle('packages/cli/src/entries/bin.ts'), 'utf8');
    // The CLI imports the SDK, the mock server and the contract: none is left to node_modules (their dist).
    expect(code).not.toMatch(/from ["']@company-data\//);
    expect(code).toContain('packages/sdk/src/');
    expect(code).toMatch(/from ["']undici["']/);
    expect(code).toMatch(/from ["']zod["']/);
  });

  it('writes the file once, under a name that changes with its content, inside node_modules', () => {
    const first = sourceBundle(MOCK_BIN);
    expect(sourceBundle(path.join(ROOT, MOCK_BIN))).toBe(first);
    expect(path.basename(first)).toMatch(/^bin-[0-9a-f]{16}\.mjs$/);
    expect(path.relative(ROOT, first).split(path.sep)[0]).toBe('node_modules');
  });

  it('fails, naming the entry, when there is nothing to compile', () => {
    expect(() => sourceBundle('scripts/lib/no-such-entry.ts')).toThrow(/no-such-entry\.ts/);
  });
});
