import type {
  Call,
  CallSource,
  CallTranscript,
  CallTranscriptSegment,
  CustomField,
  RecordingDetail,
  RecordingTranscript,
  RecordingTranscriptSegment,
  Team,
  TranscriptWord,
  User,
  UserRef,
} from '@company-data/contract';
import { hashInts, Prng } from '../random/prng.js';
import { RecordIdCodec } from '../random/record-ids.js';
import type { CompanyRecords } from '../store/company-records.js';
import { idKey } from '../store/id-key.js';
import { LiveTable } from '../store/live-table.js';
import { GeneratedTable } from '../store/table.js';
import { sharedTable } from './shared-tables.js';
import { isoSeconds, Timeline } from './time.js';
import {
  CALL_LINES,
  CALL_SUMMARIES,
  EXCUSE_REASONS,
  FIRST_NAMES,
  LAST_NAMES,
  OUTCOMES,
  PERMISSION_SETS,
  SENTIMENTS,
  STREETS,
  TEAMS,
  TEMPERATURES,
  VISIT_KINDS,
  VISIT_LINES,
} from './words.js';

/** How many records of each kind a generated company holds. */
export interface CompanySizes {
  users: number;
  teams: number;
  recordings: number;
  calls: number;
}

/** What the generator needs to derive one company. */
export interface GeneratedCompanySpec {
  id: string;
  name: string;
  /** E-mail domain of its users. */
  domain: string;
  /** Secret all its records derive from. */
  secret: number;
  sizes: CompanySizes;
  /** Every generated record is created before this instant. */
  endMs: number;
}

const KIND = { user: 1, team: 2, recording: 3, call: 4 } as const;
const FACET = { active: 11, source: 12 } as const;

/** What every table of one generated company derives its records from. */
interface Derivation {
  readonly spec: GeneratedCompanySpec;
  /** A generator for one record (kind, position) of this company; a salt varies it. */
  rng(kind: number, position: number, salt?: number): Prng;
  /** A stable number from 0 to 99 for a record's facet. */
  percent(facet: number, position: number): number;
}

/** Picks a user of the company for a record's `user` field. */
export type UserPicker = (random: Prng) => UserRef;

/**
 * Derives a company whose records are computed from (secret, kind, position) on demand.
 *
 * @param spec - identity, secret, sizes and the end of the generated period.
 * @returns the company's read-only data.
 */
export function generateCompany(spec: GeneratedCompanySpec): CompanyRecords {
  const { secret } = spec;
  const derivation: Derivation = {
    spec,
    rng: (kind, position, salt = 0) => new Prng(hashInts(secret, kind, position, salt)),
    percent: (facet, position) => hashInts(secret, facet, position) % 100,
  };
  // Shared by every world of the same spec: the tables never change (see shared-tables.ts).
  const key = JSON.stringify([spec.id, spec.name, spec.domain, secret, spec.sizes, spec.endMs]);
  const users = sharedTable(`${key} users`, () => userTable(derivation));
  const userRef: UserPicker = (random) => {
    const user = users.at(random.int(users.size));
    return { id: user.id, full_name: user.full_name };
  };
  const { rng } = derivation;
  const recordings = new LiveTable<RecordingDetail, RecordingTranscriptSegment[]>(
    sharedTable(`${key} recordings`, () => recordingTable(derivation, userRef)),
  );
  const calls = new LiveTable<Call, CallTranscriptSegment[]>(
    sharedTable(`${key} calls`, () => callTable(derivation, userRef)),
  );
  return {
    id: spec.id,
    name: spec.name,
    domain: spec.domain,
    users: new LiveTable(users),
    teams: new LiveTable(sharedTable(`${key} teams`, () => teamTable(derivation))),
    recordings,
    calls,
    recordingTranscript: (recording) => {
      const own = recordings.companion(idKey(recording.id));
      if (own !== undefined) return { id: recording.id, transcript: own };
      return recordingTranscript(recording, rng(KIND.recording, 0, hashOf(recording.id)));
    },
    callTranscript: (call) => {
      const own = calls.companion(idKey(call.id));
      if (own !== undefined) return { id: call.id, transcript: own };
      return callTranscript(call, rng(KIND.call, 0, hashOf(call.id)));
    },
  };
}

function userTable({ spec, rng, percent }: Derivation): GeneratedTable<User> {
  const { secret, sizes, endMs } = spec;
  const ids = new RecordIdCodec(secret, KIND.user);
  const times = new Timeline(sizes.users, 3 * 365, endMs);
  const isActive = (position: number) => position === 0 || percent(FACET.active, position) < 85;
  return new GeneratedTable<User>({
    size: sizes.users,
    ids,
    facets: { is_active: (position) => String(isActive(position)) },
    derive: (position) => {
      const random = rng(KIND.user, position);
      const row = position % FIRST_NAMES.length;
      const round = Math.floor(position / FIRST_NAMES.length);
      const first = FIRST_NAMES[(row * 37 + (secret % 97)) % FIRST_NAMES.length] as string;
      const last = LAST_NAMES[(round + row * 13 + (secret % 89)) % LAST_NAMES.length] as string;
      const suffix = round >= LAST_NAMES.length ? String(Math.floor(round / LAST_NAMES.length) + 1) : '';
      return {
        id: ids.encode(position),
        email: `${first}.${last}${suffix}@${spec.domain}`.toLowerCase(),
        first_name: first,
        last_name: last,
        full_name: fullName(first, last),
        is_active: isActive(position),
        permissions: [...random.pick(PERMISSION_SETS)],
        created_at: isoSeconds(times.at(position, random.next())),
      };
    },
  });
}

/**
 * The fields of a user created at `createdMs` in a company whose e-mails end in `domain`, drawn from
 * `random` from the seeded data's names, permission sets and share of active users.
 */
export function userFields(
  random: Prng,
  id: string,
  createdMs: number,
  domain: string,
  names: { first_name?: string | undefined; last_name?: string | undefined } = {},
): User {
  const first = names.first_name ?? random.pick(FIRST_NAMES);
  const last = names.last_name ?? random.pick(LAST_NAMES);
  // A number tells apart the namesakes the seeded users may already have.
  const suffix = random.between(2, 99);
  const local = `${first}.${last}${suffix}`.toLowerCase().replace(/[^a-z0-9.]/g, '');
  return {
    id,
    email: `${local}@${domain}`,
    first_name: first,
    last_name: last,
    full_name: fullName(first, last),
    is_active: random.chance(0.85),
    permissions: [...random.pick(PERMISSION_SETS)],
    created_at: isoSeconds(createdMs),
  };
}

/** A user's `full_name`, from the first and last names. */
export function fullName(first: string, last: string): string {
  return `${first} ${last}`;
}

/** The fields of a team created at `createdMs`, drawn from `random` from the seeded data's teams. */
export function teamFields(random: Prng, id: string, createdMs: number): Team {
  const [name, description] = random.pick(TEAMS);
  return { id, name, description, created_at: isoSeconds(createdMs) };
}

function teamTable({ spec, rng }: Derivation): GeneratedTable<Team> {
  const { secret, sizes, endMs } = spec;
  const ids = new RecordIdCodec(secret, KIND.team);
  const times = new Timeline(sizes.teams, 3 * 365, endMs);
  return new GeneratedTable<Team>({
    size: sizes.teams,
    ids,
    derive: (position) => {
      const random = rng(KIND.team, position);
      const [name, description] = TEAMS[position % TEAMS.length] as readonly [string, string];
      const round = Math.floor(position / TEAMS.length);
      return {
        id: ids.encode(position),
        name: round === 0 ? name : `${name} ${round + 1}`,
        description,
        created_at: isoSeconds(times.at(position, random.next())),
      };
    },
  });
}

function recordingTable({ spec, rng }: Derivation, userRef: UserPicker): GeneratedTable<RecordingDetail> {
  const { secret, sizes, endMs } = spec;
  const ids = new RecordIdCodec(secret, KIND.recording);
  const times = new Timeline(sizes.recordings, 365, endMs);
  return new GeneratedTable<RecordingDetail>({
    size: sizes.recordings,
    ids,
    derive: (position) => {
      const random = rng(KIND.recording, position);
      const created = times.at(position, random.next());
      return recordingFields(random, ids.encode(position), created, userRef);
    },
  });
}

/**
 * The fields of a recording created at `createdMs`, drawn from `random` as the seeded data is (a created
 * recording reuses it).
 */
export function recordingFields(
  random: Prng,
  id: string,
  createdMs: number,
  userRef: UserPicker,
): RecordingDetail {
  const duration = random.between(240, 5400);
  const start = createdMs - duration * 1000 - random.between(5, 180) * 60_000;
  return {
    id,
    name: `${random.pick(VISIT_KINDS)} – ${random.between(1, 999)} ${random.pick(STREETS)}`,
    start_time: isoSeconds(start),
    end_time: isoSeconds(start + duration * 1000),
    audio_duration_seconds: duration,
    score: Math.round(random.next() * 1000) / 10,
    user: userRef(random),
    created_at: isoSeconds(createdMs),
    custom_fields: customFields(random),
  };
}

function callTable({ spec, rng, percent }: Derivation, userRef: UserPicker): GeneratedTable<Call> {
  const { secret, sizes, endMs } = spec;
  const ids = new RecordIdCodec(secret, KIND.call);
  const times = new Timeline(sizes.calls, 365, endMs);
  const source = (position: number) => callSource(percent(FACET.source, position));
  return new GeneratedTable<Call>({
    size: sizes.calls,
    ids,
    facets: { source },
    derive: (position) => {
      const random = rng(KIND.call, position);
      const created = times.at(position, random.next());
      return callFields(random, ids.encode(position), created, source(position), userRef);
    },
  });
}

/**
 * The fields of a call created at `createdMs`, drawn from `random` as the seeded data is (a created call
 * reuses it).
 */
export function callFields(
  random: Prng,
  id: string,
  createdMs: number,
  source: CallSource,
  userRef: UserPicker,
): Call {
  const duration = random.between(30, 1800);
  const start = createdMs - duration * 1000 - random.between(1, 30) * 1000;
  const excused = random.chance(0.1);
  const qualified = random.chance(0.6);
  const cancellation = random.chance(0.05);
  return {
    id,
    start_time: isoSeconds(start),
    end_time: isoSeconds(start + duration * 1000),
    audio_duration_seconds: duration,
    direction: 'inbound',
    source,
    sentiment: random.pick(SENTIMENTS),
    score: Math.round(random.next() * 1000) / 10,
    summary: random.pick(CALL_SUMMARIES),
    is_qualified: qualified,
    is_booked: qualified && random.chance(0.55),
    is_excused: excused,
    excused_at: excused ? isoSeconds(createdMs + random.between(10, 2880) * 60_000) : null,
    excuse_reason: excused ? random.pick(EXCUSE_REASONS) : null,
    is_cancellation: cancellation,
    has_cancellation: cancellation || random.chance(0.04),
    user: userRef(random),
    created_at: isoSeconds(createdMs),
  };
}

/** A call's `source` as the seeded data spreads it: 70 % integration. */
export function callSource(percent: number): CallSource {
  return percent < 70 ? 'integration' : 'voice_agent';
}

function hashOf(id: string): number {
  return Number.parseInt(id.slice(0, 8), 16) | 0;
}

function customFields(random: Prng): CustomField[] {
  const fields: CustomField[] = [
    {
      name: 'Outcome',
      slug: 'outcome',
      value_type: 'single_select',
      value: random.pick(OUTCOMES),
      source: 'ai',
    },
    {
      name: 'Lead temperature',
      slug: 'lead_temperature',
      value_type: 'single_select',
      value: random.pick(TEMPERATURES),
      source: random.chance(0.5) ? 'ai' : 'manual',
    },
    {
      name: 'Quoted amount',
      slug: 'quoted_amount',
      value_type: 'number',
      value: random.between(250, 45_000),
      source: 'manual',
    },
    {
      name: 'Talk ratio',
      slug: 'talk_ratio',
      value_type: 'number',
      value: Math.round(random.next() * 100) / 100,
      source: 'ai',
    },
  ];
  // Not every recording has every field filled in.
  return fields.filter((_, index) => index === 0 || random.chance(0.8));
}

/** Word durations of spoken text, in milliseconds. */
function speak(random: Prng, text: string, speaker: string, startMs: number): TranscriptWord[] {
  const words: TranscriptWord[] = [];
  let at = startMs;
  for (const word of text.split(' ')) {
    const length = 120 + word.length * 45 + random.int(90);
    words.push({ text: word, start: at, end: at + length, speaker });
    at += length + random.int(60);
  }
  return words;
}

/** A recording's transcript, drawn from `random` (the seeded data's and a created recording's). */
export function recordingTranscript(recording: RecordingDetail, random: Prng): RecordingTranscript {
  const segments: RecordingTranscriptSegment[] = [];
  const count = random.between(4, VISIT_LINES.length);
  let at = random.between(200, 3000);
  for (let index = 0; index < count; index++) {
    // Mostly the rep (A) and the homeowner (B); now and then a third voice (C) chimes in.
    const speaker = index % 2 === 0 ? 'A' : random.chance(0.9) ? 'B' : 'C';
    const text = VISIT_LINES[index] as string;
    const words = speak(random, text, speaker, at);
    const end = (words[words.length - 1] as TranscriptWord).end;
    segments.push({ speaker, text, start: at, end, words });
    at = end + random.between(300, 2500);
  }
  return { id: recording.id, transcript: segments };
}

/** A call's transcript, drawn from `random` (the seeded data's and a created call's). */
export function callTranscript(call: Call, random: Prng): CallTranscript {
  const segments: CallTranscriptSegment[] = [];
  const count = random.between(4, CALL_LINES.length);
  let at = random.between(0, 1500);
  for (let index = 0; index < count; index++) {
    const text = CALL_LINES[index] as string;
    const end = at + text.split(' ').length * random.between(280, 420);
    segments.push({ speaker: index % 2 === 0 ? 'agent' : 'customer', text, start: at, end });
    at = end + random.between(200, 1200);
  }
  return { id: call.id, transcript: segments };
}
