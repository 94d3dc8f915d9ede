import type { User, UserListQuery } from '@company-data/contract';
import type { APIPromise } from '../core/api-promise.js';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { listOperation, retrieveOperation } from '../internal/operations.js';
import type { Core } from '../internal/request-core.js';

/**
 * The company's users: `client.users`.
 *
 * @example
 * ```ts
 * for await (const user of client.users.list({ is_active: true })) console.log(user.full_name);
 * ```
 */
export class Users {
  readonly #core: Core;

  /** @internal */
  constructor(core: Core) {
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
