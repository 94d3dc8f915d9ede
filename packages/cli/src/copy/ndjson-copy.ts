// A copy of a list as an NDJSON file (one JSON record a line), kept consistent with its progress file
// through Ctrl+C, crashes, deploys and overlapping runs. `company-data export` and `company-data sync` write
// it, and so do the examples that show how (examples/export-calls-ndjson.ts, examples/sync-calls.ts): they
// share the file format, so a finished export is where the daily sync takes over.
//
// The rules that make it exactly-once:
// - One run at a time: the destination's lock is taken before the progress is read (./file-lock.ts), and
//   checked before each page is recorded.
// - A page's lines are written (and flushed to disk) first, and only then is the progress file replaced,
//   atomically, by one that records the SDK's checkpoint after that page and the output's length in bytes.
//   A run that dies in between leaves lines past the recorded length: the next run cuts the file back to
//   that length and resumes from the recorded checkpoint, so the page is read again, neither lost nor
//   written twice.
import { once } from 'node:events';
import { type FileHandle, open, readFile } from 'node:fs/promises';
import type { SyncBatch } from '@company-data/sdk';
import { writeAtomically } from '../files/write-atomically.js';
import type { CopyDestination } from './destination.js';
import { CopyError } from './errors.js';
import { type CopyLock, type LockOptions, lockFile } from './file-lock.js';

/**
 * What the progress file of an NDJSON copy holds (JSON).
 *
 * @example
 * ```ts
 * const progress: Progress = { checkpoint: run.checkpoint, bytes: 2_048, records: 12, complete: false };
 * ```
 */
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

/**
 * The progress file of an output file: beside it, named after it.
 *
 * @param file - the NDJSON file.
 * @returns its progress file's path.
 * @example
 * ```ts
 * progressPathOf('calls.ndjson'); // 'calls.ndjson.checkpoint'
 * ```
 */
export function progressPathOf(file: string): string {
  return `${file}.checkpoint`;
}

/**
 * Reads a progress file.
 *
 * @param path - the progress file.
 * @returns the progress, or undefined when there is none.
 * @throws {@link CopyError} when the file is not a progress file of an NDJSON copy.
 * @example
 * ```ts
 * const progress = await readProgress('calls.ndjson.checkpoint');
 * if (progress?.complete) console.log(`${progress.records} calls, complete`);
 * ```
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
      `${path} is not the progress file of an NDJSON copy; delete it to start over with a full export.`,
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

/** Where the records go: a file whose length the progress records, or a stream (stdout) it cannot. */
type Sink = { kind: 'file'; handle: FileHandle } | { kind: 'stream'; stream: NodeJS.WritableStream };

/**
 * How to open an NDJSON copy.
 *
 * @example
 * ```ts
 * const options: NdjsonCopyOptions = { lock: { wait: 60_000, command: 'nightly export' } };
 * ```
 */
export interface NdjsonCopyOptions {
  /** Where the progress is kept. Default: {@link progressPathOf} the file; for stdout, none. */
  progressFile?: string | undefined;
  /**
   * How to take the lock of the destination (the file; for stdout, the progress file). Default: refuse at
   * once when another run holds it. `false` takes no lock: only for a destination nothing else can reach.
   */
  lock?: LockOptions | false | undefined;
  /** Where records go when there is no file. Default: `process.stdout`. */
  stdout?: NodeJS.WritableStream | undefined;
}

/**
 * An NDJSON copy of a list and its progress file, opened where the last run left them, held by this run
 * alone. Call {@link NdjsonCopy.write} once per page of `run.pages()`; it records the page only once its
 * lines are on disk. Only created records go into the file: a changed or removed record (with a look-back
 * window) is the caller's to report, since an append-only file cannot apply them.
 *
 * @example
 * ```ts
 * import { NdjsonCopy } from '@company-data/cli/copy';
 *
 * const copy = await NdjsonCopy.open('calls.ndjson'); // throws CopyLockedError while another run holds it
 * try {
 *   const run = client.calls.sync({ checkpoint: copy.checkpoint });
 *   for await (const batch of run.pages()) await copy.write(batch);
 *   await copy.complete(run.checkpoint);
 * } finally {
 *   await copy.close();
 * }
 * ```
 */
export class NdjsonCopy implements CopyDestination {
  /** An append-only file: `changed` and `removed` changes are reported, not applied. */
  readonly appliesChanges = false;
  readonly #sink: Sink;
  readonly #progressFile: string | undefined;
  readonly #lock: CopyLock | undefined;
  #progress: Progress | undefined;
  readonly #resumed: Progress | undefined;
  readonly #dropped: number;

  private constructor(
    sink: Sink,
    progressFile: string | undefined,
    lock: CopyLock | undefined,
    progress: Progress | undefined,
    dropped: number,
  ) {
    this.#sink = sink;
    this.#progressFile = progressFile;
    this.#lock = lock;
    this.#progress = progress;
    this.#resumed = progress;
    this.#dropped = dropped;
  }

  /**
   * Takes the destination's lock, then opens the output where the progress file says the last run got to:
   * without progress, an empty file; with it, the file cut back to the recorded length (dropping a page
   * written but never recorded).
   *
   * @param file - the NDJSON file, or undefined for stdout (progress then records no length).
   * @param options - the progress file and the lock.
   * @returns the copy, held by this run until {@link NdjsonCopy.close}.
   * @throws {@link CopyLockedError} when another run holds the destination.
   * @throws {@link CopyError} when the file is shorter than its progress says (something else changed it),
   * or the progress file is not one this class wrote.
   */
  static async open(file: string | undefined, options: NdjsonCopyOptions = {}): Promise<NdjsonCopy> {
    const progressFile = options.progressFile ?? (file === undefined ? undefined : progressPathOf(file));
    const target = file ?? progressFile;
    const lock =
      options.lock === false || target === undefined ? undefined : await lockFile(target, options.lock);
    try {
      const progress = progressFile ? await readProgress(progressFile) : undefined;
      if (file === undefined) {
        const sink: Sink = { kind: 'stream', stream: options.stdout ?? process.stdout };
        return new NdjsonCopy(sink, progressFile, lock, progress, 0);
      }
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
      return new NdjsonCopy({ kind: 'file', handle }, progressFile, lock, progress, size - keep);
    } catch (error) {
      await lock?.release();
      throw error;
    }
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
   * @param batch - the page's changes and the checkpoint after it.
   * @param complete - true for the last page of a run that reached the end.
   * @returns the records written.
   * @throws {@link LockLostError} when another run took the destination over: nothing of the page is written.
   */
  async write<T>(batch: Pick<SyncBatch<T>, 'changes' | 'checkpoint'>, complete = false): Promise<T[]> {
    await this.#lock?.assertHeld();
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
    if (this.#progressFile) {
      await this.#lock?.assertHeld(); // taken over while the page was written: do not record it
      await writeAtomically(this.#progressFile, `${JSON.stringify(this.#progress)}\n`);
    }
    return created;
  }

  /**
   * Records that the run reached the end: the checkpoint is now where the next sync starts.
   *
   * @param checkpoint - `run.checkpoint` once the run completed.
   * @throws {@link LockLostError} as {@link NdjsonCopy.write} does.
   */
  async complete(checkpoint: string): Promise<void> {
    await this.write({ changes: [], checkpoint }, true);
  }

  /** Closes the output file (stdout stays open) and lets the next run in. */
  async close(): Promise<void> {
    try {
      if (this.#sink.kind === 'file') await this.#sink.handle.close();
    } finally {
      await this.#lock?.release();
    }
  }
}
