import * as contract from '@company-data/contract';
import type { z } from 'zod';
import { matchCase, Pseudonyms } from './pseudonyms.js';
import type { CallWithTranscript, RecordingWithTranscript, SnapshotRecords } from './records.js';

/** What anonymisation did, for the summary. */
export interface AnonymizeResult {
  /** The records with every piece of personal data replaced. */
  readonly records: SnapshotRecords;
  /** Fields the contract does not know, removed (they may hold anything), with how often, e.g. `calls.phone`. */
  readonly droppedFields: ReadonlyMap<string, number>;
}

/**
 * Replaces the personal data of a snapshot with deterministic stand-ins:
 *
 * - names: made-up people, the same one for the same real name everywhere (a user's `full_name` and the
 *   `user.full_name` of their recordings and calls), never using a part of any real name;
 * - e-mails: unique addresses at example.com named after the made-up person;
 * - record ids: other uuids, the same everywhere (a recording's `user.id` still is its user's id);
 * - free text (transcripts and their words, call summaries and excuse reasons, recording names, team
 *   names and descriptions, custom field values other than `single_select` choices): placeholder words,
 *   as many as the original had, the same for the same text;
 * - fields the contract does not know: removed, since they may hold anything.
 *
 * Timestamps, numbers, flags, enumerations, speaker labels and word timings are kept: they say nothing
 * about a person on their own, and tests rely on them.
 *
 * @param records - what the snapshot read.
 * @param seed - keys every stand-in; the same seed gives the same result.
 */
export function anonymize(records: SnapshotRecords, seed: string): AnonymizeResult {
  const realNames = [
    ...records.users.flatMap((user) => [user.first_name, user.last_name, user.full_name]),
    ...records.recordings.map((recording) => recording.user.full_name),
    ...records.calls.map((call) => call.user.full_name),
  ].flatMap((name) => name.split(/\s+/).filter((part) => part !== ''));
  const pseudonyms = new Pseudonyms(seed, realNames);
  const droppedFields = new Map<string, number>();
  const known = <Shape extends z.ZodRawShape>(schema: { shape: Shape }, where: string, value: object) => {
    const kept: Record<string, unknown> = {};
    for (const [field, fieldValue] of Object.entries(value)) {
      if (Object.hasOwn(schema.shape, field)) kept[field] = fieldValue;
      else droppedFields.set(`${where}.${field}`, (droppedFields.get(`${where}.${field}`) ?? 0) + 1);
    }
    return kept as { [Key in keyof Shape]: z.output<Shape[Key]> };
  };
  const userRef = (ref: contract.UserRef, where: string): contract.UserRef => ({
    ...known(contract.UserRef, `${where}.user`, ref),
    id: pseudonyms.id(ref.id),
    full_name: pseudonyms.person(ref.full_name).full,
  });

  const users = records.users.map((user): contract.User => {
    const person = pseudonyms.person(user.full_name);
    return {
      ...known(contract.User, 'users', user),
      id: pseudonyms.id(user.id),
      email: pseudonyms.email(user.email, person),
      first_name: person.first,
      last_name: person.last,
      full_name: person.full,
    };
  });
  const teams = records.teams.map(
    (team): contract.Team => ({
      ...known(contract.Team, 'teams', team),
      id: pseudonyms.id(team.id),
      name: pseudonyms.text(team.name),
      description: pseudonyms.text(team.description),
    }),
  );
  const recordings = records.recordings.map(
    ({ transcript, ...recording }): RecordingWithTranscript => ({
      ...known(contract.RecordingDetail, 'recordings', recording),
      id: pseudonyms.id(recording.id),
      name: pseudonyms.text(recording.name),
      user: userRef(recording.user, 'recordings'),
      custom_fields: recording.custom_fields.map((field) => ({
        ...known(contract.CustomField, 'recordings.custom_fields', field),
        value:
          typeof field.value === 'string' && field.value_type !== 'single_select'
            ? pseudonyms.text(field.value)
            : field.value,
      })),
      transcript: transcript.map((segment) => {
        // One list of stand-in words for the segment's text and its timed words, so that a text that was
        // its words joined still is.
        const tokens = segment.text.split(/\s+/).filter((token) => token !== '');
        const words = pseudonyms.words(segment.text, Math.max(segment.words.length, tokens.length));
        return {
          ...known(contract.RecordingTranscriptSegment, 'recordings.transcript', segment),
          text: tokens.map((token, index) => matchCase(token, words[index] as string)).join(' '),
          words: segment.words.map((word, index) => ({
            ...known(contract.TranscriptWord, 'recordings.transcript.words', word),
            text: matchCase(word.text, words[index] as string),
          })),
        };
      }),
    }),
  );
  const calls = records.calls.map(
    ({ transcript, ...call }): CallWithTranscript => ({
      ...known(contract.Call, 'calls', call),
      id: pseudonyms.id(call.id),
      summary: pseudonyms.text(call.summary),
      excuse_reason: call.excuse_reason === null ? null : pseudonyms.text(call.excuse_reason),
      user: userRef(call.user, 'calls'),
      transcript: transcript.map((segment) => ({
        ...known(contract.CallTranscriptSegment, 'calls.transcript', segment),
        text: pseudonyms.text(segment.text),
      })),
    }),
  );
  return { records: { users, teams, recordings, calls }, droppedFields };
}
