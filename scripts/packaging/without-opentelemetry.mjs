// OpenTelemetry is opt-in: a project that installs the SDK alone gets no OpenTelemetry package, its main entry
// loads, and its `@company-data/sdk/opentelemetry` entry says what is missing (`@opentelemetry/api`, an
// optional peer dependency) instead of loading half.
import { installAlone } from './project-alone.mjs';

const SCRIPT = `
import assert from 'node:assert/strict';
import { CompanyData } from '@company-data/sdk';

const client = new CompanyData({ apiKey: 'svc_live_x', baseURL: 'http://127.0.0.1:9/v1' });
await client.close();
await assert.rejects(import('@company-data/sdk/opentelemetry'), (error) => {
  assert.equal(error.code, 'ERR_MODULE_NOT_FOUND');
  assert.match(error.message, /@opentelemetry\\/api/);
  return true;
});
console.log('ok');
`;

/** OpenTelemetry packages a consumer of the SDK alone must not get. */
const OPENTELEMETRY = /[\\/]node_modules[\\/]@opentelemetry[\\/][\w.-]+$/m;

/**
 * Installs the contract and SDK tarballs into a fresh project, with nothing else.
 *
 * @param {string} parentDir - where the project is made.
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @returns {Promise<string>} what was shown.
 */
export async function checkSdkWithoutOpenTelemetry(parentDir, packed) {
  const wanted = ['@company-data/contract', '@company-data/sdk'];
  const { tree, runCheck } = await installAlone(parentDir, 'without-opentelemetry', packed, wanted, SCRIPT);
  const found = OPENTELEMETRY.exec(tree);
  if (found) throw new Error(`an OpenTelemetry package was installed with the SDK: ${found[0]}`);
  await runCheck();
  return 'npm ls --omit=dev shows no OpenTelemetry package; the SDK loads without one, and its opentelemetry entry names the missing @opentelemetry/api';
}
