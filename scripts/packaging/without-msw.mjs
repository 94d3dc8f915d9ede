// msw is an optional peer of the mock server: a project that installs the mock server alone gets no msw,
// still starts the mock, and learns from the msw entry point that msw is what it lacks.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanEnv, run } from './process.mjs';

const SCRIPT = `
import assert from 'node:assert/strict';
import { startMockServer } from '@company-data/mock-server';

const server = await startMockServer({ port: 0 });
const teams = await fetch(server.baseURL + '/teams/', { headers: { authorization: 'Bearer ' + server.keys.valid } });
assert.equal(teams.status, 200);
await server.close();
const missing = await import('@company-data/mock-server/msw').then(
  () => assert.fail('the msw entry point loaded without msw installed'),
  (error) => error,
);
assert.equal(missing.code, 'ERR_MODULE_NOT_FOUND');
assert.match(missing.message, /'msw'/);
console.log('ok');
`;

/**
 * Installs the contract and mock-server tarballs into a fresh project, with no msw.
 *
 * @returns {Promise<string>} what was shown.
 */
export async function checkWithoutMsw(parentDir, packed) {
  const projectDir = path.join(parentDir, 'without-msw');
  await mkdir(projectDir, { recursive: true });
  await writeFile(
    path.join(projectDir, 'package.json'),
    '{ "name": "without-msw", "private": true, "type": "module" }\n',
  );
  await writeFile(path.join(projectDir, 'check.mjs'), SCRIPT);
  const wanted = ['@company-data/contract', '@company-data/mock-server'];
  const tarballs = packed.filter(({ pkg }) => wanted.includes(pkg.name)).map(({ tarball }) => tarball);
  const env = cleanEnv({ NODE_OPTIONS: '' });
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
    cwd: projectDir,
    env,
    timeoutMs: 150_000,
  });
  const { stdout: tree } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: projectDir,
    env,
  });
  if (/[\\/]node_modules[\\/]msw$/m.test(tree)) throw new Error('msw was installed with the mock server');
  await run(process.execPath, ['check.mjs'], { cwd: projectDir, env, timeoutMs: 60_000 });
  return 'npm ls --omit=dev shows no msw; the mock server starts and serves; its msw entry point names msw as missing';
}
