// The packages without what is optional to them, each in a project of its own with nothing else installed:
// - msw and vitest are optional peers of the mock server: a project that installs the mock server alone gets
//   neither, still starts the mock (its main entry loads neither), and learns from the msw entry point that msw
//   is what it lacks, and from the vitest matchers' entry that vitest is; the vitest global setup, which runs in
//   vitest's main process, loads without vitest.
// - The Redis gate is a package of its own: a project that installs the SDK alone gets no Redis client.
// - OpenTelemetry is opt-in: a project that installs the SDK alone gets no OpenTelemetry package, its main
//   entry loads, and its `@company-data/sdk/opentelemetry` entry says what is missing (`@opentelemetry/api`,
//   an optional peer dependency) instead of loading half.
import { installAlone } from './project-alone.mjs';

/**
 * One check: the packages installed, what must not come with them, the script that runs in the project and
 * what it shows.
 *
 * @typedef {object} WithoutCheck
 * @property {string} name - the project's folder.
 * @property {string} title - the step's name in the check's output.
 * @property {readonly string[]} wanted - the packages installed (from their tarballs).
 * @property {RegExp} absent - matches a line of `npm ls --omit=dev --parseable` that must not be there.
 * @property {string} absentWhat - what that line would be, for the error.
 * @property {string} script - an ES module run in the project; prints `ok`.
 * @property {string} shown - what passing shows, in words.
 */

/** @type {readonly WithoutCheck[]} */
export const WITHOUT_CHECKS = [
  {
    name: 'without-msw',
    title: 'mock server without msw or vitest',
    wanted: ['@company-data/contract', '@company-data/mock-server'],
    absent: /[\\/]node_modules[\\/](?:msw|vitest)$/m,
    absentWhat: 'msw or vitest was installed with the mock server',
    script: `
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
const noVitest = await import('@company-data/mock-server/vitest').then(
  () => assert.fail('the vitest matchers loaded without vitest installed'),
  (error) => error,
);
assert.equal(noVitest.code, 'ERR_MODULE_NOT_FOUND');
assert.match(noVitest.message, /'vitest'/);
// The global setup runs in vitest's main process and loads nothing of vitest: it starts and provides the mock.
const { default: setup } = await import('@company-data/mock-server/vitest/global-setup');
const provided = new Map();
const teardown = await setup({ provide: (key, value) => provided.set(key, value) });
const shared = provided.get('companyDataMock');
const sessions = await fetch(shared.adminURL + 'sessions', { headers: { authorization: 'Bearer ' + shared.adminToken } });
assert.equal(sessions.status, 200);
await teardown();
console.log('ok');
`,
    shown:
      'npm ls --omit=dev shows neither msw nor vitest; the mock server starts and serves; its msw entry point names msw as missing, its vitest entry point vitest; its vitest global setup loads without vitest and starts the mock it provides',
  },
  {
    name: 'without-redis',
    title: 'sdk without a redis client',
    wanted: ['@company-data/contract', '@company-data/sdk'],
    absent: /[\\/]node_modules[\\/](?:ioredis|redis|@redis[\\/][\w.-]+)$/m,
    absentWhat: 'a Redis client was installed with the SDK',
    script: `
import assert from 'node:assert/strict';
import { CompanyData, RateGate } from '@company-data/sdk';

const client = new CompanyData({ apiKey: 'svc_live_x', baseURL: 'http://127.0.0.1:9/v1', gate: new RateGate() });
await client.close();
await assert.rejects(import('ioredis'), { code: 'ERR_MODULE_NOT_FOUND' });
console.log('ok');
`,
    shown: 'npm ls --omit=dev shows no Redis client; the SDK takes a gate of its own without one',
  },
  {
    name: 'without-opentelemetry',
    title: 'sdk without OpenTelemetry',
    wanted: ['@company-data/contract', '@company-data/sdk'],
    absent: /[\\/]node_modules[\\/]@opentelemetry[\\/][\w.-]+$/m,
    absentWhat: 'an OpenTelemetry package was installed with the SDK',
    script: `
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
`,
    shown:
      'npm ls --omit=dev shows no OpenTelemetry package; the SDK loads without one, and its opentelemetry entry names the missing @opentelemetry/api',
  },
];

/**
 * Runs one check: installs its packages' tarballs into a fresh project, with nothing else, and runs its script.
 *
 * @param {WithoutCheck} check
 * @param {string} parentDir - where the project is made.
 * @param {readonly import('./pack.mjs').Packed[]} packed
 * @returns {Promise<string>} what was shown.
 */
export async function checkWithout(check, parentDir, packed) {
  const { tree, runCheck } = await installAlone(parentDir, check.name, packed, check.wanted, check.script);
  const found = check.absent.exec(tree);
  if (found) throw new Error(`${check.absentWhat}: ${found[0]}`);
  await runCheck();
  return check.shown;
}
