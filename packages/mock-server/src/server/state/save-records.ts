import { DATA_RESOURCES } from '@company-data/contract';
import type { ScheduledArrivals } from '../../data/activity/schedule.js';
import { ArrivedRecords } from '../../data/record-controls/arrived.js';
import type { AnyRecord, Companion, RecipeMaker } from '../../data/record-controls/make.js';
import type { ArrivalEntry, ArrivalSource } from '../../data/store/arrivals.js';
import type { LiveTable, RecordMaker, TableOverlay } from '../../data/store/live-table.js';
import type { MockStore } from '../../data/store/mock-store.js';
import type { MockState } from './schema.js';

type CompanyState = MockState['companies'][number];
type TableState = NonNullable<CompanyState['users']>;
type CreatedState = NonNullable<TableState['created']>[number];
type ArrivedState = NonNullable<TableState['arrived']>[number];
type Entry = ArrivalEntry<AnyRecord, Companion>;

/**
 * The record changes of every company on top of its base data: only the companies and tables that changed.
 *
 * @param store - the store.
 */
export function saveCompanies(store: MockStore): CompanyState[] {
  const companies: CompanyState[] = [];
  for (const company of store.companies) {
    const tables: Partial<Record<(typeof DATA_RESOURCES)[number], TableState>> = {};
    for (const resource of DATA_RESOURCES) {
      const table = company[resource] as LiveTable<AnyRecord, Companion>;
      if (!table.changed) continue;
      const saved = saveTable(table.overlay());
      if (saved !== undefined) tables[resource] = saved;
    }
    if (Object.keys(tables).length > 0) companies.push({ id: company.id, ...tables });
  }
  return companies;
}

function saveTable(overlay: TableOverlay<AnyRecord, Companion>): TableState | undefined {
  const state: TableState = {};
  if (overlay.changed.length > 0)
    state.changed = Object.fromEntries(overlay.changed.map(({ id, fields }) => [id, { ...fields }]));
  if (overlay.deleted.length > 0) state.deleted = [...overlay.deleted];
  if (overlay.created.length > 0)
    state.created = overlay.created.map(({ maker, fields }) => created(maker, fields));
  if (overlay.arrived.length > 0) state.arrived = arrived(overlay.arrived);
  return Object.keys(state).length === 0 ? undefined : state;
}

/** A created record as its recipe, the user it picked and its fields changed since. */
function created(
  maker: RecordMaker<AnyRecord, Companion>,
  fields: Readonly<Record<string, unknown>> | undefined,
): CreatedState {
  if (!('recipe' in maker))
    throw new Error('A created record has no recipe: it was not made by the record controls');
  const { recipe, picked } = maker as RecipeMaker;
  return {
    seed: recipe.seed,
    atMs: recipe.atMs,
    given: { ...recipe.given },
    domain: recipe.domain,
    ...(picked === undefined
      ? {}
      : { user: { id: picked.ref.id, full_name: picked.ref.full_name, drawn: picked.drawn } }),
    ...(fields === undefined ? {} : { fields: { ...fields } }),
  };
}

/** A group of arrivals being written: the columns, and what the next difference is taken from. */
interface Group {
  readonly state: ArrivedState & { users: ArrivedState['users'] };
  readonly source: ArrivedRecords;
  /** A user's place in `users`, by the source's number for it. */
  readonly users: Map<number, number>;
  lastN: number;
  lastMs: number;
}

/** The arrivals, one group per schedule (and so per source), in columns. */
function arrived(entries: readonly Entry[]): ArrivedState[] {
  const groups = new Map<ArrivalSource<AnyRecord, Companion>, Group>();
  for (const entry of entries) {
    let group = groups.get(entry.source);
    if (group === undefined) {
      group = newGroup(entry.source);
      groups.set(entry.source, group);
    }
    const { state } = group;
    const index = state.n.length;
    state.n.push(entry.n - group.lastN);
    state.atMs.push(entry.atMs - group.lastMs);
    group.lastN = entry.n;
    group.lastMs = entry.atMs;
    let user = group.users.get(entry.detail);
    if (user === undefined) {
      const ref = group.source.userOf(entry.detail);
      user = state.users.push({ id: ref.id, full_name: ref.full_name }) - 1;
      group.users.set(entry.detail, user);
    }
    state.user.push(user);
    if (entry.later) {
      state.excused ??= [];
      state.excused.push(index);
    }
    if (entry.fields !== undefined) {
      state.fields ??= {};
      state.fields[index] = { ...entry.fields };
    }
  }
  return [...groups.values()].map((group) => group.state);
}

function newGroup(source: ArrivalSource<AnyRecord, Companion>): Group {
  if (!(source instanceof ArrivedRecords)) throw new Error('An arrived record has no schedule');
  const arriving = source.arriving as Partial<ScheduledArrivals>;
  if (arriving.startMs === undefined || arriving.activity === undefined)
    throw new Error('An arrived record has no schedule');
  // Not copied here: the whole state is copied once it is complete.
  return {
    state: {
      schedule: { startMs: arriving.startMs, activity: arriving.activity },
      users: [],
      n: [],
      atMs: [],
      user: [],
    },
    source,
    users: new Map(),
    lastN: 0,
    lastMs: 0,
  };
}
