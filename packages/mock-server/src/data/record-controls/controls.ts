import type { DataResource } from '@company-data/contract';
import type { CreateFields, RecordEditor } from './editor.js';
import type { MUTABLE_FIELDS, RecordByResource } from './fields.js';

/** The fields an update may change, per resource (see `docs/spec-gaps.md`). */
export type UpdateFields<Resource extends DataResource> = Partial<
  Pick<
    RecordByResource[Resource],
    Extract<(typeof MUTABLE_FIELDS)[Resource][number], keyof RecordByResource[Resource]>
  >
>;

/** Which company a record control works on. */
export interface RecordOptions {
  /** Company id or name (default: the primary company). */
  company?: string;
}

/**
 * Creates, updates, deletes and reads the records the data endpoints serve, per company. Every change is
 * seen at once by every list (counts, `total_pages`, filters, both orderings) and by-id endpoint, and is
 * journaled ({@link MockServer.changes}). `reset()` returns to the initial records.
 *
 * @example
 * ```ts
 * const server = createMockServer({ clock: 'frozen' });
 * const call = server.records.create('calls', { source: 'voice_agent' }); // created_at: the clock's now
 * server.records.update('calls', call.id, { is_excused: true });           // excused_at: now, a reason drawn
 * server.records.update('users', server.records.create('users').id, { is_active: false });
 * server.records.delete('calls', call.id);                                  // 404 from now on
 * ```
 */
export interface RecordControls {
  /**
   * Creates a record. Give only the fields the test cares about: the rest is generated as the seeded data
   * is (a call or recording gets a transcript too), `created_at` is the mock clock's now (to the second)
   * and `id` a uuid from the server's seeded stream, so the same seed and controls give the same records.
   * A call or recording names its user as `user: { id }` (an existing user of the company), or gets one
   * of the company's users. A created call is not excused unless `is_excused` says so.
   *
   * @param resource - `users`, `teams`, `recordings` or `calls`.
   * @param fields - any fields of the record, checked against the contract.
   * @param options - the company (default: the primary one).
   * @returns the record as the API answers it.
   * @throws Error for an unknown field (with a did-you-mean), a wrong type, an inconsistent value, an id
   * that exists, an unknown user or company.
   * @example
   * ```ts
   * const user = server.records.create('users', { first_name: 'Ada', is_active: true });
   * const call = server.records.create('calls', { user: { id: user.id }, created_at: '2026-05-31T09:00:00Z' });
   * ```
   */
  create<Resource extends DataResource>(
    resource: Resource,
    fields?: CreateFields<Resource>,
    options?: RecordOptions,
  ): RecordByResource[Resource];
  /**
   * Changes fields of a record: a user's `first_name`, `last_name` (`full_name` follows), `email`,
   * `is_active`, `permissions`; a team's `name`, `description`; a recording's `name`, `score`,
   * `custom_fields`; a call's excusal (`is_excused: true` sets `excused_at` to now unless given and draws a
   * reason unless given; `false` clears both), `summary`, `sentiment`, `score`, `is_qualified`, `is_booked`,
   * `is_cancellation`, `has_cancellation`. `id` and `created_at` never change. A change that changes
   * nothing is not journaled.
   *
   * @param resource - the record's resource.
   * @param id - the record's id (any letter case).
   * @param fields - the fields to change.
   * @param options - the company (default: the primary one).
   * @returns the record as the API now answers it.
   * @throws RecordNotFoundError for an unknown or deleted id; Error for an unknown or unchangeable field,
   * a wrong type or contradicting values.
   * @example
   * ```ts
   * server.records.update('users', userId, { is_active: false });
   * ```
   */
  update<Resource extends DataResource>(
    resource: Resource,
    id: string,
    fields: UpdateFields<Resource>,
    options?: RecordOptions,
  ): RecordByResource[Resource];
  /**
   * Deletes a record: its by-id endpoints answer 404 and it leaves every list. Records that embed a
   * deleted user keep their embedded copy.
   *
   * @param resource - the record's resource.
   * @param id - the record's id.
   * @param options - the company (default: the primary one).
   * @throws RecordNotFoundError for an unknown or already deleted id.
   * @example
   * ```ts
   * server.records.delete('recordings', recordingId);
   * ```
   */
  delete(resource: DataResource, id: string, options?: RecordOptions): void;
  /**
   * The record as stored now, or undefined (unknown or deleted).
   *
   * @param resource - the record's resource.
   * @param id - the record's id (any letter case).
   * @param options - the company (default: the primary one).
   * @example
   * ```ts
   * expect(server.records.get('users', userId)?.is_active).toBe(false);
   * ```
   */
  get<Resource extends DataResource>(
    resource: Resource,
    id: string,
    options?: RecordOptions,
  ): RecordByResource[Resource] | undefined;
}

/**
 * The record controls over an editor, each change journaled with origin `control`.
 *
 * @param editor - the mutation path.
 */
export function recordControls(editor: RecordEditor): RecordControls {
  const context = (options: RecordOptions | undefined) => ({
    origin: 'control' as const,
    company: options?.company,
  });
  return {
    create: (resource, fields, options) =>
      editor.apply({ kind: 'create', resource, fields }, context(options)) as never,
    update: (resource, id, fields, options) =>
      editor.apply({ kind: 'update', resource, id, fields }, context(options)) as never,
    delete: (resource, id, options) => {
      editor.apply({ kind: 'delete', resource, id }, context(options));
    },
    get: (resource, id, options) => editor.find(resource, id, options?.company) as never,
  };
}
