import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type MockServer, startMockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const consumer = (name: string) => fileURLToPath(new URL(`../consumers/${name}`, import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const BUILT = ['packages/contract', 'packages/sdk'];

/** Newest modification time under a folder (0 when it does not exist). */
function newest(dir: string): number {
  try {
    return Math.max(
      0,
      ...readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => statSync(path.join(entry.parentPath, entry.name)).mtimeMs),
    );
  } catch {
    return 0;
  }
}

// `npm test` has just built every package; a test run on its own rebuilds when a source is newer.
function buildIsStale(): boolean {
  return BUILT.some((pkg) => {
    const built = newest(path.join(root, pkg, 'dist'));
    return built === 0 || newest(path.join(root, pkg, 'src')) > built;
  });
}

describe('the built package', () => {
  let mock: MockServer;
  beforeAll(async () => {
    if (buildIsStale())
      await run('npm', ['run', 'build', ...BUILT.flatMap((pkg) => ['-w', pkg])], { cwd: root });
    mock = await startMockServer();
  }, 180_000);
  afterAll(() => mock?.close());

  const consume = async (script: string) => {
    const env = {
      ...process.env,
      COMPANY_DATA_BASE_URL: mock.baseURL,
      COMPANY_DATA_API_KEY: mock.keys.valid,
    };
    // Plain node: no source condition, so the package resolves to its dist files.
    const { stdout } = await run(process.execPath, [consumer(script)], { env, cwd: root });
    return JSON.parse(stdout.trim()) as Record<string, unknown>;
  };

  it('works from a plain ESM script', async () => {
    const result = await consume('esm.mjs');
    expect(result).toMatchObject({ format: 'esm', version, notFound: true });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.count).toBeGreaterThan(0);
  });

  it('works from a plain CJS script, with instanceof holding across the two builds', async () => {
    const result = await consume('cjs.cjs');
    expect(result).toMatchObject({ format: 'cjs', version, notFound: true, crossBuild: true });
  });
});
