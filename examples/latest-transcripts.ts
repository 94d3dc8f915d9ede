// Prints the transcripts of the latest field recordings (newest first).
//
//   npx tsx examples/latest-transcripts.ts [--count 3]
import { parseArgs } from 'node:util';
import { CompanyData, CompanyDataError } from '@company-data/sdk';

const { values } = parseArgs({ options: { count: { type: 'string', default: '3' } } });
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1 || count > 100) {
  console.error('--count must be a whole number from 1 to 100');
  process.exit(2);
}

const client = new CompanyData();

try {
  // Lists are newest first by default (`ordering: '-created_at'`); one page of `count` is all we need.
  const recordings = await client.recordings.list({ page_size: count }).toArray({ limit: count });
  // The transcripts are independent requests: fetch them together (they share the client's rate gate).
  const transcripts = await Promise.all(
    recordings.map((recording) => client.recordings.transcript(recording.id)),
  );
  for (const [index, recording] of recordings.entries()) {
    const segments = transcripts[index]?.transcript ?? [];
    console.log(`# ${recording.name} (${recording.id})`);
    console.log(
      `  ${recording.user.full_name}, ${recording.start_time}, ${recording.audio_duration_seconds} s, score ${recording.score}`,
    );
    if (segments.length === 0) console.log('  (no transcript)');
    for (const segment of segments) console.log(`  ${segment.speaker}: ${segment.text}`);
    console.log();
  }
} catch (error) {
  if (!(error instanceof CompanyDataError)) throw error;
  console.error(`Could not fetch the transcripts: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
