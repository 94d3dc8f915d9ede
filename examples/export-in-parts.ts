// Exports every call with N worker processes, each exporting its own range of pages to its own NDJSON
// file, then merges the parts and checks that every call arrived exactly once. With `--redis`, the workers
// share one rate gate (a 429 in one pauses them all) and, with `--quota`, one quota, through Redis.
//
//   npx tsx examples/export-in-parts.ts --workers 4 --out export/              # each worker its own gate
//   npx tsx examples/export-in-parts.ts --workers 4 --out export/ --redis redis://127.0.0.1:6379 --quota 100/60
//
// The coordinator (this script without --part) reads page 1 for `total_pages`, splits the pages into
// contiguous ranges and starts one worker per range: this script again, with `--part i --first a --last b`.
// Each worker reads its pages with the list's `page` (its first) and `lastPage` (its last) and keeps the
// SDK's page-shift de-duplication and count-change warning within its part; the list is read oldest first,
// so that calls created meanwhile are appended rather than shifting pages across parts. It records every page it
// finished in `part-<i>.json`: run the same command again after a failure and each part resumes at its
// first page not done (a finished part is not read again). The merged file is `calls.ndjson`.
//
// Flags (exit code 2, with the usage, when one is wrong):
//   --workers <n>      how many worker processes, at most (default 4). Never more than the pages: with fewer
//                      pages than workers, one worker a page, and it says so.
//   --out <dir>        the folder of the parts and the merged file (default `export`).
//   --page-size <n>    calls a page, 1 to 100 (default 100).
//   --redis <url>      share one rate gate between the workers through this Redis, e.g. redis://127.0.0.1:6379.
//   --quota <n>/<s>    at most <n> requests every <s> seconds, e.g. 100/60: shared through Redis with --redis,
//                      each worker its own without.
//   --part, --first, --last   how the coordinator starts a worker (not for you).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RedisRateGate } from '@company-data/redis-gate';
import { CompanyData, type RateQuota } from '@company-data/sdk';

const USAGE =
  'Usage: export-in-parts.ts [--workers <n>] [--out <dir>] [--page-size <1-100>] [--redis <url>] [--quota <requests>/<seconds>]';

function usageError(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** A whole number from `min` to `max` (the text of flag `name`), or a usage error. */
function wholeNumber(name: string, text: string, min: number, max?: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= (max ?? Number.MAX_SAFE_INTEGER)))
    usageError(`--${name} ${text}: expected a whole number, ${max ? `${min} to ${max}` : `${min} or more`}.`);
  return value;
}

/** `100/60` → 100 requests per 60 seconds. */
function parseQuota(text: string | undefined): RateQuota | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [requests, perSeconds] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!requests || !perSeconds) usageError(`--quota ${text}: expected <requests>/<seconds>, e.g. 100/60.`);
  return { requests, perSeconds };
}

function parseArguments() {
  try {
    const { values } = parseArgs({
      options: {
        workers: { type: 'string', default: '4' },
        out: { type: 'string', default: 'export' },
        'page-size': { type: 'string', default: '100' },
        redis: { type: 'string' },
        quota: { type: 'string' },
        part: { type: 'string' },
        first: { type: 'string' },
        last: { type: 'string' },
      },
    });
    if (values.redis !== undefined && !/^rediss?:\/\//.test(values.redis))
      usageError(`--redis ${values.redis}: expected a Redis URL, e.g. redis://127.0.0.1:6379.`);
    return {
      values,
      workers: wholeNumber('workers', values.workers, 1),
      pageSize: wholeNumber('page-size', values['page-size'], 1, 100),
      quota: parseQuota(values.quota),
    };
  } catch (error) {
    // parseArgs: an unknown option, or one without its value (`--redis` with no URL).
    if (error instanceof TypeError) usageError(error.message);
    throw error;
  }
}

const { values, workers, pageSize, quota } = parseArguments();

/**
 * The client of a worker: with `--redis`, its gate (and quota) shared with the other workers; without, a
 * gate (and quota) of its own. Patient with 429s: parts that do not share a gate meet many.
 */
function connect() {
  const gate = values.redis ? new RedisRateGate({ redis: values.redis, quota }) : undefined;
  const client = new CompanyData({ gate, quota: gate ? undefined : quota, maxRetries: 10 });
  return {
    client,
    async close() {
      await client.close();
      await gate?.close();
    },
  };
}

/** What a part has done so far: the next page to read, and the bytes of its file that hold the pages before it. */
interface PartState {
  first: number;
  last: number;
  next: number;
  bytes: number;
}

/** One worker: the pages `first`..`last` to `part-<i>.ndjson`, resuming where a previous run stopped. */
async function runPart(index: string, first: number, last: number): Promise<void> {
  const file = join(values.out, `part-${index}.ndjson`);
  const stateFile = join(values.out, `part-${index}.json`);
  let state: PartState = { first, last, next: first, bytes: 0 };
  if (existsSync(stateFile)) {
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as PartState;
    if (saved.first === first && saved.last === last) state = saved;
  }
  if (state.next > last) return;
  // Drop whatever a crashed run wrote after its last finished page.
  if (existsSync(file)) truncateSync(file, state.bytes);
  const output = createWriteStream(file, { flags: state.bytes > 0 ? 'a' : 'w' });
  const { client, close } = connect();
  try {
    const pages = client.calls
      .list(
        // Oldest first: calls created during the export land after the last page instead of shifting
        // every page (and an item across the boundary of two parts).
        { page_size: pageSize, page: state.next, ordering: 'created_at' },
        {
          lastPage: last,
          onCountChange: ({ previous, current }) =>
            console.error(`part ${index}: the number of calls changed, ${previous} → ${current}`),
        },
      )
      .pages();
    for await (const page of pages) {
      const lines = page.data.map((call) => `${JSON.stringify(call)}\n`).join('');
      // The page is done once its lines are written out: only then is it recorded.
      await new Promise<void>((resolve, reject) =>
        output.write(lines, (error) => (error ? reject(error) : resolve())),
      );
      state = { ...state, next: page.pagination.page + 1, bytes: state.bytes + Buffer.byteLength(lines) };
      writeFileSync(stateFile, JSON.stringify(state));
    }
  } finally {
    output.end();
    await finished(output);
    await close();
  }
}

/** `count` contiguous ranges of the pages 1..`totalPages`, as even as can be (fewer when pages are few). */
function splitPages(totalPages: number, count: number): [number, number][] {
  const parts = Math.max(1, Math.min(count, totalPages));
  return Array.from({ length: parts }, (_, index) => {
    const first = Math.floor((index * totalPages) / parts) + 1;
    const last = Math.floor(((index + 1) * totalPages) / parts);
    return [first, last];
  });
}

/** The coordinator: splits, starts the workers, merges their parts and checks exactly-once. */
async function coordinate(): Promise<void> {
  mkdirSync(values.out, { recursive: true });
  const { client, close } = connect();
  let expected: number;
  let totalPages: number;
  try {
    const first = await client.calls.list({ page_size: pageSize, ordering: 'created_at' });
    expected = first.pagination.count;
    totalPages = first.pagination.total_pages;
  } finally {
    await close();
  }
  const ranges = splitPages(totalPages, workers);
  if (ranges.length < workers)
    console.error(
      `${totalPages === 1 ? '1 page' : `${totalPages} pages`} of ${pageSize} calls: ${ranges.length === 1 ? '1 worker' : `${ranges.length} workers`}, not ${workers} (a worker reads whole pages).`,
    );
  const script = fileURLToPath(import.meta.url);
  const started = performance.now();
  const codes = await Promise.all(
    ranges.map(async ([first, last], index) => {
      const args = [...process.execArgv, script, ...process.argv.slice(2)];
      args.push('--part', String(index), '--first', String(first), '--last', String(last));
      const worker = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
      const [code] = await once(worker, 'exit');
      return code as number | null;
    }),
  );
  const failed = codes.flatMap((code, index) => (code === 0 ? [] : [index]));
  if (failed.length > 0) {
    console.error(`Parts ${failed.join(', ')} failed: run the same command again to resume them.`);
    process.exitCode = 1;
    return;
  }
  // Merge in page order, checking that every call arrived exactly once.
  const merged = createWriteStream(join(values.out, 'calls.ndjson'));
  const seen = new Set<string>();
  let duplicates = 0;
  for (const index of ranges.keys()) {
    const lines = createInterface({ input: createReadStream(join(values.out, `part-${index}.ndjson`)) });
    for await (const line of lines) {
      const { id } = JSON.parse(line) as { id: string };
      if (seen.has(id)) duplicates++;
      seen.add(id);
      if (!merged.write(`${line}\n`)) await once(merged, 'drain');
    }
  }
  merged.end();
  await finished(merged);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    JSON.stringify({
      calls: seen.size,
      expected,
      duplicates,
      parts: ranges.length,
      pages: totalPages,
      seconds,
    }),
  );
  if (duplicates > 0 || seen.size !== expected) {
    console.error(`Not exactly once: ${seen.size} distinct calls of ${expected}, ${duplicates} duplicates.`);
    process.exitCode = 1;
  } else {
    console.error(
      `Exported ${seen.size} calls in ${ranges.length} parts to ${join(values.out, 'calls.ndjson')}`,
    );
  }
}

if (values.part === undefined) await coordinate();
else await runPart(values.part, Number(values.first), Number(values.last));
