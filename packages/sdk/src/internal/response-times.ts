/** Response times kept per operation: the adaptive hedge threshold looks at this many recent ones. */
export const HEDGE_SAMPLES_KEPT = 100;
/**
 * Responses of an operation needed before the adaptive threshold hedges it: fewer say too little. Until
 * twenty are known, the 95th percentile is the slowest of them (a cautious threshold), so a cold client
 * starts hedging early: an export's first pages are where a hang costs most, nothing being buffered yet.
 */
export const HEDGE_MIN_SAMPLES = 5;
/** The share of recent responses that came sooner than the adaptive threshold. */
export const HEDGE_PERCENTILE = 0.95;
/** The adaptive threshold is never shorter than this, in ms: below it a second copy rarely pays. */
export const HEDGE_MIN_AFTER_MS = 100;

/** The recent response times of one operation: a ring of the newest {@link HEDGE_SAMPLES_KEPT}. */
class Samples {
  readonly ms = new Float64Array(HEDGE_SAMPLES_KEPT);
  count = 0;
  next = 0;
  /** The percentile as last computed, until the next sample. */
  cached: number | undefined;
}

/**
 * How long recent successful responses of each operation took, through one client and the clients derived
 * from it: what "far longer than its peers" means for a hedged read. Operations are kept apart, since a
 * page of a list and a retrieve by id take different times.
 */
export class ResponseTimes {
  readonly #byOperation = new Map<string, Samples>();

  /**
   * Records one response time.
   *
   * @param operation - the operation id, e.g. `listCalls`.
   * @param ms - from the request going out to its whole body in.
   */
  record(operation: string, ms: number): void {
    let samples = this.#byOperation.get(operation);
    if (samples === undefined) {
      samples = new Samples();
      this.#byOperation.set(operation, samples);
    }
    samples.ms[samples.next] = ms;
    samples.next = (samples.next + 1) % HEDGE_SAMPLES_KEPT;
    samples.count = Math.min(samples.count + 1, HEDGE_SAMPLES_KEPT);
    samples.cached = undefined;
  }

  /**
   * The adaptive hedge threshold of an operation: the {@link HEDGE_PERCENTILE} of its recent times, at
   * least {@link HEDGE_MIN_AFTER_MS}.
   *
   * @param operation - the operation id.
   * @returns ms, or `undefined` while fewer than {@link HEDGE_MIN_SAMPLES} responses are known.
   */
  hedgeAfterMs(operation: string): number | undefined {
    const samples = this.#byOperation.get(operation);
    if (samples === undefined || samples.count < HEDGE_MIN_SAMPLES) return undefined;
    if (samples.cached === undefined) {
      const sorted = samples.ms.slice(0, samples.count).sort();
      const at = Math.min(samples.count - 1, Math.ceil(HEDGE_PERCENTILE * samples.count) - 1);
      samples.cached = Math.max(HEDGE_MIN_AFTER_MS, Math.round(sorted[at] as number));
    }
    return samples.cached;
  }
}
