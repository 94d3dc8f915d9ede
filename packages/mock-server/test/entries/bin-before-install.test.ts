// `company-data-mock` in a clone before `npm ci`: no build and no tsx to run the sources with. It must say
// in one line what to do, not print a stack trace about tsx.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/company-data-mock.mjs', import.meta.url));

it('says to run `npm ci` first, in one line, and exits 1', async () => {
  // The package as a clone has it before `npm ci`: its bin and sources, with no node_modules anywhere above.
  const clone = mkdtempSync(join(tmpdir(), 'mock-bin-'));
  try {
    mkdirSync(join(clone, 'bin'));
    const bin = join(clone, 'bin', 'company-data-mock.mjs');
    copyFileSync(BIN, bin);
    const run = await promisify(execFile)(process.execPath, [bin, '--port', '0']).catch((error) => error);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'company-data-mock: its dependencies are not installed. In the repository, run `npm ci` first.\n',
    );
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
});
