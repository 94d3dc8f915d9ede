import type { Call, DataResource, User, UserRef } from '@company-data/contract';
import { fullName, type UserPicker } from '../fake/generate-company.js';
import { Prng } from '../random/prng.js';
import type { CompanyRecords } from '../store/company-records.js';
import { idKey } from '../store/id-key.js';
import type { LiveTable, RecordMaker } from '../store/live-table.js';
import type { MockStore } from '../store/mock-store.js';
import { type Arriving, arrivedRecords } from './arrived.js';
import { settleCall } from './call-rules.js';
import type { ChangeJournal, DataChangeOrigin } from './change-journal.js';
import { RecordNotFoundError } from './errors.js';
import { checkFields, checkRecord, type RecordByResource, SINGULAR } from './fields.js';
import {
  type AnyRecord,
  type Companion,
  makeRecord,
  NO_USER,
  type PickedUser,
  type Recipe,
  recipeMaker,
} from './make.js';

/** A change of one record, as the record controls and the mock's activity ask for it. */
export type RecordChange =
  | {
      readonly kind: 'create';
      readonly resource: DataResource;
      /** The fields the caller cares about (an explicit `id` and `created_at` included); the rest is generated. */
      readonly fields?: unknown;
    }
  | {
      readonly kind: 'update';
      readonly resource: DataResource;
      readonly id: string;
      /** The fields to change (see `MUTABLE_FIELDS`). */
      readonly fields: unknown;
    }
  | { readonly kind: 'delete'; readonly resource: DataResource; readonly id: string }
  | {
      readonly kind: 'arrive';
      readonly resource: 'calls' | 'recordings';
      /** The schedule's arrivals of this resource. */
      readonly arriving: Arriving;
      /** The arrival's place among them. */
      readonly n: number;
    };

/** Who asks for a change, when and in which company. */
export interface ChangeContext {
  /** A control or the activity (journaled with the change). */
  readonly origin: DataChangeOrigin;
  /** Company id or name (default: the primary company). */
  readonly company?: string | undefined;
  /** The change's time, epoch ms (default: the mock clock's now): a created record's default `created_at`. */
  readonly atMs?: number | undefined;
}

/** What the editor works on: the current store, the clock and the change journal. */
export interface EditorHost {
  /** The store in force (replaced by reset, reseed and fixture loads). */
  store(): MockStore;
  /** The mock clock's now, epoch ms. */
  nowMs(): number;
  readonly journal: ChangeJournal;
}

type Fields = Record<string, unknown>;

/**
 * The one way records change: every create, update and delete of the record controls, the admin API and the
 * activity goes through {@link RecordEditor.apply}, which checks the fields against the contract, fills in
 * what is missing as the generator would, applies the consistency rules, updates the company's lists and
 * journals the change.
 */
export class RecordEditor {
  readonly #host: EditorHost;

  /** @param host - the store, clock and journal to work on. */
  constructor(host: EditorHost) {
    this.#host = host;
  }

  /**
   * The record with this id as stored now, or undefined.
   *
   * @param company - company id or name (default: the primary company).
   * @throws Error for an unknown company.
   */
  find(resource: DataResource, id: string, company?: string): AnyRecord | undefined {
    const store = this.#host.store();
    const data = company === undefined ? store.primary : store.company(company);
    return (data[resource] as LiveTable<AnyRecord>).find(idKey(id));
  }

  /**
   * Applies one change.
   *
   * @param change - what to create, update or delete.
   * @param context - origin, company, time and random stream.
   * @returns the record as the API now answers it (the deleted record for a delete).
   * @throws Error for an unknown company, an unknown or unchangeable field, a wrong type or an inconsistent
   * value (each message names the field); RecordNotFoundError for an unknown id.
   */
  apply(change: RecordChange, context: ChangeContext): AnyRecord {
    const store = this.#host.store();
    const company = context.company === undefined ? store.primary : store.company(context.company);
    const atMs = context.atMs ?? this.#host.nowMs();
    const { resource } = change;
    const table = company[resource] as LiveTable<AnyRecord>;
    const journal = (id: string, kind: 'created' | 'updated' | 'deleted', fields?: string[]) =>
      this.#host.journal.add({
        atMs,
        company: company.id,
        resource,
        id,
        kind,
        ...(fields === undefined ? {} : { fields }),
        origin: context.origin,
      });
    // A created record's missing fields, and a reason an excusal does not give, come from the store's
    // seeded stream: one draw per change that needs one.
    const random = () => new Prng(store.random.nextUint32());

    if (change.kind === 'create') {
      const given = checkFields(resource, change.fields === undefined ? {} : change.fields, 'create');
      const recipe: Recipe = {
        resource,
        seed: store.random.nextUint32(),
        atMs,
        given,
        domain: company.domain,
      };
      const { record, maker } = created(company, recipe);
      checkRecord(resource, record);
      if (table.find(idKey(record.id)) !== undefined)
        throw new Error(`A ${SINGULAR[resource]} with id "${record.id}" already exists in ${company.name}`);
      table.insert(record, maker);
      journal(record.id, 'created');
      return record;
    }
    if (change.kind === 'arrive') {
      const source = arrivedRecords(change.arriving, change.resource);
      const { record, detail } = source.arrive(change.n, atMs, company);
      table.arrive(source, change.n, atMs, detail, record);
      journal(record.id, 'created');
      return record;
    }
    const key = idKey(change.id);
    const before = table.find(key);
    if (before === undefined)
      throw new RecordNotFoundError(`No ${SINGULAR[resource]} has id "${change.id}" in ${company.name}`);
    if (change.kind === 'delete') {
      table.remove(key);
      journal(before.id, 'deleted');
      return before;
    }
    const given = checkFields(resource, change.fields, 'update');
    const after = update(resource, before, given, atMs, random);
    checkRecord(resource, after);
    const changed = Object.keys(after).filter(
      (name) =>
        JSON.stringify((before as unknown as Fields)[name]) !==
        JSON.stringify((after as unknown as Fields)[name]),
    );
    if (changed.length === 0) return before;
    table.update(after);
    journal(before.id, 'updated', changed.sort());
    return after;
  }
}

/**
 * A record the controls create, and how the table generates it again: from its recipe, with the user it
 * picked (a call or a recording picks the user named, or one of the company's users now).
 */
function created(
  company: CompanyRecords,
  recipe: Recipe,
): { record: AnyRecord; maker: RecordMaker<AnyRecord, Companion> } {
  const { resource, given } = recipe;
  let picked: PickedUser | undefined;
  let live: UserPicker = NO_USER;
  if (resource === 'calls' || resource === 'recordings') {
    const pick = pickUser(company, given.user);
    live = (random) => {
      const ref = pick(random);
      picked = { ref, drawn: given.user === undefined };
      return ref;
    };
  }
  const record = makeRecord(recipe, live);
  return { record, maker: recipeMaker(recipe, picked) };
}

/** An updated record: the given fields over the stored ones, derived fields recomputed, made consistent. */
function update(
  resource: DataResource,
  before: AnyRecord,
  given: Fields,
  atMs: number,
  random: () => Prng,
): AnyRecord {
  switch (resource) {
    case 'users': {
      const user = { ...before, ...given } as User;
      return { ...user, full_name: fullName(user.first_name, user.last_name) };
    }
    case 'calls':
      return settleCall(before as Call, given, atMs, random());
    default:
      return { ...before, ...given } as AnyRecord;
  }
}

/**
 * The embedded user of a created recording or call: the one named (it must exist in the company now), or
 * one of the company's users drawn as the generator draws.
 *
 * @throws Error for an unknown user, a `full_name` that is not the user's, or a company without users.
 */
function pickUser(company: CompanyRecords, named: unknown): (random: Prng) => UserRef {
  if (named !== undefined) {
    const { id, full_name } = named as { id: string; full_name?: string };
    const user = company.users.find(idKey(id));
    if (user === undefined)
      throw new Error(`user.id: no user has id "${id}" in ${company.name}; create the user first`);
    if (full_name !== undefined && full_name !== user.full_name)
      throw new Error(`user.full_name: the user's name is "${user.full_name}"; leave full_name out`);
    const ref = { id: user.id, full_name: user.full_name };
    return () => ref;
  }
  const { users } = company;
  if (users.size === 0)
    throw new Error(`${company.name} has no users: create one first, or name one in user.id`);
  return (random) => {
    const user = users.at(random.int(users.size));
    return { id: user.id, full_name: user.full_name };
  };
}

/**
 * The fields a created record may be given: any field of the record (the embedded `user` by its id alone).
 */
export type CreateFields<Resource extends DataResource> = Partial<Omit<RecordByResource[Resource], 'user'>> &
  (Resource extends 'recordings' | 'calls' ? { user?: { id: string; full_name?: string } } : unknown);
