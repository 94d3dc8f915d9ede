import { CompanyDataError } from '../core/errors.js';
import type { SyncBatch, SyncChange } from '../core/sync-changes.js';
import type { SyncScan } from './scan.js';

/**
 * What a run of `client.<list>.sync()` is made of: the checkpoint it starts from, and the scan that reads
 * the list (or the error that refused the run's input).
 *
 * @typeParam Item - the list's record type.
 * @internal
 */
export interface SyncRunSource<Item> {
  /**
   * The checkpoint before the scan starts: the one given, unchanged (also when it was refused, so that
   * storing it loses nothing), or the empty state's.
   */
  initial: string;
  /** Starts the scan; throws the refusal of the run's input, if any. */
  scan: () => SyncScan<Item>;
  /** The method, as messages name it, e.g. `client.calls.sync()`. */
  method: string;
}

/**
 * One run of `client.<list>.sync()`: every record created since the checkpoint, newest first, each
 * exactly once, and the checkpoint to store for the next run. Iterate it for each change, or `.pages()`
 * for a batch per page with the checkpoint after it. A run is iterated once.
 *
 * Stop it at any time (a `break`, an aborted `signal`, a crash after you stored `run.checkpoint`): a run
 * started from `run.checkpoint` yields exactly what this one had not yielded yet, with no duplicate and no
 * gap, even while records are created and deleted meanwhile. The input is checked when iteration begins:
 * a bad checkpoint, option or parameter rejects the first step with a {@link ValidationError} (or
 * {@link ConfigurationError}) and sends nothing.
 *
 * @typeParam Item - the list's record type.
 * @example
 * ```ts
 * import { readFile, writeFile } from 'node:fs/promises';
 *
 * const saved = await readFile('calls.checkpoint', 'utf8').catch(() => undefined);
 * const run = client.calls.sync({ checkpoint: saved });
 * for await (const batch of run.pages()) {
 *   for (const change of batch.changes) if (change.type === 'created') console.log(change.record.id);
 *   await writeFile('calls.checkpoint', batch.checkpoint);
 * }
 * ```
 */
export class SyncRun<Item> implements AsyncIterable<SyncChange<Item>> {
  readonly #source: SyncRunSource<Item>;
  #scan: SyncScan<Item> | undefined;
  #started = false;
  /** Iterated by `pages()`: the checkpoint of the last batch yielded (a page half read is not delivered). */
  #delivered: string | undefined;

  /**
   * @param source - the starting state and the scan.
   * @internal
   */
  constructor(source: SyncRunSource<Item>) {
    this.#source = source;
  }

  /**
   * The progress so far, as a checkpoint to store: before iteration, the checkpoint given (unchanged, even
   * when the run refused it); iterated by `pages()`, the checkpoint of the last batch yielded;
   * after each change yielded, the checkpoint after it; once the run completed, the checkpoint of the
   * next run. JSON text a person can read, naming the list and its filters.
   *
   * @example
   * ```ts
   * const run = client.users.sync({ checkpoint: saved });
   * for await (const change of run) await upsert(change);
   * await save(run.checkpoint);
   * ```
   */
  get checkpoint(): string {
    if (this.#delivered !== undefined) return this.#delivered;
    const scan = this.#scan;
    return scan === undefined ? this.#source.initial : scan.checkpoint();
  }

  /**
   * Yields a batch per page read: its changes (possibly none, e.g. a page of the look-back window with no
   * change), and the checkpoint once the batch is stored. The last batch carries the removals, if any.
   *
   * @returns an async iterator of batches.
   * @throws {@link ValidationError} for a refused checkpoint or parameter, {@link ConfigurationError} for a
   * refused option, {@link CompanyDataError} (code `sync_already_iterated`) when the run was iterated
   * before, and the requests' errors (the checkpoint then still holds every batch yielded).
   * @example
   * ```ts
   * // A page and its checkpoint in one transaction (`db` is a connected `pg` client): both stored, or neither.
   * for await (const batch of client.calls.sync({ checkpoint: saved }).pages()) {
   *   await db.query('begin');
   *   for (const change of batch.changes) {
   *     if (change.type === 'removed') await db.query('delete from calls where id = $1', [change.id]);
   *     else await db.query('insert into calls values ($1, $2) on conflict (id) do update set record = $2', [change.record.id, change.record]);
   *   }
   *   await db.query("update checkpoints set checkpoint = $1 where list = 'calls'", [batch.checkpoint]);
   *   await db.query('commit');
   * }
   * ```
   */
  async *pages(): AsyncGenerator<SyncBatch<Item>, void, undefined> {
    const events = this.#events();
    this.#delivered = this.#source.initial;
    let changes: SyncChange<Item>[] = [];
    for await (const event of events) {
      if ('change' in event) changes.push(event.change);
      else {
        const checkpoint = (this.#scan as SyncScan<Item>).checkpoint();
        this.#delivered = checkpoint;
        yield { changes, checkpoint, page: event.pageDone, records: event.records, passed: event.passed };
        changes = [];
      }
    }
  }

  /**
   * Yields every change, newest first; `run.checkpoint` then stands after the change just yielded.
   *
   * @returns an async iterator of changes.
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<SyncChange<Item>, void, undefined> {
    for await (const event of this.#events()) if ('change' in event) yield event.change;
  }

  /** `'SyncRun'`, for `Object.prototype.toString`. */
  get [Symbol.toStringTag](): string {
    return 'SyncRun';
  }

  #events() {
    if (this.#started) {
      throw new CompanyDataError(
        'sync_already_iterated',
        `This run of ${this.#source.method} was iterated already: start another with ${this.#source.method.replace('()', '({ checkpoint: run.checkpoint })')}.`,
      );
    }
    this.#started = true;
    this.#scan = this.#source.scan();
    return this.#scan.changes();
  }
}
