import type { ListQuery, Recording, RecordingDetail, RecordingTranscript } from '@company-data/contract';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { SyncOptions, SyncRequestOptions } from '../core/sync-changes.js';
import type { PagePromise } from '../pagination/page-promise.js';
import type { APIPromise } from '../request/api-promise.js';
import type { RequestCore } from '../request/request-core.js';
import type { SyncRun } from '../sync/run.js';
import { listOperation, retrieveOperation, syncOperation } from './operations.js';

/**
 * The company's field recordings: `client.recordings`.
 *
 * @example
 * ```ts
 * const detail = await client.recordings.retrieve(id);
 * for (const field of detail.custom_fields) console.log(field.name, field.value);
 * ```
 */
export class Recordings {
  readonly #core: RequestCore;

  /** @internal */
  constructor(core: RequestCore) {
    this.#core = core;
  }

  /**
   * Lists field recordings (without custom fields), newest first unless `ordering` says otherwise.
   *
   * @param params - `page`, `page_size` (1–100), `ordering`.
   * @param options - request options, plus `concurrency` and `onCountChange` for iteration.
   * @returns the first page when awaited; every recording when iterated with `for await`.
   * @throws {@link PermissionDeniedError} when the key lacks the recordings permission, and the request's
   * other errors.
   * @example
   * ```ts
   * for await (const recording of client.recordings.list({ page_size: 100 })) console.log(recording.score);
   * ```
   */
  list(params?: ListQuery, options?: ListOptions): PagePromise<Recording> {
    return listOperation(this.#core, 'listRecordings', params, options);
  }

  /**
   * Reads only what is new since the last run: every recording created since `checkpoint`, newest first, each
   * exactly once even while recordings are created and deleted during the run, and the checkpoint to store for
   * the next run. Without a checkpoint, a full export that an interrupt does not lose: resume it from its
   * last `run.checkpoint`. With `lookBack`, recordings of that window before the checkpoint whose content
   * changed are reported too. See the guide "Keeping a copy up to date".
   *
   * @param options - `checkpoint` (from a previous run), `lookBack` (ms), `params`: `params` takes the list's filters and `page_size` (default 100); the checkpoint remembers the filters.
   * @param requestOptions - request options, plus `concurrency` and `readAhead` to fetch pages ahead (see
   * {@link SyncRequestOptions} for what deletions then cost).
   * @returns the run: iterate it for each change, or `.pages()` for batches; `run.checkpoint` is the progress.
   * @throws (on iteration) {@link ValidationError} with code `invalid_checkpoint` for a checkpoint of another
   * list or other filters, or no checkpoint at all; {@link ConfigurationError} for a refused option; and the
   * requests' errors.
   * @example
   * ```ts
   * const run = client.recordings.sync({ checkpoint: await load() });
   * for await (const change of run) if (change.type === 'created') await save(change.record);
   * await store(run.checkpoint);
   * ```
   */
  sync(options?: SyncOptions<ListQuery>, requestOptions?: SyncRequestOptions): SyncRun<Recording> {
    return syncOperation(this.#core, 'listRecordings', options, requestOptions);
  }

  /**
   * Retrieves one field recording with its custom fields.
   *
   * @param id - the recording's uuid.
   * @param options - request options.
   * @returns the recording detail.
   * @throws {@link NotFoundError} when no recording of your company has this id.
   * @example
   * ```ts
   * const { custom_fields } = await client.recordings.retrieve(id);
   * ```
   */
  retrieve(id: string, options?: RequestOptions): APIPromise<RecordingDetail> {
    return retrieveOperation(this.#core, 'retrieveRecording', id, options);
  }

  /**
   * Retrieves the transcript of a field recording: segments with speaker letters and word timings.
   *
   * @param id - the recording's uuid.
   * @param options - request options.
   * @returns the transcript.
   * @throws {@link NotFoundError} when no recording of your company has this id.
   * @example
   * ```ts
   * const { transcript } = await client.recordings.transcript(id);
   * console.log(transcript.map((segment) => `${segment.speaker}: ${segment.text}`).join('\n'));
   * ```
   */
  transcript(id: string, options?: RequestOptions): APIPromise<RecordingTranscript> {
    return retrieveOperation(this.#core, 'retrieveRecordingTranscript', id, options);
  }
}
