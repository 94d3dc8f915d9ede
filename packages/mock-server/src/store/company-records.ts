import type {
  Call,
  CallTranscript,
  CallTranscriptSegment,
  RecordingDetail,
  RecordingTranscript,
  RecordingTranscriptSegment,
  Team,
  User,
} from '@company-data/contract';
import type { LiveTable } from './live-table.js';

/** Transcripts of records created at run time, by id key (a generated or fixture record has its own). */
export interface CreatedTranscripts {
  readonly calls: Map<string, CallTranscriptSegment[]>;
  readonly recordings: Map<string, RecordingTranscriptSegment[]>;
}

/** The data of one company (the records the data endpoints serve, changed by the record controls). */
export interface CompanyRecords {
  /** Company id (uuid). */
  readonly id: string;
  /** Display name. */
  readonly name: string;
  /** E-mail domain of its users (created users get an address there). */
  readonly domain: string;
  /** Users, oldest first. */
  readonly users: LiveTable<User>;
  /** Teams, oldest first. */
  readonly teams: LiveTable<Team>;
  /** Field recordings with custom fields, oldest first. */
  readonly recordings: LiveTable<RecordingDetail>;
  /** Calls, oldest first. */
  readonly calls: LiveTable<Call>;
  /** Transcripts of the records created at run time, read before the company's own. */
  readonly createdTranscripts: CreatedTranscripts;
  /** The transcript of one of this company's recordings. */
  recordingTranscript(recording: RecordingDetail): RecordingTranscript;
  /** The transcript of one of this company's calls. */
  callTranscript(call: Call): CallTranscript;
}

/** An empty book of created transcripts. */
export function createdTranscripts(): CreatedTranscripts {
  return { calls: new Map(), recordings: new Map() };
}
