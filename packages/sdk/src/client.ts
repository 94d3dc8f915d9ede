import { apiRootOf } from '@company-data/contract';
import { Core } from './core.js';
import { ConfigurationError } from './errors.js';
import { createLogger } from './logger.js';
import type { ClientOptions } from './options.js';
import { RateGate } from './rate-gate.js';
import { Audiences } from './resources/audiences.js';
import { Calls } from './resources/calls.js';
import { Leads } from './resources/leads.js';
import { Recordings } from './resources/recordings.js';
import { Teams } from './resources/teams.js';
import { Users } from './resources/users.js';
import { realSleep } from './sleep.js';
import { Transport } from './transport.js';
import { SDK_VERSION } from './version.js';

const DEFAULTS = { timeout: 60_000, maxRetries: 2, maxRetryWait: 120_000 } as const;

/**
 * The Company Data API client. One instance holds a keep-alive connection pool and one rate-limit gate
 * shared by all its calls; create it once and reuse it.
 *
 * @example
 * ```ts
 * import { CompanyData } from '@company-data/sdk';
 *
 * // apiKey and baseURL fall back to COMPANY_DATA_API_KEY and COMPANY_DATA_BASE_URL.
 * const client = new CompanyData();
 * for await (const call of client.calls.list({ source: 'voice_agent' })) console.log(call.summary);
 * await client.close();
 * ```
 */
export class CompanyData {
  /** Users: `list`, `retrieve`. */
  readonly users: Users;
  /** Teams: `list`, `retrieve`. */
  readonly teams: Teams;
  /** Field recordings: `list`, `retrieve` (with custom fields), `transcript`. */
  readonly recordings: Recordings;
  /** Calls: `list`, `retrieve`, `transcript`. */
  readonly calls: Calls;
  /** The add-audience-member webhook: `addMember`. */
  readonly audiences: Audiences;
  /** The submit-lead webhook: `submit`. */
  readonly leads: Leads;
  /** The base address in use (ends in `/v1`), or `undefined` when none is configured. */
  readonly baseURL: string | undefined;
  /** Where the lead webhook is posted: `apiRoot`, or `baseURL` without its trailing `/v1`. */
  readonly apiRoot: string | undefined;

  readonly #core: Core;
  readonly #transport: Transport;

  /**
   * Creates a client. Nothing is sent until the first call; a missing API key or base URL is reported by
   * the first call that needs it.
   *
   * @param options - see {@link ClientOptions}; all optional.
   * @throws {@link ConfigurationError} with code `'invalid_option'` when `baseURL` or `apiRoot` is not a
   * URL, or a number option is out of range.
   */
  constructor(options: ClientOptions = {}) {
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(process.env.COMPANY_DATA_API_KEY);
    this.baseURL = checkURL(
      'baseURL',
      nonEmpty(options.baseURL) ?? nonEmpty(process.env.COMPANY_DATA_BASE_URL),
    );
    this.apiRoot =
      checkURL('apiRoot', nonEmpty(options.apiRoot)) ??
      (this.baseURL === undefined ? undefined : apiRootOf(this.baseURL));
    const sleep = options.sleep ?? realSleep;
    const now = options.now ?? Date.now;
    this.#transport = new Transport(options.dispatcher, options.fetch);
    this.#core = new Core({
      apiKey,
      baseURL: this.baseURL,
      apiRoot: this.apiRoot,
      timeout: checkNumber('timeout', options.timeout ?? DEFAULTS.timeout, 1),
      maxRetries: checkNumber('maxRetries', options.maxRetries ?? DEFAULTS.maxRetries, 0),
      maxRetryWait: checkNumber('maxRetryWait', options.maxRetryWait ?? DEFAULTS.maxRetryWait, 0),
      defaultHeaders: options.defaultHeaders ?? {},
      userAgent: `company-data-sdk/${SDK_VERSION} node/${process.versions.node}`,
      validate: options.validate ?? true,
      onRateLimit: options.onRateLimit,
      onRetry: options.onRetry,
      sleep,
      now,
      random: options.random ?? Math.random,
      logger: createLogger(options.logger ?? console, options.logLevel ?? 'warn', () =>
        apiKey ? [apiKey] : [],
      ),
      transport: this.#transport,
      gate: new RateGate(sleep, now),
    });
    this.users = new Users(this.#core);
    this.teams = new Teams(this.#core);
    this.recordings = new Recordings(this.#core);
    this.calls = new Calls(this.#core);
    this.audiences = new Audiences(this.#core);
    this.leads = new Leads(this.#core);
  }

  /**
   * Releases the connection pool (a `dispatcher` passed in options is left open) and ends any rate-limit
   * pause. Later calls fail with a {@link ConnectionError}. Idempotent.
   *
   * @returns once the sockets are closed.
   * @example
   * ```ts
   * try {
   *   await work(client);
   * } finally {
   *   await client.close();
   * }
   * ```
   */
  async close(): Promise<void> {
    this.#core.close();
    await this.#transport.close();
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function checkURL(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!URL.canParse(value)) throw new ConfigurationError('invalid_option', `${name} is not a URL.`);
  return value.replace(/\/+$/, '');
}

function checkNumber(name: string, value: number, min: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < min) {
    throw new ConfigurationError('invalid_option', `${name} must be a number of at least ${min}.`);
  }
  return value;
}
