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

const SEVERITY: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };
/** What stands in a log line or message for a secret. */
export const REDACTED = '[redacted]';

/** The SDK's own view of a logger: the user's, filtered and scrubbed, and whether it writes debug lines. */
export interface SdkLogger extends Logger {
  /** Whether debug lines are written: the per-request lines are not even built otherwise. */
  readonly debugEnabled: boolean;
}

/**
 * Wraps the user's logger: drops lines below `level` and scrubs every secret from messages and fields,
 * as a second line of defence (the SDK never passes the key to the logger in the first place).
 */
export function createLogger(target: Logger, level: LogLevel, secrets: () => readonly string[]): SdkLogger {
  const write =
    (method: keyof Logger) =>
    (message: string, ...fields: unknown[]): void => {
      if (SEVERITY[method] < SEVERITY[level]) return;
      const hidden = secrets().filter((secret) => secret.length > 0);
      target[method](scrub(message, hidden) as string, ...fields.map((field) => scrub(field, hidden)));
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    debugEnabled: SEVERITY[level] <= SEVERITY.debug,
  };
}

function scrub(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') {
    return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), value);
  }
  if (depth > 4 || typeof value !== 'object' || value === null || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, scrub(item, secrets, depth + 1)]),
  );
}
