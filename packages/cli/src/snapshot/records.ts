import type {
  Call,
  CallTranscriptSegment,
  RecordingDetail,
  RecordingTranscriptSegment,
  Team,
  User,
} from '@company-data/sdk';

/** A recording as a fixture holds it: the detail with its transcript. */
export type RecordingWithTranscript = RecordingDetail & { transcript: RecordingTranscriptSegment[] };
/** A call as a fixture holds it, with its transcript. */
export type CallWithTranscript = Call & { transcript: CallTranscriptSegment[] };

/** Everything a snapshot read, in the API's own shapes, newest first. */
export interface SnapshotRecords {
  users: User[];
  teams: Team[];
  recordings: RecordingWithTranscript[];
  calls: CallWithTranscript[];
}
