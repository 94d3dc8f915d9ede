// Module hooks for lazy-schemas.mjs: appends the URL of every module resolved to the file it is given. The
// append is synchronous, so the file is complete once the import that caused the resolution returns.
import { appendFileSync } from 'node:fs';

/** @type {string} */
let log;

/** @param {{ log: string }} data - from `register`: the file to append to. */
export function initialize(data) {
  log = data.log;
}

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
