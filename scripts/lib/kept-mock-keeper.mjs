// The process that keeps a mock server alive between runs of `examples/with-mock.mjs --keep`
// (scripts/lib/kept-mock.mjs starts it, detached). It starts `company-data-mock` with the arguments it was given,
// records it in the kept mock's file, prints one JSON line on stdout (`{ "kept": <state> }`, or `{ "error": … }`)
// and writes nothing more there. It stops the mock and removes the file on SIGTERM, SIGINT or SIGHUP, when
// the file goes away or names another keeper, or once nobody used it for `idleMs` (runs of with-mock touch it).
//
//   node scripts/lib/kept-mock-keeper.mjs <file> <idleMs> [company-data-mock arguments…]
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { startMockCli } from './mock-cli.mjs';

const [file = '', idleText = '', ...args] = process.argv.slice(2);
const idleMs = Number(idleText);
/** How often the file's age is looked at: a fraction of the idle time, at most every 30 s. */
const CHECK_MS = Math.min(30_000, Math.max(100, idleMs / 10));

/** @param {unknown} line */
const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** @type {Awaited<ReturnType<typeof startMockCli>> | undefined} */
let mock;
/** @type {NodeJS.Timeout | undefined} */
let timer;
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  clearInterval(timer);
  if (usedAt() !== undefined) rmSync(file, { force: true });
  await mock?.stop();
  process.exit(0);
}
// From the start: a stop asked for while the mock starts waits for it, then stops it.
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP']))
  process.on(signal, () => {
    if (mock) void stop();
    else stopping = true;
  });
try {
  mock = await startMockCli({ args });
  if (stopping) {
    await mock.stop();
    process.exit(0);
  }
} catch (error) {
  say({ error: /** @type {Error} */ (error).message });
  process.exit(1);
}
const state = { keeperPid: process.pid, args, since: new Date().toISOString(), summary: mock.summary };
try {
  // `wx`: a keeper started at the same moment by another run may have won; then it is the one kept.
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { flag: 'wx' });
} catch (error) {
  await mock.stop();
  say({
    error: /** @type {Error} */ (error).message,
    code: /** @type {NodeJS.ErrnoException} */ (error).code,
  });
  process.exit(1);
}
say({ kept: state });

/** Whether the file is still this keeper's, and when it was last used (its mtime). */
function usedAt() {
  try {
    const held = JSON.parse(readFileSync(file, 'utf8'));
    return held.keeperPid === process.pid ? statSync(file).mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

timer = setInterval(() => {
  const used = usedAt();
  if (used === undefined || Date.now() - used > idleMs) void stop();
}, CHECK_MS);
// The mock ending on its own (killed) ends the keeping too.
void mock.exited.then(stop);
