/**
 * Where the SDK writes its log lines. `console` fits; so do pino, winston and most other loggers.
 * Every call gets a message and, usually, one object of structured fields. The API key and webhook
 * tokens never appear in either.
 *
 * @example
 * ```ts
 * const client = new CompanyData({ logger: pino(), logLevel: 'debug' });
 * ```
 */
export interface Logger {
  /** Every request and response: method, URL, status and duration. */
  debug(message: string, ...fields: unknown[]): void;
  /** Retries. */
  info(message: string, ...fields: unknown[]): void;
  /** Rate-limit pauses, a list whose `count` changed mid-iteration. */
  warn(message: string, ...fields: unknown[]): void;
  /** Reserved for failures the caller cannot otherwise see. */
  error(message: string, ...fields: unknown[]): void;
}

/** The least severe level written; `'off'` writes nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** The log levels, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'off'] as const satisfies readonly LogLevel[];
