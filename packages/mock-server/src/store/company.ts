import type {
  Call,
  CallTranscript,
  RecordingDetail,
  RecordingTranscript,
  Team,
  User,
} from '@company-data/contract';
import type { RecordTable } from './table.js';

/** The read-only data of one company (the records the data endpoints serve). */
export interface CompanyData {
  /** Company id (uuid). */
  readonly id: string;
  /** Display name. */
  readonly name: string;
  /** Users, oldest first. */
  readonly users: RecordTable<User>;
  /** Teams, oldest first. */
  readonly teams: RecordTable<Team>;
  /** Field recordings with custom fields, oldest first. */
  readonly recordings: RecordTable<RecordingDetail>;
  /** Calls, oldest first. */
  readonly calls: RecordTable<Call>;
  /** The transcript of one of this company's recordings. */
  recordingTranscript(recording: RecordingDetail): RecordingTranscript;
  /** The transcript of one of this company's calls. */
  callTranscript(call: Call): CallTranscript;
}
