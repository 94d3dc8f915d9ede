import type { ListQuery, Team } from '@company-data/contract';
import type { APIPromise } from '../core/api-promise.js';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { listOperation, retrieveOperation } from '../internal/operations.js';
import type { Core } from '../internal/request-core.js';

/**
 * The company's teams: `client.teams`.
 *
 * @example
 * ```ts
 * const teams = await client.teams.list().toArray();
 * ```
 */
export class Teams {
  readonly #core: Core;

  /** @internal */
  constructor(core: Core) {
    this.#core = core;
  }

  /**
   * Lists teams, newest first unless `ordering` says otherwise.
   *
   * @param params - `page`, `page_size` (1–100), `ordering`.
   * @param options - request options, plus `concurrency` and `onCountChange` for iteration.
   * @returns the first page when awaited; every team when iterated with `for await`.
   * @throws {@link ValidationError} for out-of-range parameters (nothing is sent), and the request's errors.
   * @example
   * ```ts
   * for await (const team of client.teams.list({ ordering: 'created_at' })) console.log(team.name);
   * ```
   */
  list(params?: ListQuery, options?: ListOptions): PagePromise<Team> {
    return listOperation(this.#core, 'listTeams', params, options);
  }

  /**
   * Retrieves one team.
   *
   * @param id - the team's uuid.
   * @param options - request options.
   * @returns the team.
   * @throws {@link NotFoundError} when no team of your company has this id.
   * @example
   * ```ts
   * const team = await client.teams.retrieve(id);
   * ```
   */
  retrieve(id: string, options?: RequestOptions): APIPromise<Team> {
    return retrieveOperation(this.#core, 'retrieveTeam', id, options);
  }
}
