// A check of a copy in an NDJSON file. The file is read once, up to the length its progress file records
// (what a sync appends meanwhile is past it, and its records past the checkpoint read with it), into a Map
// from each id to a number standing for its line's record (./record-hash.ts): about 100 bytes a record in
// V8, so 100 MB for 1,000,000 calls. Each page of the list then takes its ids out of the Map; what is left
// at the end is the copy's records that the list did not show.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { CopyError } from '../copy/errors.js';
import type { CopyListName } from '../copy/lists.js';
import { progressPathOf, readProgress } from '../copy/ndjson-copy.js';
import { type CopyComparison, UNSEEN_BATCH } from './comparison.js';
import type { ListedRecord } from './copy-mark.js';
import { UncheckableCopyError } from './errors.js';
import { Finding } from './findings.js';
import { recordHash } from './record-hash.js';

/**
 * Opens a file copy for a check: reads its progress and every line it records.
 *
 * @param file - the NDJSON file (an absolute path, or relative to the working directory).
 * @param name - the file, as messages name it.
 * @param list - the list copied.
 * @returns the comparison; a file is never repaired.
 * @throws {@link UncheckableCopyError} without a progress file, or with one of an export that did not
 * complete; {@link CopyError} when the file is shorter than its progress says, or a line is not a record.
 */
export async function openFileComparison(
  file: string,
  name: string,
  list: CopyListName,
): Promise<CopyComparison> {
  const progressFile = progressPathOf(file);
  const progress = await readProgress(progressFile);
  if (progress === undefined) throw new UncheckableCopyError(name, list, 'none');
  if (!progress.complete) throw new UncheckableCopyError(name, list, 'incomplete', progress.records);
  const size = await stat(file).then(
    (stats) => stats.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return 0;
      throw error;
    },
  );
  if (size < progress.bytes)
    throw new CopyError(
      `${name} holds ${size} bytes, but ${progressFile} says ${progress.bytes} were written: something else changed the file, so it cannot be checked. Export ${list} into a new file instead.`,
    );
  const hashes = new Map<string, number>();
  const duplicated = new Finding();
  let records = 0;
  if (progress.bytes > 0) {
    const input = createReadStream(file, { start: 0, end: progress.bytes - 1 });
    let number = 0;
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      number++;
      if (line === '') continue;
      const record = recordOf(line);
      if (record === undefined)
        throw new CopyError(
          `Line ${number} of ${name} is not a record with an id: something else changed the file, so it cannot be checked. Export ${list} into a new file instead.`,
        );
      // An id on a second line: counted, and the last line's record is the one compared.
      if (hashes.has(record.id)) duplicated.add(record.id);
      hashes.set(record.id, recordHash(record));
      records++;
    }
  }
  return {
    name,
    checkpoint: progress.checkpoint,
    records,
    duplicated,
    async comparePage(page: readonly ListedRecord[], newerIds: readonly string[]) {
      const missing: string[] = [];
      const stale: string[] = [];
      for (const record of page) {
        const hash = hashes.get(record.id);
        if (hash === undefined) missing.push(record.id);
        else {
          if (hash !== recordHash(record)) stale.push(record.id);
          hashes.delete(record.id);
        }
      }
      for (const id of newerIds) hashes.delete(id);
      return { missing, stale };
    },
    async *unseen() {
      let batch: string[] = [];
      for (const id of hashes.keys()) {
        batch.push(id);
        if (batch.length === UNSEEN_BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    async gone() {},
    async finish() {},
    async close() {
      hashes.clear();
    },
  };
}

/** A line's record, or undefined for a line that is not a JSON object with a string id. */
function recordOf(line: string): { id: string } | undefined {
  try {
    const record = JSON.parse(line) as { id?: unknown } | null;
    return typeof record?.id === 'string' ? (record as { id: string }) : undefined;
  } catch {
    return undefined;
  }
}
