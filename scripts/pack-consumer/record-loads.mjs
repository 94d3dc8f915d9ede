// Module hooks for lazy-schemas.mjs: appends the URL of every module resolved to the file it is given. The
// append is synchronous, so the file is complete once the import that caused the resolution returns.
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
