// msw is an optional peer of the mock server: a project that installs the mock server alone gets no msw,
// still starts the mock, and learns from the msw entry point that msw is what it lacks.
import { installAlone } from './project-alone.mjs';

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
 * @param {string} parentDir - where the project is made.
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @returns {Promise<string>} what was shown.
 */
export async function checkWithoutMsw(parentDir, packed) {
  const wanted = ['@company-data/contract', '@company-data/mock-server'];
  const { tree, runCheck } = await installAlone(parentDir, 'without-msw', packed, wanted, SCRIPT);
  if (/[\\/]node_modules[\\/]msw$/m.test(tree)) throw new Error('msw was installed with the mock server');
  await runCheck();
  return 'npm ls --omit=dev shows no msw; the mock server starts and serves; its msw entry point names msw as missing';
}
