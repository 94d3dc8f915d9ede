// publint (strict) and Are the Types Wrong? on a packed tarball: the package.json and the types users get.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { run } from './process.mjs';
import { packagingTools } from './tools.mjs';

/**
 * Lints the package's tarball with publint in strict mode: the files it publishes, as packed once for all
 * the checks (packing again with npm for publint cost about 0.7 CPU-seconds a package). A file the manifest
 * names but the tarball lacks is a problem either way; publint words it as missing rather than as not
 * published. Every message counts as a problem, suggestions included.
 *
 * @param {string} tarball
 * @returns {Promise<string[]>} one readable line per problem; empty when the package is clean.
 */
export async function publintProblems(tarball) {
  const data = await readFile(tarball);
  const { messages, pkg: manifest } = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
    strict: true,
  });
  return messages.map(
    (message) => `${message.type}: ${formatMessage(message, manifest, { color: false }) ?? message.code}`,
  );
}

/**
 * Are the Types Wrong? on the tarball, with the strict profile: every entry point must resolve to correct
 * types under node10, node16 from CJS, node16 from ESM and bundler resolution. The analysis is attw's own
 * (`checkPackage` of `@arethetypeswrong/core`, which its command runs, with no option: the strict profile
 * ignores nothing), in one worker thread for every package (attw-worker.mjs): one start of attw and its
 * TypeScript, not one each (4.3 CPU-seconds for the five packages against 11.8 through the command), and
 * none of it on the main thread, which drives the guides meanwhile.
 *
 * @returns {Promise<string[]>} empty when every resolution is green; otherwise one entry: the problem kinds,
 *   then attw's table of entry points by resolution (from its command, run only then).
 * @param {string} root - where attw's command runs, when there are problems to show.
 * @param {string} tarball
 */
export async function attwProblems(root, tarball) {
  const tools = await packagingTools();
  analyst ??= startAnalyst(tools.dir);
  const kinds = await analyst.analyse(tarball);
  if (kinds.length === 0) return [];
  // The analysis names only the kinds; attw's own table shows which entry point fails under which resolution.
  const attw = tools.script('@arethetypeswrong/cli', 'attw');
  const { stdout: table } = await run(
    process.execPath,
    [attw, tarball, '--profile', 'strict', '--no-color', '--no-emoji'],
    {
      cwd: root,
      allowFailure: true,
    },
  );
  return [`${kinds.join(', ')}\n${table.trim()}`];
}

/** @type {{ analyse: (tarball: string) => Promise<string[]> } | undefined} */
let analyst;

/**
 * The worker thread that runs attw's analysis, one tarball at a time. It keeps the process alive only while
 * an analysis is pending.
 *
 * @param {string} toolsDir - where the packaging tools are installed.
 */
function startAnalyst(toolsDir) {
  const coreUrl = pathToFileURL(
    path.join(toolsDir, 'node_modules', '@arethetypeswrong', 'core', 'dist', 'index.js'),
  ).href;
  const worker = new Worker(new URL('./attw-worker.mjs', import.meta.url), { workerData: { coreUrl } });
  worker.unref();
  /** @type {Map<number, { resolve: (kinds: string[]) => void, reject: (error: Error) => void }>} */
  const pending = new Map();
  let next = 0;
  const failAll = (/** @type {Error} */ error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    analyst = undefined;
  };
  worker.on('message', (/** @type {{ id: number, kinds?: string[], error?: string }} */ message) => {
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (pending.size === 0) worker.unref();
    if (message.error !== undefined) waiting?.reject(new Error(`attw's analysis failed: ${message.error}`));
    else waiting?.resolve(message.kinds ?? []);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`attw's worker thread exited (${code})`)));
  return {
    /** @param {string} tarball */
    analyse(tarball) {
      const id = next++;
      worker.ref();
      worker.postMessage({ id, tarball });
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
  };
}
