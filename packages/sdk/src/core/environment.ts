/**
 * The environment variables the SDK reads when an option is left out: the one home of their names.
 *
 * @example
 * ```ts
 * import { ENVIRONMENT_VARIABLES } from '@company-data/sdk';
 *
 * console.error(`Set ${ENVIRONMENT_VARIABLES.apiKey} to your API key.`); // COMPANY_DATA_API_KEY
 * ```
 */
export const ENVIRONMENT_VARIABLES = {
  /** The API key, when `apiKey` is left out. */
  apiKey: 'COMPANY_DATA_API_KEY',
  /** The base URL, when `baseURL` is left out. */
  baseURL: 'COMPANY_DATA_BASE_URL',
  /** The log level, when `logLevel` is left out. */
  logLevel: 'COMPANY_DATA_LOG',
} as const;
