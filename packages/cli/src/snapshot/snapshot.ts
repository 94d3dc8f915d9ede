import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Fixture } from '@company-data/mock-server';
import type { CompanyData } from '@company-data/sdk';
import { type ConnectionOptions, createClient, resolveConnection } from '../connection.js';
import type { CopyLockedError } from '../copy/errors.js';
import { lockFile } from '../copy/file-lock.js';
import { describeHolder } from '../copy/lock-holder.js';
import { UsageError } from '../errors.js';
import { ExchangeLog } from '../exchanges.js';
import { removeStaleTempFiles, writeAtomically } from '../files/write-atomically.js';
import { ProgressBar, type ProgressStream } from '../progress-bar.js';
import { CLI_VERSION } from '../version.js';
import { anonymize } from './anonymize.js';
import { checkLoadable } from './check-loadable.js';
import { Checkpoint, type DetailEntry } from './checkpoint.js';
import { fetchDetails } from './fetch-details.js';
import {
  checkConcurrency,
  checkMax,
  checkSeed,
  checkSince,
  DEFAULT_MAX_CALLS,
  DEFAULT_MAX_RECORDINGS,
} from './options.js';
import { PLACEHOLDER_KEYS, placeholderKeys } from './placeholder-keys.js';
import { type ListBounds, type ListMethod, readNewest } from './read-lists.js';
import type { SnapshotRecords } from './records.js';

/**
 * Options of {@link snapshot}.
 *
 * @example
 * ```ts
 * const options: SnapshotOptions = { output: 'test/fixture.json', maxCalls: 200, anonymize: true, seed: process.env.FIXTURE_SEED };
 * ```
 */
export interface SnapshotOptions extends ConnectionOptions {
  /** The fixture file to write (relative paths are relative to the working directory). Replaced if it exists. */
  output: string;
  /** The newest calls to read: a whole number, or `'all'`. Default: 500. */
  maxCalls?: number | 'all' | undefined;
  /** The newest field recordings to read: a whole number, or `'all'`. Default: 100. */
  maxRecordings?: number | 'all' | undefined;
  /** Only calls and recordings created at or after this time (`2026-01-31`, an ISO 8601 time, or a Date). */
  since?: string | Date | undefined;
  /** Requests in flight, 1 to 16: list pages read ahead, then records fetched at once. Default: 4. */
  concurrency?: number | undefined;
  /** Replace personal data with deterministic stand-ins (see the guide). Default: false. */
  anonymize?: boolean | undefined;
  /**
   * The secret the stand-ins are derived from; the same seed gives the same file. At least
   * {@link MIN_SEED_LENGTH} characters (a {@link UsageError} otherwise). Default: random.
   */
  seed?: string | undefined;
  /** The company's name in the fixture. Default: `Snapshot`. */
  companyName?: string | undefined;
  /** Discard an interrupted snapshot to the same file instead of resuming it. Default: false. */
  fresh?: boolean | undefined;
  /**
   * How long to wait (ms) for another snapshot to the same file to finish. Default 0: a second run refuses at
   * once with a {@link CopyLockedError} naming the first.
   */
  wait?: number | undefined;
  /** Where progress goes (a bar in a terminal, plain lines otherwise). Default: none. */
  progress?: ProgressStream | undefined;
  /** Stops the snapshot: requests in flight are aborted, nothing is written, the progress is kept. */
  signal?: AbortSignal | undefined;
}

/**
 * What a snapshot wrote and what it cost.
 *
 * @example
 * ```ts
 * const result: SnapshotResult = await snapshot({ output: 'fixture.json' });
 * console.log(`${result.counts.calls} calls in ${result.requests} requests`);
 * ```
 */
export interface SnapshotResult {
  /** The absolute path of the fixture. */
  output: string;
  /** Records written. */
  counts: { users: number; teams: number; recordings: number; calls: number; transcripts: number };
  /** Requests sent, every attempt counted. */
  requests: number;
  /** Times the API answered 429 (each one paused every request of the client). */
  rateLimitWaits: number;
  /** How long requests were paused for 429s in all, in ms (overlapping pauses counted once). */
  waitedMs: number;
  /** How long the snapshot took, in ms. */
  durationMs: number;
  /** Recordings and calls whose details an interrupted earlier run had fetched. */
  resumed: number;
  /** Whether personal data was replaced. */
  anonymized: boolean;
  /** Fields the contract does not know, removed by anonymisation, with how often (e.g. `calls.phone`). */
  droppedFields: Record<string, number>;
  /** The placeholder keys written into the fixture. */
  keys: typeof PLACEHOLDER_KEYS;
}

/**
 * Reads one company through the API with the SDK and writes it as a mock-server fixture: users, teams, the
 * newest field recordings with their custom fields and transcripts, the newest calls with their
 * transcripts, and four placeholder API keys (never the real one). `company-data-mock --fixture` and
 * `createMockServer({ fixture })` load the file as it is.
 *
 * Polite: lists are read with the SDK's ordered prefetch, records `concurrency` at a time, all behind the
 * client's rate gate (a 429 pauses every request). Never half-written: the file appears complete, or not at
 * all; an interrupted run is resumed by the next one (or discarded with `fresh`).
 *
 * @param options - the output path, bounds, anonymisation and connection.
 * @returns what was written and what it cost.
 * @throws {@link UsageError} for a bad option, a missing key or base URL, or an output directory that does
 * not exist; {@link CopyLockedError} when another snapshot to the same file is running (after `wait`); the
 * SDK's `CompanyDataError`s when the API fails (the progress so far is kept for a rerun).
 * @example
 * ```ts
 * import { snapshot } from '@company-data/cli';
 *
 * const result = await snapshot({ output: 'test/fixture.json', maxCalls: 200, anonymize: true, seed: process.env.FIXTURE_SEED });
 * console.log(`${result.counts.calls} calls, ${result.rateLimitWaits} rate-limit waits`);
 * ```
 */
export async function snapshot(options: SnapshotOptions): Promise<SnapshotResult> {
  const started = Date.now();
  const plan = checkOptions(options);
  const connection = resolveConnection(options);
  const output = resolve(options.output);
  await checkOutputPath(output);
  const progress = new ProgressBar(options.progress ?? { write: () => true }, 'snapshot');
  // One snapshot at a time per file: taken before its checkpoint is read or a temporary file removed.
  const lock = await lockFile(output, {
    wait: options.wait,
    command: 'company-data snapshot',
    signal: options.signal,
    onWait: (holder, gone) =>
      progress.line(
        gone
          ? `the snapshot that held ${output} (${describeHolder(holder)}) is gone; taking over once its lock goes stale (at most 10 s)`
          : `waiting for the snapshot that holds ${output}: ${describeHolder(holder)}`,
      ),
  });
  try {
    await removeStaleTempFiles(output);
    return await snapshotHeld(options, plan, connection, output, progress, started);
  } finally {
    await lock.release();
  }
}

async function snapshotHeld(
  options: SnapshotOptions,
  plan: SnapshotPlan,
  connection: ReturnType<typeof resolveConnection>,
  output: string,
  progress: ProgressBar,
  started: number,
): Promise<SnapshotResult> {
  const log = new ExchangeLog();
  const pauses = new PauseTally(connection.now ?? Date.now);
  const client = createClient(connection, log, {
    validate: true,
    onRateLimit: (event) => {
      pauses.add(event.waitMs);
      progress.line(`rate limited (429): every request waits ${Math.ceil(event.waitMs / 1000)} s`);
    },
  });
  const checkpoint = await Checkpoint.open(output, connection.baseURL, options.fresh ?? false);
  try {
    if (checkpoint.resumed.size > 0)
      progress.line(
        `resuming an interrupted snapshot: ${checkpoint.resumed.size} records already fetched (--fresh starts over)`,
      );
    const read = { concurrency: plan.concurrency, signal: options.signal, progress };
    const lists = await readLists(client, plan.bounds, read);
    const details = await readDetails(client, lists, checkpoint, read);
    const records = joinDetails(lists, details);
    const anonymized = options.anonymize
      ? anonymize(records, plan.seed ?? randomBytes(32).toString('hex'))
      : undefined;
    const written = anonymized?.records ?? records;
    await writeFixture(output, buildFixture(written, options.companyName ?? 'Snapshot', Boolean(anonymized)));
    await checkpoint.remove();
    return {
      output,
      counts: countRecords(written),
      requests: log.requests,
      rateLimitWaits: pauses.count,
      waitedMs: pauses.totalMs,
      durationMs: Date.now() - started,
      resumed: checkpoint.resumed.size,
      anonymized: Boolean(anonymized),
      droppedFields: Object.fromEntries(anonymized?.droppedFields ?? []),
      keys: PLACEHOLDER_KEYS,
    };
  } finally {
    progress.stop();
    await checkpoint.close();
    await client.close();
  }
}

/** How much to read, how fast, and the anonymisation seed: the options checked before anything else. */
interface SnapshotPlan {
  readonly bounds: { readonly calls: ListBounds; readonly recordings: ListBounds };
  readonly concurrency: number;
  readonly seed: string | undefined;
}

/** @throws UsageError for a bad bound, concurrency or seed. */
function checkOptions(options: SnapshotOptions): SnapshotPlan {
  // In the order the options are reported: a bad maxCalls before a bad since.
  const maxCalls = checkMax('maxCalls', options.maxCalls, DEFAULT_MAX_CALLS);
  const since = checkSince(options.since);
  const maxRecordings = checkMax('maxRecordings', options.maxRecordings, DEFAULT_MAX_RECORDINGS);
  return {
    bounds: { calls: { max: maxCalls, since }, recordings: { max: maxRecordings, since } },
    concurrency: checkConcurrency(options.concurrency),
    seed: checkSeed(options.seed),
  };
}

/**
 * The 429s met and how long requests were paused for them. Requests in flight together may each meet a
 * 429 and the client's gate merges their pauses (the longer wait wins): the time is counted once, as the
 * gate holds it. The gate itself exposes no such total, so the tool keeps it from the `onRateLimit` events.
 */
class PauseTally {
  count = 0;
  totalMs = 0;
  #pausedUntil = 0;
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** A 429 that pauses every request for `waitMs` from now. */
  add(waitMs: number): void {
    const now = this.#now();
    const end = now + waitMs;
    this.count++;
    this.totalMs += Math.max(0, end - Math.max(now, this.#pausedUntil));
    this.#pausedUntil = Math.max(this.#pausedUntil, end);
  }
}

/** What a phase of reading needs: how many requests at once, the stop signal, where progress goes. */
interface ReadContext {
  readonly concurrency: number;
  readonly signal: AbortSignal | undefined;
  readonly progress: ProgressBar;
}

/** The four lists, newest first, up to their bounds. */
async function readLists(client: CompanyData, bounds: SnapshotPlan['bounds'], context: ReadContext) {
  const read = async <Item extends { created_at: string }>(
    what: string,
    list: ListMethod<Item>,
    listBounds: ListBounds,
  ) => {
    const items = await readNewest(list, listBounds, {
      concurrency: context.concurrency,
      signal: context.signal,
      onPage: (done, total) => {
        if (done < total) context.progress.line(`${what}: ${done}/${total}`);
      },
    });
    context.progress.line(`${what}: ${items.length}`);
    return items;
  };
  const users = await read('users', (query, list) => client.users.list(query, list), {});
  const teams = await read('teams', (query, list) => client.teams.list(query, list), {});
  const recordings = await read(
    'recordings',
    (query, list) => client.recordings.list(query, list),
    bounds.recordings,
  );
  const calls = await read('calls', (query, list) => client.calls.list(query, list), bounds.calls);
  return { users, teams, recordings, calls };
}

type Lists = Awaited<ReturnType<typeof readLists>>;

/** Each recording's custom fields and transcript and each call's transcript, with a progress bar. */
async function readDetails(
  client: CompanyData,
  lists: Lists,
  checkpoint: Checkpoint,
  context: ReadContext,
): Promise<Map<string, DetailEntry>> {
  const { recordings, calls } = lists;
  context.progress.start('transcripts and custom fields', recordings.length + calls.length);
  let done = 0;
  const details = await fetchDetails(client, { recordings, calls }, checkpoint, {
    concurrency: context.concurrency,
    signal: context.signal,
    onEntry: () => context.progress.update(++done),
  });
  context.progress.stop();
  return details;
}

/** The lists with their details: recordings replaced by their full records, transcripts attached. */
function joinDetails(lists: Lists, details: ReadonlyMap<string, DetailEntry>): SnapshotRecords {
  return {
    users: lists.users,
    teams: lists.teams,
    recordings: lists.recordings.map((recording) => {
      const entry = details.get(`recording:${recording.id}`) as DetailEntry & { kind: 'recording' };
      return { ...entry.detail, transcript: entry.transcript };
    }),
    calls: lists.calls.map((call) => ({
      ...call,
      transcript: (details.get(`call:${call.id}`) as DetailEntry).transcript,
    })),
  };
}

/** Checks that the mock server loads the fixture, then writes it whole or not at all. */
async function writeFixture(output: string, fixture: Fixture): Promise<void> {
  await checkLoadable(fixture);
  await writeAtomically(output, `${JSON.stringify(fixture, null, 2)}\n`);
}

function countRecords(records: SnapshotRecords): SnapshotResult['counts'] {
  return {
    users: records.users.length,
    teams: records.teams.length,
    recordings: records.recordings.length,
    calls: records.calls.length,
    transcripts: [...records.recordings, ...records.calls].filter((record) => record.transcript.length > 0)
      .length,
  };
}

function buildFixture(records: SnapshotRecords, companyName: string, anonymized: boolean): Fixture {
  const { users, teams, recordings, calls } = records;
  const privacy = anonymized
    ? 'Personal data is replaced by stand-ins (names, e-mails, record ids, free text).'
    : 'Not anonymized: this file holds the real data (use --anonymize before committing it).';
  return {
    $comment: `Written by company-data snapshot ${CLI_VERSION}: ${users.length} users, ${teams.length} teams, the ${recordings.length} newest field recordings and ${calls.length} newest calls with their transcripts. The API keys are placeholders (valid, expired, revoked, no permission), not the key the data was read with. ${privacy}`,
    companies: [{ name: companyName, keys: placeholderKeys(), users, teams, recordings, calls }],
  };
}

async function checkOutputPath(output: string): Promise<void> {
  const directory = await stat(dirname(output)).catch(() => undefined);
  if (!directory?.isDirectory())
    throw new UsageError(`The directory of ${output} does not exist: create it first, or write elsewhere.`);
  const existing = await stat(output).catch(() => undefined);
  if (existing?.isDirectory())
    throw new UsageError(
      `${output} is a directory: give the path of the fixture file to write, e.g. ${output}/fixture.json.`,
    );
}
