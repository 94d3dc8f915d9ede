import {
  API_KEY_PREFIX,
  API_VERSION_PREFIX,
  apiRootOf,
  baseUrlNear,
  closestName,
  isLoopbackHost,
} from '@company-data/contract/runtime';
import { ENVIRONMENT_VARIABLES } from './core/environment.js';
import { ConfigurationError } from './core/errors.js';
import { LOG_LEVELS, type LogLevel } from './core/logger-interface.js';
import { environmentVariable } from './core/runtime-env.js';

/**
 * Where {@link readConnectionSettings} reads, and how its messages name the options.
 *
 * @example
 * ```ts
 * const source: SettingsSource = { env: { COMPANY_DATA_API_KEY: 'svc_live_x' }, names: { apiKey: '--api-key' } };
 * ```
 */
export interface SettingsSource {
  /** The environment variables. Default: the runtime's own (`process.env` on Node, `Deno.env`, ...). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * How messages name each option when it was given as one, e.g. `{ baseURL: '--base-url' }` in a
   * command-line tool. Default: the option's name. A value read from the environment is named by its variable.
   */
  readonly names?:
    | { readonly apiKey?: string | undefined; readonly baseURL?: string | undefined }
    | undefined;
}

/** One connection setting as read: what was found, where, and whether the SDK accepts it. */
export interface ConnectionSetting {
  /** What was found, trimmed, before any check; `undefined` when neither the option nor the variable is set. */
  readonly given: string | undefined;
  /** Where it was found: the option (as `names` calls it) or the environment variable; `undefined` when missing. */
  readonly from: string | undefined;
  /** The value the client uses (a base URL without trailing slashes); `undefined` when missing or refused. */
  readonly value: string | undefined;
  /** Why it was refused (code `'invalid_option'`, the message naming `from` and the fix), or `undefined`. */
  readonly error: ConfigurationError | undefined;
}

/** The API key and base URL as {@link readConnectionSettings} read them. */
export interface ConnectionSettings {
  /** The `apiKey` option, else `COMPANY_DATA_API_KEY`: refused when it starts with `Bearer `. */
  readonly apiKey: ConnectionSetting;
  /** The `baseURL` option, else `COMPANY_DATA_BASE_URL`: refused unless an http(s) URL whose path ends in `/v1`. */
  readonly baseURL: ConnectionSetting;
}

/**
 * Reads the API key and the base URL as `new CompanyData()` does (the option when given and not blank,
 * else the environment variable) and checks them by the client's rules, without making a client and
 * without throwing: each result says what was found, where, and why it was refused. For tools that take
 * the same settings (flags, a config file) and report problems in their own words before any request.
 *
 * @param options - `apiKey` and `baseURL`, as a client would be given them.
 * @param source - where the variables are read, and how messages name the options.
 * @returns each setting as read and checked. A missing one is not an error here: the client reports it
 * at the first call that needs it.
 * @example
 * ```ts
 * import { readConnectionSettings } from '@company-data/sdk';
 *
 * const { apiKey, baseURL } = readConnectionSettings({}, { names: { baseURL: '--base-url' } });
 * if (baseURL.given === undefined) console.error('Set COMPANY_DATA_BASE_URL or pass --base-url.');
 * else if (baseURL.error) console.error(baseURL.error.message);
 * if (apiKey.error) console.error(apiKey.error.message);
 * ```
 */
export function readConnectionSettings(
  options: { readonly apiKey?: string | undefined; readonly baseURL?: string | undefined } = {},
  source: SettingsSource = {},
): ConnectionSettings {
  const key = read(
    options.apiKey,
    source.names?.apiKey ?? 'apiKey',
    ENVIRONMENT_VARIABLES.apiKey,
    source.env,
  );
  const base = read(
    options.baseURL,
    source.names?.baseURL ?? 'baseURL',
    ENVIRONMENT_VARIABLES.baseURL,
    source.env,
  );
  return { apiKey: checked(key, checkApiKey), baseURL: checked(base, checkBaseURL) };
}

/**
 * The settings of `new CompanyData()`: the key and base URL read and checked, their refusals thrown.
 *
 * @throws ConfigurationError naming the option or variable and the fix.
 */
export function connectionSettings(options: { apiKey?: string | undefined; baseURL?: string | undefined }): {
  apiKey: string | undefined;
  apiKeySource: string | undefined;
  baseURL: string | undefined;
  baseURLSource: string | undefined;
} {
  const { apiKey, baseURL } = readConnectionSettings(options);
  if (apiKey.error) throw apiKey.error;
  if (baseURL.error) throw baseURL.error;
  return {
    apiKey: apiKey.value,
    apiKeySource: settingInWords(apiKey.from),
    baseURL: baseURL.value,
    baseURLSource: settingInWords(baseURL.from),
  };
}

/** Where a setting was read, in words for a message: `the COMPANY_DATA_API_KEY environment variable` or `the \`apiKey\` option`. */
function settingInWords(from: string | undefined): string | undefined {
  if (from === undefined) return undefined;
  const variables: readonly string[] = Object.values(ENVIRONMENT_VARIABLES);
  return variables.includes(from) ? `the ${from} environment variable` : `the \`${from}\` option`;
}

/** A setting as found: its value, and the option or environment variable it came from. */
interface Setting {
  readonly value: string;
  readonly name: string;
}

/** The option when given (and not blank), else the environment variable (when not blank). */
function read(
  option: string | undefined,
  optionName: string,
  variable: string,
  env?: Readonly<Record<string, string | undefined>>,
): Setting | undefined {
  const fromOption = option?.trim();
  if (fromOption) return { value: fromOption, name: optionName };
  const fromEnvironment = (env === undefined ? environmentVariable(variable) : env[variable])?.trim();
  return fromEnvironment ? { value: fromEnvironment, name: variable } : undefined;
}

function checked(setting: Setting | undefined, check: (setting: Setting) => string): ConnectionSetting {
  if (setting === undefined) return { given: undefined, from: undefined, value: undefined, error: undefined };
  const found = { given: setting.value, from: setting.name };
  try {
    return { ...found, value: check(setting), error: undefined };
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    return { ...found, value: undefined, error };
  }
}

/** @throws ConfigurationError when the key starts with `Bearer `: the SDK adds the scheme itself. */
function checkApiKey(key: Setting): string {
  if (/^bearer\s/i.test(key.value)) {
    throw new ConfigurationError(
      'invalid_option',
      `${key.name} starts with "Bearer ": give the key alone (it starts with ${API_KEY_PREFIX}); the SDK sends it as "Authorization: Bearer <key>" itself.`,
    );
  }
  return key.value;
}

/**
 * A base URL without trailing slashes.
 *
 * @throws ConfigurationError when it is not an http(s) URL whose path ends in `/v1` (the message gives the
 * corrected URL).
 */
function checkBaseURL(setting: Setting): string {
  const url = parseHttpURL(setting);
  const path = url.pathname.replace(/\/+$/, '');
  const extra = url.search !== '' || url.hash !== '';
  if (path.endsWith(API_VERSION_PREFIX) && !extra) return `${url.origin}${path}`;
  const rule = extra
    ? `whose path ends in ${API_VERSION_PREFIX}, without a query string or fragment`
    : `whose path ends in ${API_VERSION_PREFIX}`;
  throw new ConfigurationError(
    'invalid_option',
    `${setting.name} must be the API's base URL, ${rule} (got ${setting.value}): use ${baseUrlNear(url)}`,
  );
}

/**
 * Where the lead webhook lives: the `apiRoot` option (without trailing slashes), else the base URL without
 * its trailing `/v1`.
 *
 * @throws ConfigurationError when the option is not an http(s) URL.
 */
export function readApiRoot(option: string | undefined, baseURL: string | undefined): string | undefined {
  const value = option?.trim();
  if (!value) return baseURL === undefined ? undefined : apiRootOf(baseURL);
  parseHttpURL({ value, name: 'apiRoot' }, false);
  return value.replace(/\/+$/, '');
}

function parseHttpURL(setting: Setting, isBaseURL = true): URL {
  // `localhost:4010/v1` parses as a URL whose scheme is `localhost:`: look for `://` first.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(setting.value)) {
    const fixed = withScheme(setting.value, isBaseURL);
    throw new ConfigurationError(
      'invalid_option',
      `${setting.name} must start with https:// or http:// (got ${setting.value})${fixed === undefined ? '.' : `: use ${fixed}`}`,
    );
  }
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw new ConfigurationError('invalid_option', `${setting.name} is not a URL (got ${setting.value}).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(
      'invalid_option',
      `${setting.name} must start with https:// or http:// (got ${setting.value}).`,
    );
  }
  return url;
}

/** A scheme-less address with its likely scheme (http:// on loopback, where the mock listens), and `/v1` for a base URL. */
function withScheme(value: string, isBaseURL: boolean): string | undefined {
  try {
    const url = new URL(`https://${value}`);
    if (isLoopbackHost(url.hostname)) url.protocol = 'http:';
    return isBaseURL ? baseUrlNear(url) : `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

/**
 * The log level: the `logLevel` option, else `COMPANY_DATA_LOG` (any letter case), else `'warn'`.
 *
 * @throws ConfigurationError when `COMPANY_DATA_LOG` names no level (the message names the closest).
 */
export function readLogLevel(option: LogLevel | undefined): LogLevel {
  if (option !== undefined) return option;
  const variable = read(undefined, 'logLevel', ENVIRONMENT_VARIABLES.logLevel);
  if (variable === undefined) return 'warn';
  const level = LOG_LEVELS.find((known) => known === variable.value.toLowerCase());
  if (level !== undefined) return level;
  const closest = closestName(variable.value, LOG_LEVELS);
  throw new ConfigurationError(
    'invalid_option',
    `${variable.name} is "${variable.value}"${closest === undefined ? '' : ` (did you mean \`${closest}\`?)`}: expected one of ${LOG_LEVELS.join(', ')}.`,
  );
}
