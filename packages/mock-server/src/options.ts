import type { TimeInput } from './clock.js';
import type { Fixture } from './fixture/schema.js';
import type { ThrottleConfig } from './http/throttle.js';

/**
 * Options of {@link createMockServer} (and {@link startMockServer}).
 *
 * @example
 * ```ts
 * const server = createMockServer({ seed: 7, sizes: { calls: 10_000 }, throttle: { limit: 5, windowSeconds: 60 } });
 * ```
 */
export interface MockServerOptions {
  /** Seed of the generated data (and of generated ids and keys with a fixture); the same seed gives the same data, ids, tokens and keys (default 1). */
  seed?: number;
  /** Record counts of the primary company (default 12 users, 4 teams, 60 recordings, 240 calls). */
  sizes?: MockSizes;
  /** Load these companies, keys, records, audiences and lead sources instead of generating data (validated; see {@link FixtureSchema}). */
  fixture?: Fixture;
  /** The clock's initial time (default `2026-06-01T12:00:00Z`). */
  now?: TimeInput;
  /** Per-key quota, or false for none (default 1000 requests per 60 seconds). */
  throttle?: ThrottleConfig | false;
  /** Origin the in-process dispatcher and msw handlers answer (default `http://company-data.mock`). */
  origin?: string;
  /** Largest accepted request body in bytes; larger bodies get 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /** Entries the request journal keeps, oldest dropped first (default 10,000; 0 disables it). */
  journalLimit?: number;
  /** Token guarding the admin HTTP API (default: random per instance). */
  adminToken?: string;
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
