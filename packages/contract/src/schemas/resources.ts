import { z } from 'zod';
import { openObject } from './open-object.js';
import { DateTime, openEnum, Uuid } from './primitives.js';

/** Permission identifiers seen on users; the enumeration is open. */
export const USER_PERMISSIONS_SEEN = [
  'call_center_ai_coach',
  'call_center_ai_record',
  'ridealong_record',
] as const;

/**
 * A user of the company.
 *
 * @example
 * ```ts
 * const user = User.parse(json.data);
 * console.log(user.full_name, user.permissions);
 * ```
 */
export const User = openObject({
  id: Uuid,
  email: z.email(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  is_active: z.boolean(),
  permissions: z.array(openEnum(USER_PERMISSIONS_SEEN)),
  created_at: DateTime,
});
/** A user of the company. */
export interface User extends z.output<typeof User> {}

/**
 * A team of the company.
 *
 * @example
 * ```ts
 * const team = Team.parse(json.data);
 * ```
 */
export const Team = openObject({
  id: Uuid,
  name: z.string(),
  description: z.string(),
  created_at: DateTime,
});
/** A team of the company. */
export interface Team extends z.output<typeof Team> {}

/**
 * The short user reference embedded in recordings and calls.
 *
 * @example
 * ```ts
 * UserRef.parse({ id: '3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c', full_name: 'Ada Lovelace' });
 * ```
 */
export const UserRef = openObject({ id: Uuid, full_name: z.string() });
/** The short user reference embedded in recordings and calls. */
export interface UserRef extends z.output<typeof UserRef> {}

/**
 * A field recording as it appears in lists.
 *
 * @example
 * ```ts
 * const recording = Recording.parse(item);
 * console.log(recording.audio_duration_seconds, recording.score);
 * ```
 */
export const Recording = openObject({
  id: Uuid,
  name: z.string(),
  start_time: DateTime,
  end_time: DateTime,
  audio_duration_seconds: z.int(),
  score: z.number(),
  user: UserRef,
  created_at: DateTime,
});
/** A field recording as it appears in lists. */
export interface Recording extends z.output<typeof Recording> {}

/** `value_type` values seen on custom fields; the enumeration is open. */
export const CUSTOM_FIELD_VALUE_TYPES_SEEN = ['single_select', 'number'] as const;
/** Custom field `source` values seen; the enumeration is open. */
export const CUSTOM_FIELD_SOURCES_SEEN = ['ai', 'manual'] as const;

/**
 * One custom field of a field recording. `value` is a string or a number following `value_type`.
 *
 * @example
 * ```ts
 * CustomField.parse({ name: 'Outcome', slug: 'outcome', value_type: 'single_select', value: 'Won', source: 'ai' });
 * ```
 */
export const CustomField = openObject({
  name: z.string(),
  slug: z.string(),
  value_type: openEnum(CUSTOM_FIELD_VALUE_TYPES_SEEN),
  value: z.union([z.string(), z.number()]),
  source: openEnum(CUSTOM_FIELD_SOURCES_SEEN),
});
/** One custom field of a field recording. */
export interface CustomField extends z.output<typeof CustomField> {}

/**
 * A field recording with its custom fields (the retrieve endpoint's body).
 *
 * @example
 * ```ts
 * const detail = RecordingDetail.parse(json.data);
 * for (const field of detail.custom_fields) console.log(field.slug, field.value);
 * ```
 */
export const RecordingDetail = Recording.extend({ custom_fields: z.array(CustomField) });
/** A field recording with its custom fields. */
export interface RecordingDetail extends z.output<typeof RecordingDetail> {}

/** Call `direction` values seen; the enumeration is open. */
export const CALL_DIRECTIONS_SEEN = ['inbound'] as const;
/** Call `sentiment` values seen; the enumeration is open. */
export const CALL_SENTIMENTS_SEEN = ['positive'] as const;
/** The allowed call `source` values (closed: the spec says "allowed values"). */
export const CALL_SOURCES = ['integration', 'voice_agent'] as const;

/**
 * Where a call came from. Closed: the spec lists the allowed values.
 *
 * @example
 * ```ts
 * CallSource.parse('voice_agent');
 * ```
 */
export const CallSource = z.enum(CALL_SOURCES);
/** Where a call came from. */
export type CallSource = z.infer<typeof CallSource>;

/**
 * A contact-center call.
 *
 * @example
 * ```ts
 * const call = Call.parse(json.data);
 * if (call.is_excused) console.log(call.excuse_reason);
 * ```
 */
export const Call = openObject({
  id: Uuid,
  start_time: DateTime,
  end_time: DateTime,
  audio_duration_seconds: z.int(),
  direction: openEnum(CALL_DIRECTIONS_SEEN),
  source: CallSource,
  sentiment: openEnum(CALL_SENTIMENTS_SEEN),
  score: z.number(),
  summary: z.string(),
  is_qualified: z.boolean(),
  is_booked: z.boolean(),
  is_excused: z.boolean(),
  excused_at: DateTime.nullable(),
  excuse_reason: z.string().nullable(),
  is_cancellation: z.boolean(),
  has_cancellation: z.boolean(),
  user: UserRef,
  created_at: DateTime,
});
/** A contact-center call. */
export interface Call extends z.output<typeof Call> {}

/**
 * One word of a field-recording transcript segment, with its own timing and speaker.
 *
 * @example
 * ```ts
 * TranscriptWord.parse({ text: 'hello', start: 0, end: 420, speaker: 'A' });
 * ```
 */
export const TranscriptWord = openObject({
  text: z.string(),
  start: z.int(),
  end: z.int(),
  speaker: z.string(),
});
/** One word of a field-recording transcript segment. */
export interface TranscriptWord extends z.output<typeof TranscriptWord> {}

const segmentShape = {
  speaker: z.string(),
  text: z.string(),
  start: z.int(),
  end: z.int(),
};

/**
 * A call transcript segment: speaker (a role label), text and offsets. Calls carry no `words`.
 *
 * @example
 * ```ts
 * CallTranscriptSegment.parse({ speaker: 'agent', text: 'Hi!', start: 0, end: 900 });
 * ```
 */
export const CallTranscriptSegment = openObject(segmentShape);
/** A call transcript segment. */
export interface CallTranscriptSegment extends z.output<typeof CallTranscriptSegment> {}

/**
 * A field-recording transcript segment: speaker (a letter label), text, offsets and `words`.
 *
 * @example
 * ```ts
 * RecordingTranscriptSegment.parse({ speaker: 'A', text: 'Hi', start: 0, end: 300, words: [] });
 * ```
 */
export const RecordingTranscriptSegment = openObject({
  ...segmentShape,
  words: z.array(TranscriptWord),
});
/** A field-recording transcript segment. */
export interface RecordingTranscriptSegment extends z.output<typeof RecordingTranscriptSegment> {}

/**
 * The transcript of a field recording; `id` is the recording's id.
 *
 * @example
 * ```ts
 * const { transcript } = RecordingTranscript.parse(json.data);
 * ```
 */
export const RecordingTranscript = openObject({
  id: Uuid,
  transcript: z.array(RecordingTranscriptSegment),
});
/** The transcript of a field recording. */
export interface RecordingTranscript extends z.output<typeof RecordingTranscript> {}

/**
 * The transcript of a call; `id` is the call's id.
 *
 * @example
 * ```ts
 * const { transcript } = CallTranscript.parse(json.data);
 * ```
 */
export const CallTranscript = openObject({
  id: Uuid,
  transcript: z.array(CallTranscriptSegment),
});
/** The transcript of a call. */
export interface CallTranscript extends z.output<typeof CallTranscript> {}
