// `company-data` in a clone before its build: it says in one line what to run, including `npm ci` when the
// workspace is not even installed yet.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/company-data.mjs', import.meta.url));
/** Inside the repository: the workspace's packages resolve from here, as in a clone after `npm ci`. */
const INSTALLED = fileURLToPath(new URL('../../../node_modules/.cache', import.meta.url));

/** Runs a copy of the bin without its dist, in a folder under `parent`. */
async function runWithoutBuild(parent: string) {
  mkdirSync(parent, { recursive: true });
  const clone = mkdtempSync(join(parent, 'cli-bin-'));
  try {
    mkdirSync(join(clone, 'bin'));
    copyFileSync(BIN, join(clone, 'bin', 'company-data.mjs'));
    return await promisify(execFile)(process.execPath, [
      join(clone, 'bin', 'company-data.mjs'),
      'verify',
    ]).catch((error) => error);
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}

describe('company-data before its build', () => {
  it('after `npm ci`: says to run `npm run build` first, in one line, and exits 1', async () => {
    const run = await runWithoutBuild(INSTALLED);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('company-data: not built yet. In the repository, run `npm run build` first.\n');
  });

  it('before `npm ci`: says to run `npm ci`, then `npm run build`', async () => {
    const run = await runWithoutBuild(tmpdir());
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'company-data: not built yet. In the repository, run `npm ci`, then `npm run build` first.\n',
    );
  });
});
