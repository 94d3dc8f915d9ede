import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Fixture } from '@company-data/mock-server';
import { type ConnectionOptions, createClient, resolveConnection } from '../connection.js';
import { UsageError } from '../errors.js';
import { ExchangeLog } from '../exchanges.js';
import { Progress, type ProgressStream } from '../progress.js';
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
import { readNewest } from './read-lists.js';
import type { SnapshotRecords } from './records.js';
import { removeStaleTempFiles, writeAtomically } from './write-atomically.js';

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
 * not exist; the SDK's `CompanyDataError`s when the API fails (the progress so far is kept for a rerun).
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
  const bounds = {
    calls: {
      max: checkMax('maxCalls', options.maxCalls, DEFAULT_MAX_CALLS),
      since: checkSince(options.since),
    },
    recordings: {
      max: checkMax('maxRecordings', options.maxRecordings, DEFAULT_MAX_RECORDINGS),
      since: checkSince(options.since),
    },
  };
  const concurrency = checkConcurrency(options.concurrency);
  const seed = checkSeed(options.seed);
  const connection = resolveConnection(options);
  const output = resolve(options.output);
  await checkOutputPath(output);
  await removeStaleTempFiles(output);

  const progress = new Progress(options.progress ?? { write: () => true }, 'snapshot');
  const log = new ExchangeLog();
  let rateLimitWaits = 0;
  let waitedMs = 0;
  let pausedUntil = 0;
  const now = connection.now ?? Date.now;
  const client = createClient(connection, log, {
    validate: true,
    onRateLimit: (event) => {
      // Requests in flight together may each meet a 429; their pauses overlap, so count the time once.
      const start = Math.max(now(), pausedUntil);
      const end = now() + event.waitMs;
      rateLimitWaits++;
      waitedMs += Math.max(0, end - start);
      pausedUntil = Math.max(pausedUntil, end);
      progress.line(`rate limited (429): every request waits ${Math.ceil(event.waitMs / 1000)} s`);
    },
  });
  const checkpoint = await Checkpoint.open(output, connection.baseURL, options.fresh ?? false);
  try {
    if (checkpoint.resumed.size > 0)
      progress.line(
        `resuming an interrupted snapshot: ${checkpoint.resumed.size} records already fetched (--fresh starts over)`,
      );
    const { signal } = options;
    const read = async <Item extends { created_at: string }>(
      what: string,
      list: Parameters<typeof readNewest<Item>>[0],
      listBounds: Parameters<typeof readNewest<Item>>[1],
    ) => {
      const items = await readNewest(list, listBounds, {
        concurrency,
        signal,
        onPage: (done, total) => {
          if (done < total) progress.line(`${what}: ${done}/${total}`);
        },
      });
      progress.line(`${what}: ${items.length}`);
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

    progress.start('transcripts and custom fields', recordings.length + calls.length);
    let done = 0;
    const details = await fetchDetails(client, { recordings, calls }, checkpoint, {
      concurrency,
      signal,
      onEntry: () => progress.update(++done),
    });
    progress.stop();

    const records: SnapshotRecords = {
      users,
      teams,
      recordings: recordings.map((recording) => {
        const entry = details.get(`recording:${recording.id}`) as DetailEntry & { kind: 'recording' };
        return { ...entry.detail, transcript: entry.transcript };
      }),
      calls: calls.map((call) => ({
        ...call,
        transcript: (details.get(`call:${call.id}`) as DetailEntry).transcript,
      })),
    };
    const anonymized = options.anonymize
      ? anonymize(records, seed ?? randomBytes(32).toString('hex'))
      : undefined;
    const fixture = buildFixture(
      anonymized?.records ?? records,
      options.companyName ?? 'Snapshot',
      Boolean(anonymized),
    );
    await checkLoadable(fixture);
    await writeAtomically(output, `${JSON.stringify(fixture, null, 2)}\n`);
    await checkpoint.remove();
    const written = anonymized?.records ?? records;
    return {
      output,
      counts: {
        users: written.users.length,
        teams: written.teams.length,
        recordings: written.recordings.length,
        calls: written.calls.length,
        transcripts: [...written.recordings, ...written.calls].filter(
          (record) => record.transcript.length > 0,
        ).length,
      },
      requests: log.requests,
      rateLimitWaits,
      waitedMs,
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
