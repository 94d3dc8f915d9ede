import type { Call, DataResource, RecordingDetail, Team, User, UserRef } from '@company-data/contract';
import {
  callFields,
  callSource,
  callTranscript,
  fullName,
  recordingFields,
  recordingTranscript,
  teamFields,
  userFields,
} from '../fake/generate-records.js';
import { isoSeconds } from '../fake/time.js';
import { EXCUSE_REASONS } from '../fake/words.js';
import { Prng } from '../random/prng.js';
import type { CompanyRecords } from '../store/company-records.js';
import { idKey } from '../store/id-key.js';
import type { LiveTable } from '../store/live-table.js';
import type { MockStore } from '../store/mock-store.js';
import type { ChangeJournal, DataChangeOrigin } from './change-journal.js';
import { RecordNotFoundError } from './errors.js';
import { checkFields, checkRecord, type RecordOf, SINGULAR } from './rules.js';

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
  | { readonly kind: 'delete'; readonly resource: DataResource; readonly id: string };

/** Who asks for a change, when, in which company, and where generated fields are drawn from. */
export interface ChangeContext {
  /** A control or the activity (journaled with the change). */
  readonly origin: DataChangeOrigin;
  /** Company id or name (default: the primary company). */
  readonly company?: string | undefined;
  /** The change's time, epoch ms (default: the mock clock's now): a created record's default `created_at`. */
  readonly atMs?: number | undefined;
  /**
   * Where a created record's missing fields (its id included) are drawn from (default: the store's seeded
   * stream, one draw per change). The activity passes its own, so its records do not depend on the controls.
   */
  readonly random?: Prng | undefined;
}

/** What the editor works on: the current store, the clock and the change journal. */
export interface EditorHost {
  /** The store in force (replaced by reset, reseed and fixture loads). */
  store(): MockStore;
  /** The mock clock's now, epoch ms. */
  nowMs(): number;
  readonly journal: ChangeJournal;
}

type AnyRecord = User | Team | RecordingDetail | Call;
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
        at: new Date(atMs).toISOString(),
        company: company.id,
        resource,
        id,
        kind,
        ...(fields === undefined ? {} : { fields }),
        origin: context.origin,
      });
    const random = () => context.random ?? new Prng(store.random.nextUint32());

    if (change.kind === 'create') {
      const given = checkFields(resource, change.fields === undefined ? {} : change.fields, 'create');
      const record = create(company, resource, given, atMs, random());
      checkRecord(resource, record);
      if (table.find(idKey(record.id)) !== undefined)
        throw new Error(`A ${SINGULAR[resource]} with id "${record.id}" already exists in ${company.name}`);
      table.insert(record);
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

/** A new record: the given fields over generated ones, made consistent. */
function create(
  company: CompanyRecords,
  resource: DataResource,
  given: Fields,
  atMs: number,
  random: Prng,
): AnyRecord {
  const id = (given.id as string | undefined) ?? random.uuid();
  const createdMs = given.created_at === undefined ? atMs : Date.parse(given.created_at as string);
  const { user: _user, ...own } = given;
  switch (resource) {
    case 'users': {
      const base = userFields(random, id, createdMs, company.domain, given as Partial<User>);
      const user = { ...base, ...own } as User;
      return { ...user, full_name: fullName(user.first_name, user.last_name) };
    }
    case 'teams':
      return { ...teamFields(random, id, createdMs), ...own } as Team;
    case 'recordings': {
      const userRef = pickUser(company, given.user);
      const recording = { ...recordingFields(random, id, createdMs, userRef), ...own } as RecordingDetail;
      const record = alignTimes(recording, given);
      company.createdTranscripts.recordings.set(idKey(id), recordingTranscript(record, random).transcript);
      return record;
    }
    case 'calls': {
      const userRef = pickUser(company, given.user);
      const generated = callFields(random, id, createdMs, callSource(random.int(100)), userRef);
      // A call arrives not excused: excusing comes later (an update, or the activity).
      const arrived: Call = { ...generated, is_excused: false, excused_at: null, excuse_reason: null };
      const record = alignTimes(settleCall(arrived, own, atMs, random), given);
      company.createdTranscripts.calls.set(idKey(id), callTranscript(record, random).transcript);
      return record;
    }
  }
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
 * A call with the given fields applied under the rules a real call keeps: an excused call has an
 * `excused_at` (now, when not given) and a reason (drawn as the generator does, when not given), a call not
 * excused has neither; a booked call is qualified; a cancellation call has a cancellation.
 *
 * @throws Error when the given fields contradict each other.
 */
function settleCall(before: Call, given: Fields, atMs: number, random: Prng): Call {
  const next = { ...before, ...given } as Call;
  const has = (name: string) => Object.hasOwn(given, name);
  if (next.is_excused) {
    if (has('excused_at') && given.excused_at === null)
      throw new Error('call.excused_at: an excused call has a time; set is_excused: false to clear it');
    if (!before.is_excused && !has('excused_at')) next.excused_at = isoSeconds(atMs);
    if (next.excuse_reason === null && !has('excuse_reason'))
      next.excuse_reason = random.pick(EXCUSE_REASONS);
  } else {
    for (const name of ['excused_at', 'excuse_reason'] as const)
      if (has(name) && given[name] !== null)
        throw new Error(
          `call.${name}: only an excused call has one; give is_excused: true with it (or null to clear it)`,
        );
    next.excused_at = null;
    next.excuse_reason = null;
  }
  settlePair(next, given, 'is_booked', 'is_qualified', 'a booked call is qualified');
  settlePair(next, given, 'is_cancellation', 'has_cancellation', 'a cancellation call has a cancellation');
  return next;
}

/** Keeps `implied` true wherever `implying` is: follows the field given alone, refuses a contradiction. */
function settlePair(
  call: Call,
  given: Fields,
  implying: 'is_booked' | 'is_cancellation',
  implied: 'is_qualified' | 'has_cancellation',
  rule: string,
): void {
  if (!call[implying] || call[implied]) return;
  const gaveImplying = Object.hasOwn(given, implying);
  const gaveImplied = Object.hasOwn(given, implied);
  if (gaveImplying && !gaveImplied) call[implied] = true;
  else if (gaveImplied && !gaveImplying) call[implying] = false;
  else throw new Error(`call.${implied}: ${rule}; ${implying}: true needs ${implied}: true`);
}

/**
 * Keeps `start_time`, `end_time` and `audio_duration_seconds` consistent when only some are given: a given
 * duration moves the generated start, given times set the duration.
 */
function alignTimes<Item extends Call | RecordingDetail>(record: Item, given: Fields): Item {
  const gaveStart = given.start_time !== undefined;
  const gaveEnd = given.end_time !== undefined;
  const gaveDuration = given.audio_duration_seconds !== undefined;
  const start = Date.parse(record.start_time);
  const end = Date.parse(record.end_time);
  if (gaveStart && gaveEnd) {
    if (end < start) throw new Error('end_time is before start_time');
    return gaveDuration ? record : { ...record, audio_duration_seconds: Math.round((end - start) / 1000) };
  }
  const seconds = record.audio_duration_seconds;
  if (gaveStart) return { ...record, end_time: isoSeconds(start + seconds * 1000) };
  if (gaveEnd || gaveDuration) return { ...record, start_time: isoSeconds(end - seconds * 1000) };
  return record;
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
export type CreateFields<Resource extends DataResource> = Partial<Omit<RecordOf[Resource], 'user'>> &
  (Resource extends 'recordings' | 'calls' ? { user?: { id: string; full_name?: string } } : unknown);
