// What each published package must and may ship beyond the files every package ships (see tarball-rules.mjs).

/**
 * Extra files a package ships on purpose, as exact paths inside the tarball. Anything not allowed by the
 * general rules or listed here fails the tarball check, so a new shipped file is a deliberate decision.
 */
/** @type {Readonly<Record<string, readonly string[]>>} */
export const EXTRA_FILES = {
  // The OpenAPI document, exported as `@company-data/contract/openapi.json`.
  '@company-data/contract': ['openapi.json'],
  '@company-data/sdk': [],
  '@company-data/redis-gate': [],
  '@company-data/mock-server': ['bin/company-data-mock.mjs'],
  '@company-data/cli': ['bin/company-data.mjs'],
};
