import type { Logger, LogLevel } from './logger-interface.js';

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
