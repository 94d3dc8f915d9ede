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
// - Nothing of the user's is lost: a file that holds data of its own (no progress file says a copy wrote it)
//   is refused, untouched; and the output and its progress file are created only once the first page is in,
//   so a run refused before (a wrong key, an unreachable server) leaves nothing behind.
import { once } from 'node:events';
import { type FileHandle, open, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SyncBatch } from '@company-data/sdk';
import { writeAtomically } from '../files/write-atomically.js';
import type { CopyDestination } from './destination.js';
import { CopyError, DestinationRefusedError } from './errors.js';
import { type CopyLock, type LockOptions, lockFile } from './file-lock.js';

/**
 * What the progress file of an NDJSON copy holds (JSON).
 *
 * @example
 * ```ts
 * const progress: NdjsonProgress = { checkpoint: run.checkpoint, bytes: 2_048, records: 12, complete: false };
 * ```
 */
export interface NdjsonProgress {
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
 * The old name of {@link NdjsonProgress}, which the CLI's progress bar shared.
 *
 * @deprecated Use {@link NdjsonProgress}.
 * @example
 * ```ts
 * const progress: Progress = { checkpoint: run.checkpoint, bytes: 0, records: 0, complete: false };
 * ```
 */
export type Progress = NdjsonProgress;

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
export async function readProgress(path: string): Promise<NdjsonProgress | undefined> {
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
      `${path} is not the progress file of an NDJSON copy; delete it to start over with a full export (and the output it belongs to, or move both away).`,
    );
  return progress;
}

function parseProgress(text: string): NdjsonProgress | undefined {
  try {
    const value = JSON.parse(text) as Partial<NdjsonProgress>;
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
 * Where the records go: a file whose length the progress records (opened once it exists: a new file is
 * created by the first page), or a stream (stdout) it cannot.
 */
type Sink =
  | { kind: 'file'; path: string; handle: FileHandle | undefined }
  | { kind: 'stream'; stream: NodeJS.WritableStream };

/** Refuses a path whose folder does not exist (or is a file), before the lock is made beside it. */
async function checkFolderOf(path: string): Promise<void> {
  const folder = dirname(path);
  const found = await stat(folder).catch((error: NodeJS.ErrnoException) => error);
  if (found instanceof Error) {
    if (found.code !== 'ENOENT' && found.code !== 'ENOTDIR') throw found;
    throw new DestinationRefusedError(
      `the folder ${folder} does not exist: create it, or give a file in a folder that exists.`,
    );
  }
  if (!found.isDirectory())
    throw new DestinationRefusedError(
      `${folder} is a file, not a folder: give a file in a folder that exists.`,
    );
}

/** The output's size, or undefined when there is none; a folder (or a missing folder) is refused. */
async function sizeOf(file: string, list: string | undefined): Promise<number | undefined> {
  await checkFolderOf(file);
  const existing = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing?.isDirectory())
    throw new DestinationRefusedError(
      `${file} is a folder: give a file, e.g. ${join(file, `${list ?? 'copy'}.ndjson`)}.`,
    );
  return existing?.size;
}

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
  /**
   * The list the copy holds, for the file a refusal suggests when the file given is a folder
   * (`<folder>/<list>.ndjson`). Default: `copy`.
   */
  list?: string | undefined;
}

/**
 * An NDJSON copy of a list and its progress file, opened where the last run left them, held by this run
 * alone. Call {@link NdjsonCopy.write} once per page of `run.pages()`; it records the page only once its
 * lines are on disk. Only created records go into the file: a changed or removed record (with a look-back
 * window) is the caller's to report, since an append-only file cannot apply them.
 *
 * It never loses data of the user's: a file that already holds data but has no progress file (so no copy
 * wrote it) is refused and left byte for byte as it was; an empty file is taken. A new output file and its
 * progress file are created by the first page written, so a run that fails before it (a refused key, an
 * unreachable server) leaves nothing behind: no empty file, no progress file, no lock.
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
  #progress: NdjsonProgress | undefined;
  readonly #resumed: NdjsonProgress | undefined;
  readonly #dropped: number;

  private constructor(
    sink: Sink,
    progressFile: string | undefined,
    lock: CopyLock | undefined,
    progress: NdjsonProgress | undefined,
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
   * Checks the destination, takes its lock, then opens the output where the progress file says the last
   * run got to: with progress, the file cut back to the recorded length (dropping a page written but never
   * recorded); without, no file or an empty one (created, if missing, by the first {@link NdjsonCopy.write}).
   *
   * @param file - the NDJSON file, or undefined for stdout (progress then records no length).
   * @param options - the progress file and the lock.
   * @returns the copy, held by this run until {@link NdjsonCopy.close}.
   * @throws {@link DestinationRefusedError} when the file holds data of its own and no progress file says a
   * copy wrote it (left untouched: give another file, or move it away), when the file given is a folder, or
   * when its folder does not exist. Nothing is created then.
   * @throws {@link CopyLockedError} when another run holds the destination.
   * @throws {@link CopyError} when the file is shorter than its progress says (something else changed it),
   * or the progress file is not one this class wrote.
   * @throws the file system's error when the lock or the file cannot be made (a folder this user may not
   * write).
   * @example
   * ```ts
   * const copy = await NdjsonCopy.open('users.ndjson', { list: 'users', lock: { command: 'nightly users' } });
   * ```
   */
  static async open(file: string | undefined, options: NdjsonCopyOptions = {}): Promise<NdjsonCopy> {
    const progressFile = options.progressFile ?? (file === undefined ? undefined : progressPathOf(file));
    const target = file ?? progressFile;
    // Before the lock, which is made beside the file: a missing folder is named as such, not by the lock.
    if (progressFile !== undefined) await checkFolderOf(progressFile);
    if (file !== undefined) await sizeOf(file, options.list);
    const lock =
      options.lock === false || target === undefined ? undefined : await lockFile(target, options.lock);
    try {
      const progress = progressFile ? await readProgress(progressFile) : undefined;
      if (file === undefined) {
        const sink: Sink = { kind: 'stream', stream: options.stdout ?? process.stdout };
        return new NdjsonCopy(sink, progressFile, lock, progress, 0);
      }
      // Read again under the lock: what the file holds now.
      const size = await sizeOf(file, options.list);
      if (progress === undefined && size !== undefined && size > 0)
        throw notACopy(file, size, progressFile ?? progressPathOf(file));
      const keep = progress?.bytes ?? 0;
      if (size === undefined) {
        if (keep > 0)
          throw new CopyError(
            `${file} does not exist, but ${progressFile} says ${keep} bytes were written: it was moved or deleted. Put it back, or delete ${progressFile} to start over with a full export.`,
          );
        return new NdjsonCopy(
          { kind: 'file', path: file, handle: undefined },
          progressFile,
          lock,
          progress,
          0,
        );
      }
      const handle = await open(file, 'a+');
      const { size: held } = await handle.stat();
      if (held < keep) {
        await handle.close();
        throw new CopyError(
          `${file} holds ${held} bytes, but ${progressFile} says ${keep} were written: the file was changed by something else. Delete (or move away) ${file} and ${progressFile} to start over with a full export.`,
        );
      }
      if (held > keep) await handle.truncate(keep);
      return new NdjsonCopy({ kind: 'file', path: file, handle }, progressFile, lock, progress, held - keep);
    } catch (error) {
      await lock?.release();
      throw error;
    }
  }

  /** The progress the last run left, if any (a resumed run; `complete` says whether it had finished). */
  get resumed(): NdjsonProgress | undefined {
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
      const handle = await this.#fileHandle(this.#sink);
      await handle.appendFile(text);
      // On disk before the progress says so: a power cut must not leave progress pointing past the data.
      await handle.datasync();
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
      if (this.#sink.kind === 'file') await this.#sink.handle?.close();
    } finally {
      await this.#lock?.release();
    }
  }

  /**
   * The output file, opened (and made, when missing) by the first page. Something else may have written it
   * since {@link NdjsonCopy.open} looked: then it is refused as open refuses it, nothing of ours written.
   */
  async #fileHandle(sink: Extract<Sink, { kind: 'file' }>): Promise<FileHandle> {
    if (sink.handle) return sink.handle;
    const handle = await open(sink.path, 'a+');
    const { size } = await handle.stat();
    if (size > 0) {
      await handle.close();
      throw notACopy(sink.path, size, this.#progressFile ?? progressPathOf(sink.path));
    }
    sink.handle = handle;
    return handle;
  }
}

/** The refusal of a file that holds data no copy wrote. */
function notACopy(file: string, size: number, progressFile: string): DestinationRefusedError {
  return new DestinationRefusedError(
    `${file} already holds ${size} bytes, and no progress file (${progressFile}) says a copy wrote them: it was left untouched. Give another file name, or move it away.`,
  );
}
