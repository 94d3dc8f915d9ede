// A temporary folder of `npm test`'s own: every step gets it as TMPDIR (and so as `os.tmpdir()`, and as the
// temporary folder of Python, PostgreSQL and Chromium), so that what a step forgets to remove is found,
// named and removed at the end, instead of piling up in the machine's temporary folder run after run.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What tools keep in the temporary folder by design, to reuse: not left behind by a test. tsx caches what it
 * compiled in `tsx-<uid>`.
 */
const TOOL_CACHES = [/^tsx-\d+$/];

/**
 * Creates the folder in the machine's temporary folder. Its name is short: sockets go in it, and a socket's
 * path is limited to about 100 bytes.
 *
 * @returns {{ path: string, leftovers: () => string[], remove: () => void }} `leftovers` lists what is in it
 *   (tools' caches aside), sorted; `remove` removes it and everything in it.
 */
export function ownTempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'npm-test-'));
  return {
    path: dir,
    leftovers: () =>
      readdirSync(dir)
        .filter((name) => !TOOL_CACHES.some((cache) => cache.test(name)))
        .sort(),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
