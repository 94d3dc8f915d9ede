import type { User, UserListQuery } from '@company-data/contract';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { SyncOptions, SyncRequestOptions } from '../core/sync-changes.js';
import type { PagePromise } from '../pagination/page-promise.js';
import type { APIPromise } from '../request/api-promise.js';
import type { RequestCore } from '../request/request-core.js';
import type { SyncRun } from '../sync/run.js';
import { listOperation, retrieveOperation, syncOperation } from './operations.js';

/**
 * The company's users: `client.users`.
 *
 * @example
 * ```ts
 * for await (const user of client.users.list({ is_active: true })) console.log(user.full_name);
 * ```
 */
export class Users {
  readonly #core: RequestCore;

  /** @internal */
  constructor(core: RequestCore) {
    this.#core = core;
  }

  /**
   * Lists users, newest first unless `ordering` says otherwise.
   *
   * @param params - `is_active`, `page`, `page_size` (1–100), `ordering`.
   * @param options - request options, plus `concurrency` and `onCountChange` for iteration.
   * @returns the first page when awaited; every user when iterated with `for await`.
   * @throws {@link ValidationError} for out-of-range parameters (nothing is sent), and the request's
   * errors ({@link AuthenticationError}, {@link RateLimitError}, ...).
   * @example
   * ```ts
   * const page = await client.users.list({ is_active: true, page_size: 100 });
   * console.log(page.pagination.count, page.data[0]?.email);
   * ```
   */
  list(params?: UserListQuery, options?: ListOptions): PagePromise<User> {
    return listOperation(this.#core, 'listUsers', params, options);
  }

  /**
   * Reads only what is new since the last run: every user created since `checkpoint`, newest first, each
   * exactly once even while users are created and deleted during the run, and the checkpoint to store for
   * the next run. Without a checkpoint, a full export that an interrupt does not lose: resume it from its
   * last `run.checkpoint`. With `lookBack`, users of that window before the checkpoint whose content
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
   * const run = client.users.sync({ checkpoint: await load(), params: { is_active: true } });
   * for await (const change of run) if (change.type === 'created') await save(change.record);
   * await store(run.checkpoint);
   * ```
   */
  sync(options?: SyncOptions<UserListQuery>, requestOptions?: SyncRequestOptions): SyncRun<User> {
    return syncOperation(this.#core, 'listUsers', options, requestOptions);
  }

  /**
   * Retrieves one user.
   *
   * @param id - the user's uuid.
   * @param options - request options.
   * @returns the user.
   * @throws {@link NotFoundError} when no user of your company has this id; {@link ValidationError} when
   * `id` is not a uuid (nothing is sent).
   * @example
   * ```ts
   * const user = await client.users.retrieve('3f0c2a9e-4b1d-4c1e-9a7b-2d5e8f6a1b3c');
   * ```
   */
  retrieve(id: string, options?: RequestOptions): APIPromise<User> {
    return retrieveOperation(this.#core, 'retrieveUser', id, options);
  }
}
