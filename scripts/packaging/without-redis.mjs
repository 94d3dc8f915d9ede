// The Redis gate is a package of its own: a project that installs the SDK alone gets no Redis client.
import { installAlone } from './project-alone.mjs';

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
 * @param {string} parentDir - where the project is made.
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @returns {Promise<string>} what was shown.
 */
export async function checkSdkWithoutRedis(parentDir, packed) {
  const wanted = ['@company-data/contract', '@company-data/sdk'];
  const { tree, runCheck } = await installAlone(parentDir, 'without-redis', packed, wanted, SCRIPT);
  const found = REDIS_CLIENTS.exec(tree);
  if (found) throw new Error(`a Redis client was installed with the SDK: ${found[0]}`);
  await runCheck();
  return 'npm ls --omit=dev shows no Redis client; the SDK takes a gate of its own without one';
}
