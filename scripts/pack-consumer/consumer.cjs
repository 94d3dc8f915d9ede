// A user's plain CommonJS script, run from a fresh project where the packed tarballs were installed by
// name. It must not require anything from the repository: only what `npm install` put into node_modules.
const contract = require('@company-data/contract');
const mockServer = require('@company-data/mock-server');
const sdk = require('@company-data/sdk');
const openapi = require('@company-data/contract/openapi.json');
const { runChecks } = require('./checks.cjs');

import('@company-data/sdk')
  .then((otherSdk) =>
    runChecks({
      contract,
      mockServer,
      sdk,
      otherSdk,
      openapi,
      report: (line) => console.log(`cjs: ${line}`),
    }),
  )
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
