import type { ListQuery, Team } from '@company-data/contract';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { SyncOptions, SyncRequestOptions } from '../core/sync-changes.js';
import type { PagePromise } from '../pagination/page-promise.js';
import type { APIPromise } from '../request/api-promise.js';
import type { RequestCore } from '../request/request-core.js';
import type { SyncRun } from '../sync/run.js';
import { listOperation, retrieveOperation, syncOperation } from './operations.js';

/**
 * The company's teams: `client.teams`.
 *
 * @example
 * ```ts
 * const teams = await client.teams.list().toArray();
 * ```
 */
export class Teams {
  readonly #core: RequestCore;

  /** @internal */
  constructor(core: RequestCore) {
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
   * Reads only what is new since the last run: every team created since `checkpoint`, newest first, each
   * exactly once even while teams are created and deleted during the run, and the checkpoint to store for
   * the next run. Without a checkpoint, a full export that an interrupt does not lose: resume it from its
   * last `run.checkpoint`. With `lookBack`, teams of that window before the checkpoint whose content
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
   * const run = client.teams.sync({ checkpoint: await load() });
   * for await (const change of run) if (change.type === 'created') await save(change.record);
   * await store(run.checkpoint);
   * ```
   */
  sync(options?: SyncOptions<ListQuery>, requestOptions?: SyncRequestOptions): SyncRun<Team> {
    return syncOperation(this.#core, 'listTeams', options, requestOptions);
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
