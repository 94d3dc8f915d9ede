/** Response times kept per operation: the adaptive hedge threshold looks at this many recent ones. */
export const HEDGE_SAMPLES_KEPT = 100;
/** Responses of an operation needed before their percentile is the threshold: fewer say too little. */
export const HEDGE_MIN_SAMPLES = 20;
/**
 * Until {@link HEDGE_MIN_SAMPLES} responses are known, the threshold is this many times the slowest of
 * them: cautious, yet a cold client hedges from its second call on, and an export's first pages are where
 * a hang costs most (nothing is buffered yet to yield meanwhile).
 */
export const HEDGE_EARLY_FACTOR = 2;
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
   * The adaptive hedge threshold of an operation: the {@link HEDGE_PERCENTILE} of its recent times (until
   * {@link HEDGE_MIN_SAMPLES} are known, {@link HEDGE_EARLY_FACTOR} times the slowest), at least
   * {@link HEDGE_MIN_AFTER_MS}.
   *
   * @param operation - the operation id.
   * @returns ms, or `undefined` while no response of it is known.
   */
  hedgeAfterMs(operation: string): number | undefined {
    const samples = this.#byOperation.get(operation);
    if (samples === undefined) return undefined;
    if (samples.cached === undefined) {
      const sorted = samples.ms.slice(0, samples.count).sort();
      const ms =
        samples.count < HEDGE_MIN_SAMPLES
          ? HEDGE_EARLY_FACTOR * (sorted[samples.count - 1] as number)
          : (sorted[Math.ceil(HEDGE_PERCENTILE * samples.count) - 1] as number);
      samples.cached = Math.max(HEDGE_MIN_AFTER_MS, Math.round(ms));
    }
    return samples.cached;
  }
}
