// The Redis gate is a package of its own: a project that installs the SDK alone gets no Redis client.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanEnv, run } from './process.mjs';

const SCRIPT = `
import assert from 'node:assert/strict';
import { CompanyData, RateGate } from '@company-data/sdk';

const client = new CompanyData({ apiKey: 'svc_live_x', baseURL: 'http://127.0.0.1:9/v1', gate: new RateGate() });
await client.close();
await assert.rejects(import('ioredis'), { code: 'ERR_MODULE_NOT_FOUND' });
console.log('ok');
`;

/** Redis clients a consumer of the SDK alone must not get. */
const REDIS_CLIENTS = /[\\/]node_modules[\\/](?:ioredis|redis|@redis[\\/][\w.-]+)$/m;

/**
 * Installs the contract and SDK tarballs into a fresh project, with nothing else.
 *
 * @returns {Promise<string>} what was shown.
 */
export async function checkSdkWithoutRedis(parentDir, packed) {
  const projectDir = path.join(parentDir, 'without-redis');
  await mkdir(projectDir, { recursive: true });
  await writeFile(
    path.join(projectDir, 'package.json'),
    '{ "name": "without-redis", "private": true, "type": "module" }\n',
  );
  await writeFile(path.join(projectDir, 'check.mjs'), SCRIPT);
  const wanted = ['@company-data/contract', '@company-data/sdk'];
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
  const found = REDIS_CLIENTS.exec(tree);
  if (found) throw new Error(`a Redis client was installed with the SDK: ${found[0]}`);
  await run(process.execPath, ['check.mjs'], { cwd: projectDir, env, timeoutMs: 60_000 });
  return 'npm ls --omit=dev shows no Redis client; the SDK takes a gate of its own without one';
}
