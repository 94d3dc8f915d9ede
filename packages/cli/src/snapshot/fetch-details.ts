import type { Call, CompanyData, Recording } from '@company-data/sdk';
import { forEachConcurrently } from '../for-each-concurrently.js';
import type { Checkpoint, DetailEntry } from './checkpoint.js';

/** What the details phase works on: the recordings and calls chosen from the lists. */
export interface DetailTargets {
  readonly recordings: readonly Recording[];
  readonly calls: readonly Call[];
}

/**
 * Fetches what the lists lack: each recording's custom fields and transcript, each call's transcript. At
 * most `concurrency` records at once, all through the client's rate gate. Every entry is saved to the
 * checkpoint as soon as it is complete; entries the checkpoint already holds are not fetched again.
 *
 * @returns every entry, by `kind:id`.
 */
export async function fetchDetails(
  client: CompanyData,
  targets: DetailTargets,
  checkpoint: Checkpoint,
  options: { concurrency: number; signal?: AbortSignal | undefined; onEntry: () => void },
): Promise<Map<string, DetailEntry>> {
  const { signal } = options;
  const entries = new Map<string, DetailEntry>();
  const work = [
    ...targets.recordings.map((record) => ({ kind: 'recording' as const, id: record.id })),
    ...targets.calls.map((record) => ({ kind: 'call' as const, id: record.id })),
  ];
  const fetchEntry = async (kind: DetailEntry['kind'], id: string): Promise<DetailEntry> => {
    if (kind === 'call') {
      const { transcript } = await client.calls.transcript(id, { signal });
      return { kind, id, transcript };
    }
    // One after the other: `concurrency` is the number of requests in flight.
    const detail = await client.recordings.retrieve(id, { signal });
    const { transcript } = await client.recordings.transcript(id, { signal });
    return { kind, id, detail, transcript };
  };
  await forEachConcurrently(work, options.concurrency, async ({ kind, id }) => {
    const key = `${kind}:${id}`;
    let entry = checkpoint.resumed.get(key);
    if (entry === undefined) {
      entry = await fetchEntry(kind, id);
      await checkpoint.save(entry);
    }
    entries.set(key, entry);
    options.onEntry();
  });
  return entries;
}
