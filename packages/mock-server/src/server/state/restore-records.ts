import { DATA_RESOURCES, type DataResource } from '@company-data/contract';
import { type Arriving, arrivedRecords } from '../../data/record-controls/arrived.js';
import { checkRecord } from '../../data/record-controls/fields.js';
import { type AnyRecord, type Companion, type Recipe, recipeMaker } from '../../data/record-controls/make.js';
import type { CompanyRecords } from '../../data/store/company-records.js';
import { idKey } from '../../data/store/id-key.js';
import type { LiveTable } from '../../data/store/live-table.js';
import type { MockStore } from '../../data/store/mock-store.js';
import { atPath } from './error.js';
import type { MockState } from './schema.js';

type CompanyState = MockState['companies'][number];
type TableState = NonNullable<CompanyState['users']>;
type ArrivedState = NonNullable<TableState['arrived']>[number];
type Table = LiveTable<AnyRecord, Companion>;

/**
 * The arrivals of a saved schedule: the schedule in force when it is that one, else one made again from
 * the seed.
 */
export type ArrivingOf = (schedule: ArrivedState['schedule'], kind: 'call' | 'recording') => Arriving;

/**
 * Puts the saved record changes back on top of the base data of a store just made from the state's options.
 * Straight into the tables, never through the record controls: nothing is journaled or drawn.
 *
 * @param store - the store.
 * @param companies - the state's `companies`.
 * @param arrivingOf - where the arrivals of each saved schedule are generated from.
 * @throws MockStateError naming the company, table and record that does not fit.
 */
export function restoreCompanies(
  store: MockStore,
  companies: readonly CompanyState[],
  arrivingOf: ArrivingOf,
): void {
  companies.forEach((state, index) => {
    const at = `companies[${index}]`;
    const company: CompanyRecords = atPath(`${at}.id`, () => store.companyById(state.id));
    for (const resource of DATA_RESOURCES) {
      const table = state[resource];
      if (table !== undefined)
        restoreTable(company[resource] as Table, resource, table, `${at}.${resource}`, arrivingOf);
    }
  });
}

function restoreTable(
  table: Table,
  resource: DataResource,
  state: TableState,
  at: string,
  arrivingOf: ArrivingOf,
): void {
  const base = (id: string) => {
    const record = table.base.find(idKey(id));
    if (record === undefined) throw new Error(`the data the options make has no record with id "${id}"`);
    return record;
  };
  for (const [id, fields] of Object.entries(state.changed ?? {}))
    atPath(`${at}.changed.${id}`, () => {
      const record = { ...base(id), ...fields } as AnyRecord;
      checkRecord(resource, record);
      table.update(record);
    });
  state.deleted?.forEach((id, index) => {
    atPath(`${at}.deleted[${index}]`, () => {
      base(id);
      table.remove(idKey(id));
    });
  });
  state.created?.forEach((created, index) => {
    atPath(`${at}.created[${index}]`, () => {
      const recipe: Recipe = {
        resource,
        seed: created.seed,
        atMs: created.atMs,
        given: created.given,
        domain: created.domain,
      };
      const { user } = created;
      const maker = recipeMaker(
        recipe,
        user === undefined
          ? undefined
          : { ref: { id: user.id, full_name: user.full_name }, drawn: user.drawn },
      );
      const record = maker.record();
      checkRecord(resource, record);
      table.insert(record, maker);
      if (created.fields !== undefined) {
        const changed = { ...record, ...created.fields } as AnyRecord;
        checkRecord(resource, changed);
        table.update(changed);
      }
    });
  });
  state.arrived?.forEach((group, index) => {
    atPath(`${at}.arrived[${index}]`, () => {
      if (resource !== 'calls' && resource !== 'recordings') throw new Error(`no ${resource} arrive`);
      restoreArrived(table, resource, group, arrivingOf, `${at}.arrived[${index}]`);
    });
  });
}

/** Adds a group's arrivals again, each with its scheduled change or the fields a control changed. */
function restoreArrived(
  table: Table,
  resource: 'calls' | 'recordings',
  group: ArrivedState,
  arrivingOf: ArrivingOf,
  at: string,
): void {
  const source = arrivedRecords(
    arrivingOf(group.schedule, resource === 'calls' ? 'call' : 'recording'),
    resource,
  );
  const details = group.users.map((user) => source.detailOf({ id: user.id, full_name: user.full_name }));
  const excused = new Set(group.excused);
  let n = 0;
  let atMs = 0;
  group.n.forEach((step, index) => {
    n += step;
    atMs += group.atMs[index] as number;
    atPath(`${at}.n[${index}]`, () => {
      const detail = details[group.user[index] as number];
      if (detail === undefined) throw new Error(`user[${index}] is no place in users`);
      const record = source.record(n, atMs, detail, false);
      table.arrive(source, n, atMs, detail, record);
      const fields = group.fields?.[index];
      if (fields !== undefined) {
        const changed = { ...record, ...fields } as AnyRecord;
        checkRecord(resource, changed);
        table.update(changed);
      } else if (excused.has(index)) table.update(source.record(n, atMs, detail, true));
    });
  });
}
