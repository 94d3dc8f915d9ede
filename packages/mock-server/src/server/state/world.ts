import type { ActivityRunner } from '../../data/activity/runner.js';
import type { MockClock } from '../../data/clock.js';
import type { CompanySizes } from '../../data/fake/generate-company.js';
import type { SeededStore } from '../../data/fake/seeded-store.js';
import type { ParsedFixture } from '../../data/fixture/schema.js';
import type { Throttle } from '../../data/store/quota.js';
import type { FaultRateTable } from '../../serve/engine/faults.js';
import type { LatencyTable } from '../../serve/engine/latency.js';
import type { MockServerOptions } from '../options.js';

/**
 * One world of a mock, as saving and restoring its state sees it: the parts a server (or a session) is
 * made of. Saving reads them; restoring writes them into a world just made from the state's options.
 */
export interface World {
  /** Where the data comes from: the seed, the sizes and the fixture in force. */
  readonly source: {
    readonly seed: number;
    readonly sizes: CompanySizes;
    readonly fixture?: ParsedFixture | undefined;
  };
  /** The options the world was made from (what `reset()` returns to). */
  readonly options: MockServerOptions;
  readonly clock: MockClock;
  /** The store with its well-known keys and tokens. */
  readonly seeded: SeededStore;
  readonly throttle: Throttle;
  readonly activity: ActivityRunner;
  /** The trouble it makes on purpose: restoring a state replaces each part. */
  readonly chaos: WorldChaos;
}

/** The parts of a world's chaos a state holds. */
export interface WorldChaos {
  /** The latency profile in force, if any. */
  latency: LatencyTable | undefined;
  /** The fault rates in force, if any. */
  faultRates: FaultRateTable | undefined;
  /** Injected lead failures still to happen. */
  leadFailures: number;
}
