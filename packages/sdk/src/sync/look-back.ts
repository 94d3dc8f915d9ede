import { fingerprintEntries, fingerprintEntry, type SyncWindow } from './checkpoint.js';
import { fingerprint } from './record-fingerprint.js';

/**
 * The look-back of one sync run (see `scan.ts`): compares each record of the window with the
 * fingerprint the last run kept for it, takes out of the old window every fingerprint it meets again (those
 * left at the end were removed), and keeps the fingerprints of the new window, also as JSON entries as
 * they come (a checkpoint per batch then costs no more than its page).
 */
export class LookBack {
  /** The window, in ms; 0 for none (then nothing is fingerprinted). */
  readonly ms: number;
  /** The last run's window: what is left of it. */
  readonly #old: SyncWindow | null;
  /** From when the old window holds a fingerprint of every record (epoch ms); +∞ without one. */
  readonly #from: number;
  /** The new window's fingerprints: record id → fingerprint. */
  readonly fingerprints: Record<string, string>;
  #entries: string;

  /**
   * @param ms - the window, in ms.
   * @param old - the last run's window, as the checkpoint holds it (fingerprints are taken out of it).
   * @param fingerprints - the new window's fingerprints so far (a resumed run's).
   */
  constructor(ms: number, old: SyncWindow | null, fingerprints: Record<string, string> = {}) {
    this.ms = ms;
    this.#old = old;
    this.#from = old !== null && ms > 0 ? Date.parse(old.from) : Number.POSITIVE_INFINITY;
    this.fingerprints = fingerprints;
    this.#entries = fingerprintEntries(fingerprints);
  }

  /** The new window's fingerprints as the inside of a JSON object (see `encodeCheckpoint`). */
  get entries(): string {
    return this.#entries;
  }

  /**
   * Reads a record the scan passed: keeps its fingerprint when it is in the new window, and says whether a
   * record delivered before changed (`changed`) or entered the list unseen (`created`).
   *
   * @param item - the record.
   * @param id - its id.
   * @param time - its `created_at`, epoch ms.
   * @param topAt - the scan's top, epoch ms: the new window reaches `ms` below it.
   * @param known - whether an earlier run delivered it (it is at or below the checkpoint).
   * @returns the change to report, if any.
   */
  see(
    item: unknown,
    id: string,
    time: number,
    topAt: number,
    known: boolean,
  ): 'changed' | 'created' | undefined {
    if (this.ms === 0) return undefined;
    const hash = fingerprint(item);
    if (time >= topAt - this.ms) {
      this.fingerprints[id] = hash;
      this.#entries += `${this.#entries === '' ? '' : ','}${fingerprintEntry(id, hash)}`;
    }
    if (!known) return undefined;
    const before = this.#old?.fingerprints[id];
    if (before !== undefined) {
      delete this.#old?.fingerprints[id];
      return before === hash ? undefined : 'changed';
    }
    // In the window, yet not there last time: it entered the list unseen.
    return time >= this.#from ? 'created' : undefined;
  }

  /**
   * The ids of the old window not met again, once the scan read all of it: they left the list.
   *
   * @param bound - the scan read every record from this instant on (epoch ms; −∞ for the whole list).
   * @returns the ids; none when the scan read less than the old window (a shorter look-back than last time).
   */
  unseen(bound: number): string[] {
    const old = this.#old;
    if (this.ms === 0 || old === null || Date.parse(old.from) < bound) return [];
    return Object.keys(old.fingerprints);
  }

  /**
   * Takes a removal out of the old window, as it is reported (a run stopped among them resumes with the rest).
   *
   * @param id - the record's id.
   */
  forget(id: string): void {
    delete this.#old?.fingerprints[id];
  }

  /**
   * The window of the next run.
   *
   * @param topAt - the newest record of the list as this run read it (epoch ms), or the mark's when it read none.
   * @returns the window, or `null` without look-back or without any record.
   */
  next(topAt: number): SyncWindow | null {
    if (this.ms === 0 || !Number.isFinite(topAt)) return null;
    return { from: new Date(topAt - this.ms).toISOString(), fingerprints: this.fingerprints };
  }
}
