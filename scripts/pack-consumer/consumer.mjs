// A user's plain ESM script, run from a fresh project where the packed tarballs were installed by name.
// It must not import anything from the repository: only what `npm install` put into node_modules.
import { createRequire } from 'node:module';
import * as contract from '@company-data/contract';
import * as mockServer from '@company-data/mock-server';
import * as sdk from '@company-data/sdk';
import checks from './checks.cjs';

const require = createRequire(import.meta.url);
const openapi = require('@company-data/contract/openapi.json');
const otherSdk = require('@company-data/sdk');
await checks.runChecks({
  contract,
  mockServer,
  sdk,
  otherSdk,
  openapi,
  report: (line) => console.log(`esm: ${line}`),
});
