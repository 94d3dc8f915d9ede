import { DERIVED_OPTIONS, QUOTA_WITH_GATE } from './core/checks/argument-rules.js';
import { checkOptions, refuseUnknownKeys } from './core/checks/refusals.js';
import { OPTION_CHECKS, OPTION_HINTS } from './core/checks/schemas.generated.js';
import { ConfigurationError } from './core/errors.js';
import {
  CLIENT_DEFAULTS,
  type ClientOptions,
  type DerivedClientOptions,
  type Sleep,
} from './core/options.js';
import type { RateGateLike } from './core/rate-gate-interface.js';
import { runtimeName } from './core/runtime-env.js';
import { createLogger, type SdkLogger } from './core/scrubbed-logger.js';
import { SDK_VERSION } from './core/version.js';
import { HedgeBudget } from './request/hedge-budget.js';
import { RateGate } from './request/rate-gate.js';
import { RequestCore } from './request/request-core.js';
import { ResponseTimes } from './request/response-times.js';
import { realSleep } from './request/sleep.js';
import { Transport } from './request/transport.js';
import { Audiences } from './resources/audiences.js';
import { Calls } from './resources/calls.js';
import { Leads } from './resources/leads.js';
import { Recordings } from './resources/recordings.js';
import { Teams } from './resources/teams.js';
import { Users } from './resources/users.js';
import { connectionSettings, readApiRoot, readLogLevel } from './settings.js';

/** What a client shares with the clients derived from it. */
interface Shared {
  readonly transport: Transport;
  readonly gate: RateGateLike;
  /** The client's own gate, which `close()` ends; undefined when the gate was given (its owner closes it). */
  readonly ownGate: RateGate | undefined;
  /** Where the key came from, in words; derived clients keep the key, so they keep its source too. */
  readonly apiKeySource: string | undefined;
  /** Where the base URL came from, in words; derived clients keep the addresses, so they keep its source too. */
  readonly baseURLSource: string | undefined;
  /** Recent response times: derived clients call the same server, so they learn its pace together. */
  readonly responseTimes: ResponseTimes;
  readonly hedgeBudget: HedgeBudget;
}

// How withOptions() hands the parent's pool and gate to the new client, out of sight of the public options.
const SHARED = Symbol('shared with the parent client');
type InheritingOptions = ClientOptions & { [SHARED]?: Shared };

/**
 * The Company Data API client. One instance holds a keep-alive connection pool and one rate-limit gate
 * shared by all its calls (and by the clients derived from it with `withOptions()`); create it once and
 * reuse it.
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

  /** The options a derived client starts from: these, with the key and addresses as resolved. */
  readonly #options: ClientOptions;
  readonly #shared: Shared;

  /**
   * Creates a client. Nothing is sent until the first call; a missing API key or base URL is reported by
   * the first call that needs it.
   *
   * @param options - see {@link ClientOptions}; all optional.
   * @throws {@link ConfigurationError} with code `'invalid_option'` for an unknown option (naming the
   * closest known one), a value of the wrong type or out of range, a `baseURL` whose path does not end in
   * `/v1` (naming the corrected URL), an `apiKey` starting with `Bearer `, or a `COMPANY_DATA_LOG` that
   * names no log level.
   */
  constructor(options: ClientOptions = {}) {
    const inherited = (options as InheritingOptions | null)?.[SHARED];
    const of = inherited ? 'client.withOptions()' : 'new CompanyData()';
    checkOptions(OPTION_CHECKS.client, options, of, OPTION_HINTS.client);
    const { apiKey, apiKeySource, baseURL, baseURLSource } = connectionSettings(options);
    this.baseURL = baseURL;
    this.apiRoot = readApiRoot(options.apiRoot, this.baseURL);
    this.#options = { ...options, apiKey, baseURL: this.baseURL, apiRoot: this.apiRoot };
    if (options.gate !== undefined && options.quota !== undefined) {
      throw new ConfigurationError('invalid_option', QUOTA_WITH_GATE);
    }
    const sleep = options.sleep ?? realSleep;
    const now = options.now ?? Date.now;
    const logger = createLogger(options.logger ?? console, readLogLevel(options.logLevel), () =>
      apiKey ? [apiKey] : [],
    );
    this.#shared =
      inherited ?? this.#share(options, { sleep, now, apiKey, apiKeySource, baseURLSource, logger });
    const { transport, gate } = this.#shared;
    const core = new RequestCore({
      apiKey,
      apiKeySource: this.#shared.apiKeySource,
      baseURLSource: this.#shared.baseURLSource,
      baseURL: this.baseURL,
      apiRoot: this.apiRoot,
      timeout: options.timeout ?? CLIENT_DEFAULTS.timeout,
      maxRetries: options.maxRetries ?? CLIENT_DEFAULTS.maxRetries,
      maxRetryWait: options.maxRetryWait ?? CLIENT_DEFAULTS.maxRetryWait,
      defaultHeaders: options.defaultHeaders ?? {},
      userAgent: `company-data-sdk/${SDK_VERSION} ${runtimeName()}`,
      validate: options.validate ?? CLIENT_DEFAULTS.validate,
      onRateLimit: options.onRateLimit,
      onRetry: options.onRetry,
      sleep,
      now,
      random: options.random ?? Math.random,
      logger,
      transport,
      gate,
      hedge: options.hedge ?? CLIENT_DEFAULTS.hedge,
      responseTimes: this.#shared.responseTimes,
      hedgeBudget: this.#shared.hedgeBudget,
    });
    this.users = new Users(core);
    this.teams = new Teams(core);
    this.recordings = new Recordings(core);
    this.calls = new Calls(core);
    this.audiences = new Audiences(core);
    this.leads = new Leads(core);
  }

  /** The pool and gate of a new (not derived) client: its own gate, or the one given, adopted here. */
  #share(
    options: ClientOptions,
    context: {
      sleep: Sleep;
      now: () => number;
      apiKey: string | undefined;
      apiKeySource: string | undefined;
      baseURLSource: string | undefined;
      logger: SdkLogger;
    },
  ): Shared {
    const { apiKeySource, baseURLSource } = context;
    const transport = new Transport(options.dispatcher, options.fetch);
    const responseTimes = new ResponseTimes();
    const hedgeBudget = new HedgeBudget();
    const given = options.gate;
    if (given === undefined) {
      const own = new RateGate({ quota: options.quota, sleep: context.sleep, now: context.now });
      return { transport, gate: own, ownGate: own, apiKeySource, baseURLSource, responseTimes, hedgeBudget };
    }
    given.attach?.({ apiKey: context.apiKey, logger: context.logger });
    return {
      transport,
      gate: given,
      ownGate: undefined,
      apiKeySource,
      baseURLSource,
      responseTimes,
      hedgeBudget,
    };
  }

  /**
   * A client with some options changed that shares this one's connection pool and rate gate: a 429 on
   * either pauses both, and no sockets are added. For, say, interactive calls that should fail fast in an
   * application whose batch jobs retry patiently. `defaultHeaders` are merged with this client's; the key,
   * the addresses, the transport and the clock stay this client's. Closing either closes both.
   *
   * @param options - the options to change (see {@link DerivedClientOptions}).
   * @returns the derived client.
   * @throws {@link ConfigurationError} for an option that cannot change (it is shared with this client),
   * an unknown one, or an invalid value.
   * @example
   * ```ts
   * const interactive = client.withOptions({ timeout: 5_000, maxRetries: 0, defaultHeaders: { 'x-source': 'ui' } });
   * const user = await interactive.users.retrieve(id);
   * ```
   */
  withOptions(options: DerivedClientOptions = {}): CompanyData {
    // `null`, or any other value that is no set of options, is refused as the constructor refuses it.
    if (typeof options !== 'object' || options === null)
      checkOptions(OPTION_CHECKS.client, options, 'client.withOptions()');
    const changes = options;
    refuseUnknownKeys(changes, DERIVED_OPTIONS, {
      noun: 'option',
      of: 'client.withOptions()',
      elsewhere: OPTION_HINTS.withOptions,
    });
    const parent = this.#options;
    const derived: InheritingOptions = {
      ...parent,
      ...changes,
      defaultHeaders: { ...parent.defaultHeaders, ...changes.defaultHeaders },
      [SHARED]: this.#shared,
    };
    return new CompanyData(derived);
  }

  /**
   * Releases the connection pool (a `dispatcher` passed in options is left open) and ends any rate-limit
   * pause of the client's own gate (a `gate` passed in options is left to its owner), for this client and every client it shares them with (`withOptions()`). Later calls fail with a
   * {@link ClientClosedError} (code `client_closed`), never a {@link ConnectionError}. Idempotent.
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
    this.#shared.ownGate?.close();
    await this.#shared.transport.close();
  }
}
