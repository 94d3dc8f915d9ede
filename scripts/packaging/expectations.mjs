// What each published package must and may ship beyond the files every package ships (see tarball-rules.mjs).

/**
 * Extra files a package ships on purpose, as exact paths inside the tarball. Anything not allowed by the
 * general rules or listed here fails the tarball check, so a new shipped file is a deliberate decision.
 */
export const EXTRA_FILES = {
  // The OpenAPI document, exported as `@company-data/contract/openapi.json`.
  '@company-data/contract': ['openapi.json'],
  '@company-data/sdk': [],
  '@company-data/mock-server': [],
};

/**
 * Public exports the packed-tarball consumer test needs but that have not landed yet. While an export is
 * listed here, the consumer scripts print a skip line for the part that needs it instead of failing; once it
 * exists, that part runs anyway and the check asks for the entry to be removed.
 */
export const PENDING_EXPORTS = ['@company-data/mock-server#startMockServer'];
