import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CallTranscriptSegment, RecordingDetail, RecordingTranscriptSegment } from '@company-data/sdk';
import { UsageError } from '../errors.js';

/** What a snapshot fetched for one recording or call beyond its list item. */
export type DetailEntry =
  | {
      readonly kind: 'recording';
      readonly id: string;
      readonly detail: RecordingDetail;
      readonly transcript: RecordingTranscriptSegment[];
    }
  | { readonly kind: 'call'; readonly id: string; readonly transcript: CallTranscriptSegment[] };

interface Header {
  readonly company_data_snapshot: 1;
  readonly baseURL: string;
}

/**
 * The progress of a snapshot, so that a rerun after an interruption fetches only what is missing. One
 * NDJSON file per output path: a header line, then one line per recording or call whose details were
 * fetched. It lives in the system's temporary directory, never beside the fixture (it holds the data as the
 * API returned it, before any anonymisation, and must not be committed by accident), readable by the user
 * only, and is deleted once the fixture is written, or when a run stops before it holds anything to resume
 * (a refused key, a failed list).
 */
export class Checkpoint {
  /** Where it is. */
  readonly path: string;
  /** Entries a previous, interrupted run fetched, by `kind:id`. */
  readonly resumed: ReadonlyMap<string, DetailEntry>;
  #writing: Promise<void>;
  readonly #handle: FileHandle;
  /** The entries in the file: those resumed and those saved since. */
  #entries: number;

  private constructor(path: string, handle: FileHandle, resumed: Map<string, DetailEntry>) {
    this.path = path;
    this.#handle = handle;
    this.resumed = resumed;
    this.#writing = Promise.resolve();
    this.#entries = resumed.size;
  }

  /**
   * Opens the checkpoint of `output`: resumes an interrupted snapshot of the same server, or starts a new
   * one (`fresh`, or none there).
   *
   * @throws UsageError when an interrupted snapshot of another server is there and `fresh` is not set.
   */
  static async open(output: string, baseURL: string, fresh: boolean): Promise<Checkpoint> {
    const path = checkpointPath(output);
    const resumed = fresh ? new Map<string, DetailEntry>() : await readEntries(path, baseURL);
    const handle = await openInFolder(path, resumed.size > 0 ? 'a' : 'w');
    const checkpoint = new Checkpoint(path, handle, resumed);
    if (resumed.size === 0) await checkpoint.#append({ company_data_snapshot: 1, baseURL } satisfies Header);
    return checkpoint;
  }

  /** Records a fetched entry; lines are written one after the other, each complete. */
  save(entry: DetailEntry): Promise<void> {
    this.#entries++;
    return this.#append(entry);
  }

  /** Closes the file, keeping it for a later run to resume from; one with nothing to resume is deleted. */
  async close(): Promise<void> {
    await this.#writing.catch(() => undefined);
    await this.#handle.close();
    if (this.#entries === 0) await this.#delete();
  }

  /** Closes and deletes the file: the snapshot is complete. */
  async remove(): Promise<void> {
    await this.close();
    await this.#delete();
  }

  /** Deletes the file, and the folder of checkpoints with it when no other snapshot waits in it. */
  async #delete(): Promise<void> {
    await rm(this.path, { force: true });
    // ENOTEMPTY (another checkpoint) or ENOENT (removed meanwhile): the folder stays as it is.
    await rmdir(dirname(this.path)).catch(() => undefined);
  }

  #append(value: unknown): Promise<void> {
    const line = `${JSON.stringify(value)}\n`;
    this.#writing = this.#writing.then(async () => {
      await this.#handle.write(line);
    });
    return this.#writing;
  }
}

const DIRECTORY = 'company-data-snapshots';

/**
 * Opens a checkpoint, creating the folder first. Another snapshot that just ended may remove the folder
 * between the two (it removes it when empty): then it is created again.
 */
async function openInFolder(path: string, flags: 'a' | 'w'): Promise<FileHandle> {
  for (let attempt = 1; ; attempt++) {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    try {
      return await open(path, flags, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 3) throw error;
    }
  }
}

/**
 * The checkpoint file of an output path (absolute).
 *
 * @param output - the fixture's absolute path.
 */
export function checkpointPath(output: string): string {
  const digest = createHash('sha256').update(output).digest('hex').slice(0, 32);
  return join(tmpdir(), DIRECTORY, `${digest}.ndjson`);
}

async function readEntries(path: string, baseURL: string): Promise<Map<string, DetailEntry>> {
  const entries = new Map<string, DetailEntry>();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return entries;
  }
  // A kill can cut the last line short: only lines ended by a newline are complete.
  const lines = text.split('\n').slice(0, -1);
  const header = parseLine(lines[0]) as Partial<Header> | undefined;
  if (header?.company_data_snapshot !== 1) return entries;
  if (header.baseURL !== baseURL) {
    throw new UsageError(
      `An interrupted snapshot to the same file, read from another server (${header.baseURL}), is waiting in ${path}. Pass --fresh to discard it and start over.`,
    );
  }
  for (const line of lines.slice(1)) {
    const entry = parseLine(line) as DetailEntry | undefined;
    if ((entry?.kind === 'recording' || entry?.kind === 'call') && typeof entry.id === 'string')
      entries.set(`${entry.kind}:${entry.id}`, entry);
  }
  return entries;
}

function parseLine(line: string | undefined): unknown {
  try {
    return line === undefined ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
}
