import type { Call, CallListQuery, CallTranscript } from '@company-data/contract';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { SyncOptions, SyncRequestOptions } from '../core/sync-changes.js';
import type { PagePromise } from '../pagination/page-promise.js';
import type { APIPromise } from '../request/api-promise.js';
import type { RequestCore } from '../request/request-core.js';
import type { SyncRun } from '../sync/run.js';
import { listOperation, retrieveOperation, syncOperation } from './operations.js';

/**
 * The company's contact-center calls: `client.calls`.
 *
 * @example
 * ```ts
 * for await (const call of client.calls.list({ source: 'voice_agent' })) console.log(call.summary);
 * ```
 */
export class Calls {
  readonly #core: RequestCore;

  /** @internal */
  constructor(core: RequestCore) {
    this.#core = core;
  }

  /**
   * Lists calls, newest first unless `ordering` says otherwise.
   *
   * @param params - `source` (`'integration'` or `'voice_agent'`), `page`, `page_size` (1–100), `ordering`.
   * @param options - request options, plus `concurrency` and `onCountChange` for iteration.
   * @returns the first page when awaited; every call when iterated with `for await`.
   * @throws {@link PermissionDeniedError} when the key lacks the calls permission, and the request's other
   * errors.
   * @example
   * ```ts
   * let booked = 0;
   * for await (const call of client.calls.list({ page_size: 100 }, { concurrency: 4 })) {
   *   if (call.is_booked) booked++;
   * }
   * ```
   */
  list(params?: CallListQuery, options?: ListOptions): PagePromise<Call> {
    return listOperation(this.#core, 'listCalls', params, options);
  }

  /**
   * Reads only what is new since the last run: every call created since `checkpoint`, newest first, each
   * exactly once even while calls are created and deleted during the run, and the checkpoint to store for
   * the next run. Without a checkpoint, a full export that an interrupt does not lose: resume it from its
   * last `run.checkpoint`. With `lookBack`, calls of that window before the checkpoint whose content
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
   * const run = client.calls.sync({ checkpoint: await load(), params: { source: 'voice_agent' } });
   * for await (const change of run) if (change.type === 'created') await save(change.record);
   * await store(run.checkpoint);
   * ```
   */
  sync(options?: SyncOptions<CallListQuery>, requestOptions?: SyncRequestOptions): SyncRun<Call> {
    return syncOperation(this.#core, 'listCalls', options, requestOptions);
  }

  /**
   * Retrieves one call.
   *
   * @param id - the call's uuid.
   * @param options - request options.
   * @returns the call.
   * @throws {@link NotFoundError} when no call of your company has this id.
   * @example
   * ```ts
   * const call = await client.calls.retrieve(id);
   * ```
   */
  retrieve(id: string, options?: RequestOptions): APIPromise<Call> {
    return retrieveOperation(this.#core, 'retrieveCall', id, options);
  }

  /**
   * Retrieves the transcript of a call: segments with role labels (no word timings).
   *
   * @param id - the call's uuid.
   * @param options - request options.
   * @returns the transcript.
   * @throws {@link NotFoundError} when the call is not found.
   * @example
   * ```ts
   * const { transcript } = await client.calls.transcript(id);
   * ```
   */
  transcript(id: string, options?: RequestOptions): APIPromise<CallTranscript> {
    return retrieveOperation(this.#core, 'retrieveCallTranscript', id, options);
  }
}
