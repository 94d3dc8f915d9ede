import { z } from 'zod';
import type { ActivityOptions } from '../data/activity/options.js';
import type { ClockMode, TimeInput } from '../data/clock.js';
import type { Fixture } from '../data/fixture/schema.js';
import type { QuotaInput } from '../data/store/quota.js';
import type { RequestEvent } from '../inspect/request-log.js';
import type { OnUnmatchedRequest } from '../inspect/verify/unmatched.js';
import type { FaultRates } from '../serve/engine/faults.js';
import type { LatencyProfile } from '../serve/engine/latency.js';

/**
 * Options of {@link createMockServer} (and {@link startMockServer}).
 *
 * @example
 * ```ts
 * const server = createMockServer({ seed: 7, sizes: { calls: 10_000 }, quota: { requests: 5, perSeconds: 60 } });
 * ```
 */
export interface MockServerOptions {
  /** Seed of the generated data (and of generated ids and keys with a fixture); the same seed gives the same data, ids, tokens and keys (default 1). */
  seed?: number;
  /** Record counts of the primary company (default 12 users, 4 teams, 60 recordings, 240 calls). */
  sizes?: MockSizes;
  /** Load these companies, keys, records, audiences and lead sources instead of generating data (validated; see {@link FixtureSchema}). */
  fixture?: Fixture;
  /** The clock's initial time (default `2026-06-01T12:00:00Z`); generated records are older. */
  now?: TimeInput;
  /**
   * `'running'` (default): the clock moves with real time from `now`, so waiting out a `Retry-After`,
   * the lead window or a key's expiry works as against the real API. `'frozen'`: it stands still until
   * moved, so journal times and created members repeat exactly. Either way `clock.advance`/`set` move it.
   */
  clock?: ClockMode;
  /**
   * The quota of keys without their own, or false for none (default: none). The well-known
   * `throttled` key and keys created with a `quota` keep their own.
   */
  quota?: QuotaInput | false;
  /**
   * The old name of `quota`, accepted with a deprecation warning until the next minor release.
   *
   * @deprecated Use `quota`.
   */
  throttle?: QuotaInput | false;
  /**
   * How long answers wait, in real time, for every request or per route: e.g. `{ minMs: 10, maxMs: 80 }`
   * or `{ medianMs: 30, p99Ms: 400 }` (default: none, answers at once). Seeded by `seed`: the same
   * requests get the same waits. Change it later with {@link MockServer.setLatency}.
   */
  latency?: LatencyProfile;
  /**
   * A share of requests that fail, with a mix of failures, for every request or per route: e.g.
   * `{ rate: 0.05 }` (default: none). Seeded by `seed`: the same requests meet the same faults. Change it
   * later with {@link MockServer.setFaultRate}; armed next-N faults win over it.
   */
  faultRate?: FaultRates;
  /**
   * A company that lives by the clock: calls arriving at a rate, a share of them excused later, recordings
   * arriving, users deactivated and calls deleted now and then (default: none; `{}` gives the defaults of
   * {@link ActivityOptions}). A function of the seed and the clock: with `clock: 'frozen'`,
   * `clock.advance(10 * 60_000)` creates exactly those ten minutes' records. Change it later with
   * {@link MockServer.setActivity}.
   */
  activity?: ActivityOptions | false;
  /**
   * Told of every request once answered (admin and OpenAPI requests included), e.g. to write a
   * request log with {@link formatRequestText}. Runs on the request path: keep it quick.
   */
  onRequest?: (event: RequestEvent) => void;
  /** Origin the in-process dispatcher and msw handlers answer (default `http://company-data.mock`). */
  origin?: string;
  /** Largest accepted request body in bytes; larger bodies get 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /** Entries the request journal keeps, oldest dropped first (default 10,000; 0 disables it). */
  journalLimit?: number;
  /** Token guarding the admin HTTP API (default: random per instance). */
  adminToken?: string;
  /**
   * What to do with a request the mock cannot match (an unknown path or method, a missing, unknown or
   * expired key, an unknown webhook token), besides answering it as the API does and listing it in
   * {@link MockServer.unmatched}: `'ignore'` (default), `'warn'` (a line on stderr), `'error'` (that line, and
   * the next {@link MockServer.verify} or {@link MockServer.close} throws), or a function called with it
   * (what it throws fails the test as `'error'` does).
   */
  onUnmatchedRequest?: OnUnmatchedRequest;
  /**
   * How many sessions ({@link MockServer.sessions}) the server holds at most besides its default one
   * (default 500); one more is refused with a 409 that says how to end one.
   */
  maxSessions?: number;
  /**
   * How long, in ms of real time, a session may go without a request (API, webhook or admin) before it ends
   * (default 30 minutes), or false for never.
   */
  sessionIdleMs?: number | false;
  /**
   * A {@link MockState} saved by {@link MockServer.saveState} (as it returned it, or its JSON parsed, hence
   * `unknown`): the world is made again from it, its records, keys, clock, quotas and activity as they were.
   * Validated first. The options it holds (`seed`, `sizes`, `fixture`, `now`, `clock`, `quota`, `latency`,
   * `faultRate`, `activity`, `journalLimit`) cannot be given beside it; `origin`, `adminToken`,
   * `maxBodyBytes`, `onRequest` and `onUnmatchedRequest` can. `reset()` then returns to the state's options
   * (its seeded data), not to the state.
   *
   * @throws MockStateError (a `RangeError`) naming the field of a state it cannot restore; RangeError when
   * an option the state holds is given beside it.
   */
  state?: unknown;
}

/**
 * Record counts of the primary company; each is optional.
 *
 * @example
 * ```ts
 * createMockServer({ sizes: { calls: 1_000_000 } satisfies MockSizes });
 * ```
 */
export interface MockSizes {
  /** Users (default 12; at least 1 when there are recordings or calls). */
  users?: number;
  /** Teams (default 4). */
  teams?: number;
  /** Field recordings (default 60). */
  recordings?: number;
  /** Calls (default 240). */
  calls?: number;
}

/**
 * The default origin of in-process servers.
 *
 * @example
 * ```ts
 * createMockServer().baseURL; // `${DEFAULT_ORIGIN}/v1`
 * ```
 */
export const DEFAULT_ORIGIN = 'http://company-data.mock';
/**
 * The default request body limit: 1 MiB; larger bodies are answered 413.
 *
 * @example
 * ```ts
 * createMockServer({ maxBodyBytes: 4 * DEFAULT_MAX_BODY_BYTES });
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The seed of the generated data when none is given. */
export const DEFAULT_SEED = 1;
/** The largest record count of a size, and the largest seed: both are unsigned 32-bit integers. */
export const MAX_SIZE = 0xffffffff;

/** What a record count of {@link MockSizes} must be, in words every caller puts in its own sentence. */
export const SIZE_RULE = `a whole number from 0 to ${MAX_SIZE}`;

const Size = z
  .int({ error: `must be ${SIZE_RULE}` })
  .min(0, { error: `must be ${SIZE_RULE}` })
  .max(MAX_SIZE, { error: `must be ${SIZE_RULE}` });

/**
 * The size rule, its one home: each record count of {@link MockSizes} is {@link SIZE_RULE}. The `sizes`
 * option, `reseed`, the admin API's `POST seed` and the CLI's `--users`, `--teams`, `--recordings` and
 * `--calls` all read it.
 */
export const MockSizesSchema = z.strictObject({
  users: Size.optional(),
  teams: Size.optional(),
  recordings: Size.optional(),
  calls: Size.optional(),
}) satisfies z.ZodType<MockSizes>;

/**
 * What is wrong with some sizes, by {@link MockSizesSchema}.
 *
 * @param sizes - the sizes to check.
 * @returns the field and the message (e.g. `calls`, `must be a whole number from 0 to 4294967295`), or
 * undefined for valid sizes.
 */
export function sizesProblem(sizes: unknown): { readonly field: string; readonly text: string } | undefined {
  const result = MockSizesSchema.safeParse(sizes);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return { field: issue?.path.map(String).join('.') ?? '', text: issue?.message ?? `must be ${SIZE_RULE}` };
}
