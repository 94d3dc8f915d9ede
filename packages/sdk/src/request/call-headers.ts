import { ENVIRONMENT_VARIABLES } from '../core/environment.js';
import { ConfigurationError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { CallRequest } from './call-request.js';

/** What a call's headers are made of: the client's key, its default headers and its User-Agent. */
export interface HeaderConfig {
  readonly apiKey: string | undefined;
  /** Where the key came from, in words (`the COMPANY_DATA_API_KEY environment variable`), for a 401's hint. */
  readonly apiKeySource: string | undefined;
  readonly defaultHeaders: Record<string, string>;
  readonly userAgent: string;
}

/**
 * The headers of a client's calls: `accept`, the User-Agent, the key as a Bearer token, the client's
 * default headers and a call's own. Most calls send the client's headers unchanged: those are built once
 * and shared (the transport never changes them).
 */
export class CallHeaders {
  readonly #config: HeaderConfig;
  #keyed: Record<string, string> | undefined;

  /** @param config - the client's key, default headers and User-Agent. */
  constructor(config: HeaderConfig) {
    this.#config = config;
  }

  /**
   * The headers a call sends.
   *
   * @throws ConfigurationError when the operation needs a key and the client has none.
   */
  of(call: CallRequest, options: RequestOptions): Readonly<Record<string, string>> {
    const plain = call.body === undefined && options.headers === undefined;
    if (!plain || call.endpoint.auth !== 'apiKey') return this.#build(call, options);
    this.#keyed ??= this.#build(call, options);
    return this.#keyed;
  }

  /** Where the key a request sent came from, in words: the client's setting, or a header the caller set. */
  keySource(headers: Readonly<Record<string, string>>): string | undefined {
    const sent = headers.authorization;
    if (sent === undefined) return undefined;
    return sent === `Bearer ${this.#config.apiKey}`
      ? this.#config.apiKeySource
      : 'the `authorization` header you set';
  }

  #build(call: CallRequest, options: RequestOptions): Record<string, string> {
    const config = this.#config;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': config.userAgent };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.endpoint.auth === 'apiKey') {
      if (!config.apiKey) {
        throw new ConfigurationError(
          'missing_api_key',
          `No API key: pass \`apiKey\` to new CompanyData() or set the ${ENVIRONMENT_VARIABLES.apiKey} environment variable.`,
        );
      }
      headers.authorization = `Bearer ${config.apiKey}`;
    }
    return { ...headers, ...lowerCaseKeys(config.defaultHeaders), ...lowerCaseKeys(options.headers) };
  }
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) result[name.toLowerCase()] = value;
  return result;
}
