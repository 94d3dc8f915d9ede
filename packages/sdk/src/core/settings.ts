import {
  API_VERSION_PREFIX,
  apiRootOf,
  baseUrlNear,
  closestName,
  isLoopbackHost,
} from '@company-data/contract/runtime';
import { environmentVariable } from '../internal/runtime-env.js';
import { ConfigurationError } from './errors.js';
import { LOG_LEVELS, type LogLevel } from './logger.js';

/** A setting as the client read it: its value, and the option or environment variable it came from. */
interface Setting {
  readonly value: string;
  readonly name: string;
}

/** The option when given (and not blank), else the environment variable (when not blank). */
function read(option: string | undefined, optionName: string, variable: string): Setting | undefined {
  const fromOption = option?.trim();
  if (fromOption) return { value: fromOption, name: optionName };
  const fromEnvironment = environmentVariable(variable)?.trim();
  return fromEnvironment ? { value: fromEnvironment, name: variable } : undefined;
}

/**
 * The API key: the `apiKey` option, else `COMPANY_DATA_API_KEY`; `undefined` when neither is set (the
 * first call that needs a key reports it).
 *
 * @throws ConfigurationError when the key starts with `Bearer `: the SDK adds the scheme itself.
 */
export function readApiKey(option: string | undefined): string | undefined {
  const key = read(option, 'apiKey', 'COMPANY_DATA_API_KEY');
  if (key !== undefined && /^bearer\s/i.test(key.value)) {
    throw new ConfigurationError(
      'invalid_option',
      `${key.name} starts with "Bearer ": give the key alone (it starts with svc_live_); the SDK sends it as "Authorization: Bearer <key>" itself.`,
    );
  }
  return key?.value;
}

/**
 * The base URL: the `baseURL` option, else `COMPANY_DATA_BASE_URL`, without trailing slashes;
 * `undefined` when neither is set (the first call that needs one reports it).
 *
 * @throws ConfigurationError when it is not an http(s) URL whose path ends in `/v1` (the message gives the
 * corrected URL).
 */
export function readBaseURL(option: string | undefined): string | undefined {
  const setting = read(option, 'baseURL', 'COMPANY_DATA_BASE_URL');
  if (setting === undefined) return undefined;
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
  const variable = read(undefined, 'logLevel', 'COMPANY_DATA_LOG');
  if (variable === undefined) return 'warn';
  const level = LOG_LEVELS.find((known) => known === variable.value.toLowerCase());
  if (level !== undefined) return level;
  const closest = closestName(variable.value, LOG_LEVELS);
  throw new ConfigurationError(
    'invalid_option',
    `COMPANY_DATA_LOG is "${variable.value}"${closest === undefined ? '' : ` (did you mean \`${closest}\`?)`}: expected one of ${LOG_LEVELS.join(', ')}.`,
  );
}
