import type { MockStore } from '../data/store/mock-store.js';

/**
 * How many records one company holds now, per resource, and how many of its calls and recordings the
 * activity brought (they are counted among the others too).
 *
 * @example
 * ```ts
 * const [primary]: readonly RecordCounts[] = server.recordCounts();
 * console.log(`${primary?.calls} calls, ${primary?.arrived} of them brought by the activity`);
 * ```
 */
export interface RecordCounts {
  /** Company id. */
  readonly companyId: string;
  /** Company name. */
  readonly companyName: string;
  readonly users: number;
  readonly teams: number;
  readonly recordings: number;
  readonly calls: number;
  /** Calls and recordings the activity brought that are still there. */
  readonly arrived: number;
}

/**
 * The records of every company of a store, the primary one first.
 *
 * @param store - the store.
 */
export function countRecords(store: MockStore): RecordCounts[] {
  return store.companies.map((company) => ({
    companyId: company.id,
    companyName: company.name,
    users: company.users.size,
    teams: company.teams.size,
    recordings: company.recordings.size,
    calls: company.calls.size,
    arrived: company.calls.arrived + company.recordings.arrived,
  }));
}
