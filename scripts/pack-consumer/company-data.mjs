// The installed `company-data` command, run as a user runs it after `npm install @company-data/cli`: `verify`
// and `snapshot` against a started mock server, then the snapshot loaded into a fresh mock. Also checks that the
// library loads from ESM and CJS, and that the SDK's own install stays lean (it never pulls in the mock server).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as cli from '@company-data/cli';
import { createMockServer, startMockServer } from '@company-data/mock-server';

const report = (/** @type {string} */ line) => console.log(`company-data: ${line}`);
const bin =
  process.platform === 'win32' ? 'node_modules/.bin/company-data.cmd' : 'node_modules/.bin/company-data';
const run = promisify(execFile);

assert.equal(typeof cli.snapshot, 'function');
assert.equal(typeof createRequire(import.meta.url)('@company-data/cli').verify, 'function');
const sdk = JSON.parse(readFileSync('node_modules/@company-data/sdk/package.json', 'utf8'));
assert.deepEqual(Object.keys(sdk.dependencies).sort(), ['@company-data/contract', 'undici', 'zod']);
report('ok the library loads from ESM and CJS; the SDK depends on the contract, undici and zod only');

const server = await startMockServer({ port: 0 });
const dir = mkdtempSync(join(tmpdir(), 'company-data-consumer-'));
try {
  const env = {
    ...process.env,
    COMPANY_DATA_BASE_URL: server.baseURL,
    COMPANY_DATA_API_KEY: server.keys.valid,
  };
  const verified = await run(bin, ['verify'], { env });
  assert.match(verified.stdout, /the server matches the contract/);
  report('ok company-data verify passed against the mock server');

  const file = join(dir, 'fixture.json');
  const snap = await run(bin, ['snapshot', file, '--max-calls', '20', '--anonymize'], { env });
  assert.match(snap.stdout, /20 calls/);
  const loaded = createMockServer({ fixture: JSON.parse(readFileSync(file, 'utf8')) });
  assert.equal(loaded.apiKeys().filter((key) => key.name.startsWith('Placeholder')).length, 4);
  await loaded.close();
  report('ok company-data snapshot wrote a fixture the mock server loads');
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
report('done');
