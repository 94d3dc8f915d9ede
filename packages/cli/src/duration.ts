/** Milliseconds in each unit a duration may use. */
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** How a duration is written, for messages. */
export const DURATION_FORMAT = 'a whole number and a unit: ms, s, m, h or d (e.g. 90s, 24h)';

/**
 * Reads a duration as people write it on a command line: `500ms`, `90s`, `15m`, `24h`, `7d`.
 *
 * @param text - the duration.
 * @returns milliseconds, or undefined when the text is not a duration.
 * @example
 * ```ts
 * parseDuration('24h'); // 86_400_000
 * parseDuration('1.5h'); // undefined: whole numbers only
 * ```
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return Number.isSafeInteger(value) ? value : undefined;
}
