/** Hedges a client may send before it has earned any: an export's first pages are where a hang costs most. */
export const HEDGE_BURST = 10;
/** A hedge earned per read that could be hedged: in the long run, at most one second copy per ten reads. */
export const HEDGE_SHARE = 0.1;

/**
 * How many second copies a client (and the clients derived from it) may still send. Each hedgeable read
 * earns {@link HEDGE_SHARE} of one, up to {@link HEDGE_BURST}; each hedge spends one. So hedging costs at
 * most `HEDGE_BURST + HEDGE_SHARE × reads` extra requests, whatever the threshold: a fixed `afterMs` below
 * a server's usual pace, or a server slow across the board, cannot double the load on it.
 */
export class HedgeBudget {
  #tokens = HEDGE_BURST;

  /** A read that could be hedged went out: it earns a share of a hedge. */
  earn(): void {
    this.#tokens = Math.min(HEDGE_BURST, this.#tokens + HEDGE_SHARE);
  }

  /**
   * Takes one hedge from the budget.
   *
   * @returns whether a hedge was left to send.
   */
  spend(): boolean {
    // A small epsilon: ten shares of 0.1 add up to slightly less than 1 in floating point.
    if (this.#tokens < 1 - 1e-9) return false;
    this.#tokens -= 1;
    return true;
  }
}
