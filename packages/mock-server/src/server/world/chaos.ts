import { FaultQueue, type FaultRates, FaultRateTable, type FaultSpec } from '../../serve/engine/faults.js';
import { type LatencyProfile, LatencyTable } from '../../serve/engine/latency.js';

/**
 * The trouble a world makes on purpose: the faults armed for the next requests, the latency profile and the
 * fault rates in force (each a stream drawn from the world's seed), and the lead-processing failures still to
 * happen. The engine reads them on every request; saving a state reads them, restoring one writes them.
 */
export class Chaos {
  /** The faults armed for the next matching requests. */
  readonly faults = new FaultQueue();
  /** The latency profile in force, if any (replaced when set, so the engine reads it per request). */
  latency: LatencyTable | undefined;
  /** The fault rates in force, if any. */
  faultRates: FaultRateTable | undefined;
  /** Injected lead failures still to happen. */
  leadFailures = 0;
  /** The seed of the world's data now (a reseed changes it): what the streams start from. */
  readonly #seed: () => number;

  /** @param seed - the world's seed, read each time a stream starts. */
  constructor(seed: () => number) {
    this.#seed = seed;
  }

  /**
   * Back to the options' latency profile and fault rates, their streams started again, with no armed fault
   * and no lead failure to come.
   *
   * @param latency - the options' latency profile, or false for none.
   * @param faultRate - the options' fault rates, or false for none.
   */
  reset(latency: LatencyProfile | false, faultRate: FaultRates | false): void {
    this.faults.clear();
    this.leadFailures = 0;
    this.setLatency(latency);
    this.setFaultRate(faultRate);
  }

  /** @throws RangeError for an invalid profile (see `MockServer.setLatency`). */
  setLatency(latency: LatencyProfile | false): void {
    this.latency = latency === false ? undefined : new LatencyTable(latency, this.#seed());
  }

  /** @throws RangeError for invalid rates (see `MockServer.setFaultRate`). */
  setFaultRate(rates: FaultRates | false): void {
    this.faultRates = rates === false ? undefined : new FaultRateTable(rates, this.#seed());
  }

  /** @throws RangeError for an invalid fault (see `MockServer.injectFault`). */
  injectFault(fault: FaultSpec): void {
    this.faults.add(fault);
  }

  /** @throws RangeError unless `times` is an integer ≥ 1. */
  injectLeadFailure(times = 1): void {
    if (!Number.isInteger(times) || times < 1) throw new RangeError('times must be an integer ≥ 1');
    this.leadFailures += times;
  }

  /** Consumes one injected lead-processing failure; true when one was armed. */
  takeLeadFailure(): boolean {
    if (this.leadFailures === 0) return false;
    this.leadFailures--;
    return true;
  }
}
