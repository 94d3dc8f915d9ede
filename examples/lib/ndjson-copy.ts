// A local copy of a list as an NDJSON file (one JSON record a line), kept consistent with its progress file
// through Ctrl+C, crashes and deploys. Used by export-calls-ndjson.ts and sync-calls.ts, which share the
// file format, so a finished export is where the daily sync takes over.
//
// The rule that makes it exactly-once: a page's lines are written (and flushed to disk) first, and only then
// is the progress file replaced, atomically, by one that records the SDK's checkpoint after that page and the
// output's length in bytes. A run that dies in between leaves lines past the recorded length: the next run
// cuts the file back to that length and resumes from the recorded checkpoint, so the page is read again,
// neither lost nor written twice.
import { once } from 'node:events';
import { type FileHandle, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SyncBatch } from '@company-data/sdk';

/** A problem with the output or its progress file, told in words that say how to fix it. */
export class CopyError extends Error {
  override readonly name = 'CopyError';
}

/** What the progress file holds (JSON). */
export interface Progress {
  /** The SDK's sync checkpoint after the last page written: a sync started from it yields what the file lacks. */
  checkpoint: string;
  /** The output's length in bytes after that page; anything beyond was written but never recorded. */
  bytes: number;
  /** Records (lines) in the output up to `bytes`. */
  records: number;
  /** True once a run reached the end of the list: the checkpoint then stands for "everything so far". */
  complete: boolean;
}

/** The progress file of an output file: beside it, named after it. */
export function progressPathOf(file: string): string {
  return `${file}.checkpoint`;
}

/**
 * Reads a progress file.
 *
 * @returns the progress, or undefined when there is none.
 * @throws CopyError when the file is not one these examples wrote.
 */
export async function readProgress(path: string): Promise<Progress | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const progress = parseProgress(text);
  if (!progress)
    throw new CopyError(
      `${path} is not a progress file of these examples; delete it to start over with a full export.`,
    );
  return progress;
}

function parseProgress(text: string): Progress | undefined {
  try {
    const value = JSON.parse(text) as Partial<Progress>;
    const { checkpoint, bytes, records, complete } = value;
    if (typeof checkpoint !== 'string' || typeof complete !== 'boolean') return undefined;
    const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
    if (!count(bytes) || !count(records)) return undefined;
    return { checkpoint, bytes: bytes as number, records: records as number, complete };
  } catch {
    return undefined;
  }
}

/**
 * Replaces the progress file all at once or not at all: the new content goes to a temporary file beside it,
 * flushed to disk, then renamed over it (a rename within a directory is atomic). A run killed at any point
 * leaves the old progress or the new one, never half of one.
 */
export async function saveProgress(path: string, progress: Progress): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(progress)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Where the records go: a file whose length the progress records, or a stream (stdout) it cannot. */
type Sink = { kind: 'file'; handle: FileHandle } | { kind: 'stream'; stream: NodeJS.WritableStream };

/**
 * An NDJSON output and its progress file, opened where the last run left them. Call {@link NdjsonCopy.write}
 * once per page; it records the page only once the page is on disk.
 */
export class NdjsonCopy {
  readonly #sink: Sink;
  readonly #progressFile: string | undefined;
  #progress: Progress | undefined;
  readonly #resumed: Progress | undefined;
  readonly #dropped: number;

  private constructor(
    sink: Sink,
    progressFile: string | undefined,
    progress: Progress | undefined,
    dropped: number,
  ) {
    this.#sink = sink;
    this.#progressFile = progressFile;
    this.#progress = progress;
    this.#resumed = progress;
    this.#dropped = dropped;
  }

  /**
   * Opens the output where the progress file says the last run got to: without progress, an empty file; with
   * it, the file cut back to the recorded length (dropping a page written but never recorded).
   *
   * @param file - the NDJSON file, or undefined for stdout (progress then records no length).
   * @param progressFile - where the progress is kept, or undefined for none (stdout without a checkpoint).
   * @throws CopyError when the file is shorter than its progress says (something else changed it).
   */
  static async open(file: string | undefined, progressFile: string | undefined): Promise<NdjsonCopy> {
    const progress = progressFile ? await readProgress(progressFile) : undefined;
    if (file === undefined)
      return new NdjsonCopy({ kind: 'stream', stream: process.stdout }, progressFile, progress, 0);
    const keep = progress?.bytes ?? 0;
    const handle = await open(file, 'a+');
    const { size } = await handle.stat();
    if (size < keep) {
      await handle.close();
      throw new CopyError(
        `${file} holds ${size} bytes, but ${progressFile} says ${keep} were written: the file was changed by something else. Delete ${progressFile} to start over with a full export.`,
      );
    }
    await handle.truncate(keep);
    return new NdjsonCopy({ kind: 'file', handle }, progressFile, progress, size - keep);
  }

  /** The progress the last run left, if any (a resumed run; `complete` says whether it had finished). */
  get resumed(): Progress | undefined {
    return this.#resumed;
  }

  /** Bytes a killed run had written past its last recorded page, cut off by {@link NdjsonCopy.open}. */
  get droppedBytes(): number {
    return this.#dropped;
  }

  /** The SDK checkpoint to sync from: the last page recorded, or undefined (a full export). */
  get checkpoint(): string | undefined {
    return this.#progress?.checkpoint;
  }

  /** Records safely in the output (written and recorded). */
  get records(): number {
    return this.#progress?.records ?? 0;
  }

  /**
   * Writes the created records of one page (a batch of `run.pages()`), then records the page's checkpoint.
   *
   * @param complete - true for the last page of a run that reached the end.
   * @returns the records written.
   */
  async write<T>(batch: Pick<SyncBatch<T>, 'changes' | 'checkpoint'>, complete = false): Promise<T[]> {
    // Only what is new goes into the file: a changed or removed record is the caller's to report.
    const created = batch.changes.flatMap((change) => (change.type === 'created' ? [change.record] : []));
    const text = created.map((record) => `${JSON.stringify(record)}\n`).join('');
    const bytes = (this.#progress?.bytes ?? 0) + Buffer.byteLength(text);
    if (this.#sink.kind === 'file') {
      await this.#sink.handle.appendFile(text);
      // On disk before the progress says so: a power cut must not leave progress pointing past the data.
      await this.#sink.handle.datasync();
    } else if (text && !this.#sink.stream.write(text)) {
      await once(this.#sink.stream, 'drain'); // backpressure: at most one page waits in memory
    }
    this.#progress = {
      checkpoint: batch.checkpoint,
      bytes: this.#sink.kind === 'file' ? bytes : 0,
      records: this.records + created.length,
      complete,
    };
    if (this.#progressFile) await saveProgress(this.#progressFile, this.#progress);
    return created;
  }

  /** Records that the run reached the end: the checkpoint is now where the next sync starts. */
  async complete(checkpoint: string): Promise<void> {
    await this.write({ changes: [], checkpoint }, true);
  }

  /** Closes the output file (stdout stays open). */
  async close(): Promise<void> {
    if (this.#sink.kind === 'file') await this.#sink.handle.close();
  }
}
