/** Formats epoch milliseconds as ISO 8601 UTC with whole seconds, e.g. `2026-01-31T09:30:00Z`. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
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
