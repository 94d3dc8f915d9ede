import {
  type AuthenticationError,
  CompanyData,
  ConnectionError,
  ENVIRONMENT_VARIABLES,
  type RateLimitEvent,
  type RetryEvent,
  readConnectionSettings,
  type Sleep,
} from '@company-data/sdk';
import { errorCode } from './error-code.js';
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
  /** The API key. Default: `process.env.COMPANY_DATA_API_KEY` (the SDK's `ENVIRONMENT_VARIABLES.apiKey`). */
  apiKey?: string | undefined;
  /** The base address, ending in `/v1`. Default: `process.env.COMPANY_DATA_BASE_URL` (`ENVIRONMENT_VARIABLES.baseURL`). */
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
export const MAX_RETRIES = 5;

/**
 * The longest 429 wait `export` and `sync` sit out by default (`--max-wait`): past the per-minute windows
 * of a quota, short of holding the copy for an hourly one's. A longer wait stops the run, to run again later.
 */
export const DEFAULT_MAX_WAIT_MS = 5 * 60_000;

/**
 * The connection failures that no retry mends, only a fix of the configuration: a host DNS does not know, an
 * HTTPS base URL on a plain-HTTP server, a certificate that does not verify. They are not retried, and the
 * command exits 2.
 */
export const PERMANENT_CONNECTION_FAILURES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * Whether an error is a connection failure that no retry mends ({@link PERMANENT_CONNECTION_FAILURES}).
 *
 * @param error - anything thrown.
 */
export function isPermanentConnectionFailure(error: unknown): boolean {
  if (!(error instanceof ConnectionError)) return false;
  // The SDK's own code is `connection_error`; the socket's is in its cause.
  const code = errorCode(error.cause);
  return code !== undefined && PERMANENT_CONNECTION_FAILURES.has(code);
}

/** How the tool's messages name the SDK's options: by the flags that set them. */
export const FLAGS = { apiKey: '--api-key', baseURL: '--base-url' } as const;

/**
 * Fills the key and the base URL from the environment and fails early, with the fix, when one is missing
 * or the SDK's rules refuse it (a path not ending in /v1, a `Bearer ` prefix), naming the flag or variable
 * the user set.
 *
 * @param options - what was given.
 * @param env - where the variables are read (default `process.env`).
 * @throws UsageError naming the flag and the variable.
 */
export function resolveConnection(
  options: ConnectionOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResolvedConnection {
  const { apiKey, baseURL } = readConnectionSettings(options, { env, names: FLAGS });
  if (baseURL.given === undefined)
    throw new UsageError(
      `No base URL: set ${ENVIRONMENT_VARIABLES.baseURL} (or pass ${FLAGS.baseURL}), e.g. https://api.example.com/v1.`,
    );
  if (!URL.canParse(baseURL.given)) throw new UsageError(`The base URL "${baseURL.given}" is not a URL.`);
  if (apiKey.given === undefined)
    throw new UsageError(`No API key: set ${ENVIRONMENT_VARIABLES.apiKey} (or pass ${FLAGS.apiKey}).`);
  const refused = apiKey.error ?? baseURL.error;
  if (refused !== undefined) throw new UsageError(refused.message);
  return { ...options, apiKey: apiKey.given, baseURL: baseURL.given };
}

/** Where the key was set, for the fix when the server refuses it: the flag, or the variable. */
export function keySource(options: Pick<ConnectionOptions, 'apiKey'>): string {
  return options.apiKey === undefined ? ENVIRONMENT_VARIABLES.apiKey : FLAGS.apiKey;
}

/** Where the base URL was set, in words for a message: the flag, or the variable. */
export function baseURLSource(options: Pick<ConnectionOptions, 'baseURL'>): string {
  return options.baseURL?.trim()
    ? FLAGS.baseURL
    : `the ${ENVIRONMENT_VARIABLES.baseURL} environment variable`;
}

/** How the SDK's hints name the base URL's setting when it was given as an option, as the tool gives it. */
const SDK_BASE_URL_OPTION = 'the `baseURL` option';

/**
 * A message of the SDK's with its hints naming the tool's settings: "set in --base-url" (or the variable)
 * where the SDK says "set in the `baseURL` option".
 *
 * @param message - the SDK error's message.
 * @param baseURLFrom - where the base URL was set ({@link baseURLSource}).
 */
export function inToolWords(message: string, baseURLFrom: string): string {
  return message.replaceAll(SDK_BASE_URL_OPTION, baseURLFrom);
}

/**
 * An SDK client that sends through `log` (every request counted, raw bodies kept), or through the SDK's own
 * pool without one, and never writes to the console: the tool reports waits itself. A connection failure
 * that no retry mends ({@link isPermanentConnectionFailure}: an unknown host) is not retried; `onRetry` is
 * told of every other retry, before its wait.
 */
export function createClient(
  connection: ResolvedConnection,
  log: ExchangeLog | undefined,
  options: {
    validate: boolean;
    apiKey?: string;
    onRateLimit?: (event: RateLimitEvent) => void;
    onRetry?: (event: RetryEvent) => void;
    /** The longest 429 wait sat out, in ms; a longer one throws at once. Default: the SDK's. */
    maxRetryWait?: number;
  },
): CompanyData {
  return new CompanyData({
    apiKey: options.apiKey ?? connection.apiKey,
    baseURL: connection.baseURL,
    timeout: connection.timeout,
    maxRetries: MAX_RETRIES,
    maxRetryWait: options.maxRetryWait,
    fetch: log?.fetch,
    validate: options.validate,
    onRateLimit: options.onRateLimit,
    onRetry: (event) => {
      if (isPermanentConnectionFailure(event.error)) return false;
      options.onRetry?.(event);
      return undefined;
    },
    sleep: connection.sleep,
    now: connection.now,
    logLevel: 'off',
  });
}

/**
 * The fix for a key the server refused (401): bad configuration, not a failed run, so the command exits 2
 * and names the setting to change instead of advising to run again.
 *
 * @param error - the server's refusal.
 * @param keyFrom - where the key came from: the variable or the flag (default: either).
 * @returns the error to throw.
 */
export function refusedKeyError(
  error: AuthenticationError,
  keyFrom = `${ENVIRONMENT_VARIABLES.apiKey} or ${FLAGS.apiKey}`,
): UsageError {
  return new UsageError(
    `The server refused the API key (${error.detail ?? error.status}): check ${keyFrom}.`,
  );
}
