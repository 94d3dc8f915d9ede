import type { MockClock } from '../../data/clock.js';
import type { MockStore } from '../../data/store/mock-store.js';

/** What resolvers are given: the store and the clock, plus the limits they report. */
export interface ResolveContext {
  readonly store: MockStore;
  readonly clock: MockClock;
  /** Body size limit (for the 413 text). */
  readonly maxBodyBytes: number;
  /** Consumes one injected lead-processing failure; true when one was armed. */
  takeLeadFailure(): boolean;
}
