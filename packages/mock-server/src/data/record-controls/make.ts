import type {
  Call,
  CallTranscriptSegment,
  DataResource,
  RecordingDetail,
  RecordingTranscriptSegment,
  Team,
  User,
  UserRef,
} from '@company-data/contract';
import {
  callFields,
  callSource,
  callTranscript,
  fullName,
  recordingFields,
  recordingTranscript,
  teamFields,
  type UserPicker,
  userFields,
} from '../fake/generate-company.js';
import { isoSeconds } from '../fake/time.js';
import { Prng } from '../random/prng.js';
import type { RecordMaker } from '../store/live-table.js';
import { settleCall } from './call-rules.js';

/** A record of any resource. */
export type AnyRecord = User | Team | RecordingDetail | Call;
/** What a call or recording brings with it: its transcript. */
export type Companion = CallTranscriptSegment[] | RecordingTranscriptSegment[];
type Fields = Record<string, unknown>;

/**
 * What a created record is generated from, and generated again from whenever it is read: a table keeps
 * this rather than the record (the fields given, and what the rest is drawn from).
 */
export interface Recipe {
  readonly resource: DataResource;
  /** Seed of the generator the missing fields (the id included, when not given) are drawn from. */
  readonly seed: number;
  /** The creation's time, epoch ms: `created_at` unless given (to the second), and an excusal's time. */
  readonly atMs: number;
  /** The fields given, checked; the embedded user by its id. */
  readonly given: Readonly<Fields>;
  /** The company's e-mail domain: a created user's address. */
  readonly domain: string;
}

/** The embedded user a call or recording got when it was made, and whether picking it drew a number. */
export interface PickedUser {
  readonly ref: UserRef;
  /** A random pick among the users draws one number; a user named in the fields draws none. */
  readonly drawn: boolean;
}

/** The picker of a record that names no user (a user or a team): never asked. */
export const NO_USER: UserPicker = () => {
  throw new Error('A user or a team names no user');
};

/**
 * The picker that gives a made record the same user again, drawing what the first pick drew.
 *
 * @param picked - the user picked when it was made.
 */
export function samePick({ ref, drawn }: PickedUser): UserPicker {
  return drawn
    ? (random) => {
        random.next();
        return ref;
      }
    : () => ref;
}

/** How a created record is generated again, with what it is made from (what a saved state keeps of it). */
export interface RecipeMaker extends RecordMaker<AnyRecord, Companion> {
  /** What it is made from. */
  readonly recipe: Recipe;
  /** The user a call or recording embeds (undefined for a user or a team). */
  readonly picked: PickedUser | undefined;
}

/**
 * The maker of a created record: its recipe, and the user it picked when it was made.
 *
 * @param recipe - what it is made from.
 * @param picked - the user picked (undefined for a user or a team).
 */
export function recipeMaker(recipe: Recipe, picked: PickedUser | undefined): RecipeMaker {
  const again = picked === undefined ? NO_USER : samePick(picked);
  return {
    recipe,
    picked,
    record: () => makeRecord(recipe, again),
    companion: () => makeCompanion(recipe, again),
  };
}

/**
 * Generates a created record from its recipe, as the seeded data is generated: the given fields over generated ones, made consistent. A pure function of the recipe and
 * the users `pick` gives, so the same recipe and the same pick give the same bytes.
 *
 * @param recipe - what it is made from.
 * @param pick - the embedded user of a call or recording (see {@link samePick}).
 * @returns the record.
 * @throws Error for given fields that contradict each other (times, a call's rules).
 */
export function makeRecord(recipe: Recipe, pick: UserPicker): AnyRecord {
  return make(recipe, pick, false).record;
}

/**
 * What a created call or recording brings with it, generated again from its recipe: its transcript
 * (undefined for a user or a team).
 *
 * @param recipe - what it is made from.
 * @param pick - the embedded user, as {@link makeRecord} was given it.
 * @returns the transcript's segments.
 */
export function makeCompanion(recipe: Recipe, pick: UserPicker): Companion | undefined {
  return make(recipe, pick, true).companion;
}

/** The record, then (when asked) its transcript, drawn from the same stream after it. */
function make(
  recipe: Recipe,
  pick: UserPicker,
  withCompanion: boolean,
): { record: AnyRecord; companion?: Companion } {
  const { resource, given, atMs, domain } = recipe;
  const random = new Prng(recipe.seed);
  const id = (given.id as string | undefined) ?? random.uuid();
  const createdMs = given.created_at === undefined ? atMs : Date.parse(given.created_at as string);
  const { user: _user, ...own } = given;
  switch (resource) {
    case 'users': {
      const base = userFields(random, id, createdMs, domain, given as Partial<User>);
      const user = { ...base, ...own } as User;
      return { record: { ...user, full_name: fullName(user.first_name, user.last_name) } };
    }
    case 'teams':
      return { record: { ...teamFields(random, id, createdMs), ...own } as Team };
    case 'recordings': {
      const recording = { ...recordingFields(random, id, createdMs, pick), ...own } as RecordingDetail;
      const record = alignTimes(recording, given);
      return withCompanion
        ? { record, companion: recordingTranscript(record, random).transcript }
        : { record };
    }
    case 'calls': {
      const arrived: Call = callFields(random, id, createdMs, callSource(random.int(100)), pick);
      // A call arrives not excused: excusing comes later (an update, or the activity). The record is new,
      // so it is changed in place (its keys keep their order).
      arrived.is_excused = false;
      arrived.excused_at = null;
      arrived.excuse_reason = null;
      // Given nothing but its id and time (as every arrival of the activity), it keeps the rules already.
      const settled = ruledBy(own) ? settleCall(arrived, own, atMs, random) : Object.assign(arrived, own);
      const record = alignTimes(settled, given);
      return withCompanion ? { record, companion: callTranscript(record, random).transcript } : { record };
    }
  }
}

/** Whether given fields go beyond a record's id and creation time (which a call's rules never read). */
function ruledBy(given: Fields): boolean {
  for (const name in given) if (name !== 'id' && name !== 'created_at') return true;
  return false;
}

/**
 * Keeps `start_time`, `end_time` and `audio_duration_seconds` consistent when only some are given: a given
 * duration moves the generated start, given times set the duration.
 */
function alignTimes<Item extends Call | RecordingDetail>(record: Item, given: Fields): Item {
  const gaveStart = given.start_time !== undefined;
  const gaveEnd = given.end_time !== undefined;
  const gaveDuration = given.audio_duration_seconds !== undefined;
  // Most records are given none of them (every arrival of the activity): nothing to read then.
  if (!gaveStart && !gaveEnd && !gaveDuration) return record;
  const start = Date.parse(record.start_time);
  const end = Date.parse(record.end_time);
  if (gaveStart && gaveEnd) {
    if (end < start) throw new Error('end_time is before start_time');
    return gaveDuration ? record : { ...record, audio_duration_seconds: Math.round((end - start) / 1000) };
  }
  const seconds = record.audio_duration_seconds;
  if (gaveStart) return { ...record, end_time: isoSeconds(start + seconds * 1000) };
  return { ...record, start_time: isoSeconds(end - seconds * 1000) };
}
