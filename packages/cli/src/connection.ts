import {
  type AuthenticationError,
  CompanyData,
  ConfigurationError,
  type RateLimitEvent,
  type Sleep,
} from '@company-data/sdk';
import { UsageError } from './errors.js';
import type { ExchangeLog } from './exchanges.js';

/**
 * Where the API is and how to authenticate: the same as the SDK's own options, and the same environment
 * variables when left out.
 *
 * @example
 * ```ts
 * const staging: ConnectionOptions = { baseURL: 'https://staging.example.com/v1', apiKey: process.env.STAGING_KEY };
 * ```
 */
export interface ConnectionOptions {
  /** The API key. Default: `process.env.COMPANY_DATA_API_KEY`. */
  apiKey?: string | undefined;
  /** The base address, ending in `/v1`. Default: `process.env.COMPANY_DATA_BASE_URL`. */
  baseURL?: string | undefined;
  /** Per-attempt time limit in ms (default 60 000). */
  timeout?: number | undefined;
  /**
   * How the SDK waits out a 429 or a retry backoff. Default: real time. Tests pass one that moves a mock
   * server's clock instead.
   */
  sleep?: Sleep | undefined;
  /** The current time in epoch ms, on the same clock as `sleep`. Default: `Date.now`. */
  now?: (() => number) | undefined;
}

/** A connection whose key and address are known. */
export interface ResolvedConnection extends ConnectionOptions {
  apiKey: string;
  baseURL: string;
}

/** Retries per call: more than the SDK's default, since a long snapshot may meet several 429s in a row. */
const MAX_RETRIES = 5;

/**
 * Fills the key and the base URL from the environment and fails early, with the fix, when one is missing.
 *
 * @param options - what was given.
 * @param env - where the variables are read (default `process.env`).
 * @throws UsageError naming the flag and the variable.
 */
export function resolveConnection(
  options: ConnectionOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResolvedConnection {
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.COMPANY_DATA_API_KEY);
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.COMPANY_DATA_BASE_URL);
  if (baseURL === undefined)
    throw new UsageError(
      'No base URL: set COMPANY_DATA_BASE_URL (or pass --base-url), e.g. https://api.example.com/v1.',
    );
  if (!URL.canParse(baseURL)) throw new UsageError(`The base URL "${baseURL}" is not a URL.`);
  if (apiKey === undefined) throw new UsageError('No API key: set COMPANY_DATA_API_KEY (or pass --api-key).');
  checkWithTheSdk(apiKey, baseURL, {
    apiKey: options.apiKey === undefined ? 'COMPANY_DATA_API_KEY' : '--api-key',
    baseURL: options.baseURL === undefined ? 'COMPANY_DATA_BASE_URL' : '--base-url',
  });
  return { ...options, apiKey, baseURL };
}

/**
 * The SDK's own rules for a key and a base URL (a path ending in /v1, no `Bearer ` prefix), reported as a
 * usage error that names the flag or variable the user set, before any request.
 */
function checkWithTheSdk(apiKey: string, baseURL: string, names: { apiKey: string; baseURL: string }): void {
  try {
    void new CompanyData({ apiKey, baseURL, logLevel: 'off' }).close();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new UsageError(
      error.message.replace(/^(apiKey|baseURL)\b/, (option) => names[option as 'apiKey' | 'baseURL']),
    );
  }
}

/**
 * An SDK client that sends through `log` (every request counted, raw bodies kept) and never writes to the
 * console: the tool reports waits itself.
 */
export function createClient(
  connection: ResolvedConnection,
  log: ExchangeLog,
  options: { validate: boolean; apiKey?: string; onRateLimit?: (event: RateLimitEvent) => void },
): CompanyData {
  return new CompanyData({
    apiKey: options.apiKey ?? connection.apiKey,
    baseURL: connection.baseURL,
    timeout: connection.timeout,
    maxRetries: MAX_RETRIES,
    fetch: log.fetch,
    validate: options.validate,
    onRateLimit: options.onRateLimit,
    sleep: connection.sleep,
    now: connection.now,
    logLevel: 'off',
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The fix for a key the server refused (401): bad configuration, not a failed run, so the command exits 2
 * and names the setting to change instead of advising to run again.
 *
 * @param error - the server's refusal.
 * @param keyFrom - where the key came from: `COMPANY_DATA_API_KEY` or `--api-key` (default: either).
 * @returns the error to throw.
 */
export function refusedKeyError(
  error: AuthenticationError,
  keyFrom = 'COMPANY_DATA_API_KEY or --api-key',
): UsageError {
  return new UsageError(
    `The server refused the API key (${error.detail ?? error.status}): check ${keyFrom}.`,
  );
}
