// The installed `company-data-mock` command, run the way a harness in any language runs it: through
// node_modules/.bin, on a free port, read its JSON line, talk HTTP to it, then close its stdin to stop it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const bin =
  process.platform === 'win32'
    ? 'node_modules/.bin/company-data-mock.cmd'
    : 'node_modules/.bin/company-data-mock';
const report = (/** @type {string} */ line) => console.log(`cli: ${line}`);
const { version } = JSON.parse(readFileSync('node_modules/@company-data/mock-server/package.json', 'utf8'));

const child = spawn(bin, ['--port', '0', '--json', '--exit-on-stdin-close'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
const summary = await new Promise((resolve, reject) => {
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    if (stdout.includes('\n')) resolve(JSON.parse(stdout.slice(0, stdout.indexOf('\n'))));
  });
  exited.then((code) =>
    reject(new Error(`company-data-mock exited with ${code} before printing its address`)),
  );
});
assert.equal(summary.version, version);
assert.equal(summary.pid, child.pid);
report(`ok company-data-mock ${summary.version} on ${new URL(summary.baseURL).host} (pid ${summary.pid})`);

const teams = await fetch(`${summary.baseURL}/teams/`, {
  headers: { authorization: `Bearer ${summary.keys.valid}` },
});
assert.equal(teams.status, 200);
const openapi = /** @type {{ servers: unknown, paths: Record<string, unknown> }} */ (
  await (await fetch(summary.openapiURL)).json()
);
assert.deepEqual(openapi.servers, [{ url: summary.apiRoot, description: 'This Company Data mock server.' }]);
report(
  `ok served ${(/** @type {{ data: unknown[] }} */ (await teams.json())).data.length} teams and the OpenAPI document (${Object.keys(openapi.paths).length} paths)`,
);

child.stdin.end();
assert.equal(await exited, 0);
report('ok stopped when its standard input closed');
report('done');
