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
  /** Field recordings with custom fields, oldest first; one created at run time brings its transcript. */
  readonly recordings: LiveTable<RecordingDetail, RecordingTranscriptSegment[]>;
  /** Calls, oldest first; one created at run time brings its transcript. */
  readonly calls: LiveTable<Call, CallTranscriptSegment[]>;
  /** The transcript of one of this company's recordings (a created one's first, then the company's own). */
  recordingTranscript(recording: RecordingDetail): RecordingTranscript;
  /** The transcript of one of this company's calls (a created one's first, then the company's own). */
  callTranscript(call: Call): CallTranscript;
}
