// Importing the SDK and making valid calls must load neither zod nor the contract's schemas: they cost
// more than the rest of the SDK to import. A refused parameter loads them, to describe the refusal as zod
// does. Run against the mock server the harness started (address and key from the environment).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const logDir = mkdtempSync(path.join(os.tmpdir(), 'company-data-loads-'));
const log = path.join(logDir, 'loads.txt');
writeFileSync(log, '');
// The loader thread may still append while the process ends: the folder goes when it exits, however it ends.
process.on('exit', () => rmSync(logDir, { recursive: true, force: true }));
register('./record-loads.mjs', import.meta.url, { data: { log } });

const SCHEMA_MODULES = /\/node_modules\/zod\/|\/node_modules\/@company-data\/contract\/dist\/index\./;
const schemaModulesLoaded = () =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => SCHEMA_MODULES.test(url));

const { CompanyData, ValidationError } = await import('@company-data/sdk');
const client = new CompanyData();
const page = await client.users.list({ page_size: 5 });
const [first] = page.data;
if (!first) throw new Error('the mock server listed no users');
const user = await client.users.retrieve(first.id);
const early = schemaModulesLoaded();
if (early.length > 0) {
  throw new Error(`importing the SDK and two valid calls loaded schema modules:\n${early.join('\n')}`);
}
const total = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
console.log(
  `ok the SDK imported, listed and retrieved ${user.id}: ${total} ES module imports resolved, none of zod or the schemas`,
);

const refused = await client.users.list({ page_size: 0 }).then(
  () => undefined,
  (error) => error,
);
if (!(refused instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${refused}`);
const late = schemaModulesLoaded();
if (late.length === 0)
  throw new Error('a refused parameter was described without loading zod: is the log working?');
console.log(`ok a refused parameter loaded zod and the schemas to describe it (${late.length} modules)`);
await client.close();
console.log('done');
