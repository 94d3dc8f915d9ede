const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * Formats epoch milliseconds as ISO 8601 UTC with whole seconds, e.g. `2026-01-31T09:30:00Z`.
 * Hand-rolled (civil-from-days) because record derivation calls it on the hot path of large tables,
 * where `Date#toISOString` plus a replace showed up as the top cost.
 */
export function isoSeconds(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  const rest = seconds - days * 86_400;
  // Howard Hinnant's days-to-civil algorithm, valid for the proleptic Gregorian calendar.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  const hh = Math.floor(rest / 3600);
  const mm = Math.floor((rest % 3600) / 60);
  const ss = rest % 60;
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}Z`;
}

const DAY_MS = 86_400_000;

/**
 * Spreads `count` creation times evenly over a period ending at `endMs`, strictly increasing and
 * whole seconds apart, with some jitter. Position 0 is the oldest.
 */
export class Timeline {
  readonly #start: number;
  readonly #step: number;

  /**
   * @param count - number of records.
   * @param days - nominal length of the period; stretched when the records would be too dense.
   * @param endMs - end of the period.
   */
  constructor(count: number, days: number, endMs: number) {
    const span = Math.max(days * DAY_MS, count * 4000);
    this.#step = span / Math.max(1, count);
    this.#start = endMs - span;
  }

  /** The creation time at `position`, with `jitter` in [0, 1). */
  at(position: number, jitter: number): number {
    // Jitter stays under half a step and steps are ≥ 4 s, so whole seconds never collide.
    return Math.floor((this.#start + (position + jitter * 0.5) * this.#step) / 1000) * 1000;
  }
}
