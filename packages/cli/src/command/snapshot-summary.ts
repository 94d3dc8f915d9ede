import { relative } from 'node:path';
import type { SnapshotResult } from '../snapshot/snapshot.js';

/**
 * The honest end of a snapshot, in words: what was written, what it cost (requests, 429 waits, time),
 * what the keys in the file are, whether it holds real personal data, and how to load it.
 *
 * @param result - what the snapshot did.
 * @param cwd - paths are shown relative to it.
 * @param seeded - whether the user gave the seed (else it was random).
 */
export function formatSnapshotSummary(result: SnapshotResult, cwd: string, seeded: boolean): string {
  const { counts } = result;
  const file = relative(cwd, result.output) || result.output;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const waits =
    result.rateLimitWaits === 0
      ? 'no rate-limit waits'
      : `${result.rateLimitWaits} answer${result.rateLimitWaits === 1 ? '' : 's'} 429 (requests paused ${seconds(result.waitedMs)} in all)`;
  const resumed =
    result.resumed > 0 ? `; ${result.resumed} records came from the interrupted run it resumed` : '';
  const dropped = Object.entries(result.droppedFields).map(([field, times]) => `${field} (${times})`);
  const privacy = result.anonymized
    ? [
        `Anonymized: names, e-mails, record ids and free text are stand-ins, ${seeded ? 'derived from your --seed (the same seed gives the same file; keep it private)' : 'from a random seed (pass --seed to get the same file on every run)'}.`,
        ...(dropped.length > 0
          ? [`Removed fields the contract does not know (they may hold anything): ${dropped.join(', ')}.`]
          : []),
      ]
    : ['Not anonymized: the file holds the real data. Rerun with --anonymize before committing it.'];
  const { valid, expired, revoked, noPermission } = result.keys;
  const keys = [
    `${valid} (valid)`,
    `${expired} (expired)`,
    `${revoked} (revoked)`,
    `${noPermission} (no permission)`,
  ];
  return [
    `Wrote ${file}: ${counts.users} users, ${counts.teams} teams, ${counts.recordings} recordings, ${counts.calls} calls (${counts.transcripts} with a transcript).`,
    `Read in ${result.requests} requests and ${seconds(result.durationMs)}, ${waits}${resumed}.`,
    `The API keys in the file are placeholders, not yours: ${keys.join(', ')}.`,
    ...privacy,
    // Port 0: a free port, as the mock of Getting started (or any other) may hold the default 4010.
    `Serve it: npx company-data-mock --fixture ${file} --port 0 (a free port; it prints the base URL)`,
    '',
  ].join('\n');
}
