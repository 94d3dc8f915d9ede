import {
  Call,
  closestName,
  type DataResource,
  RecordingDetail,
  Team,
  User,
  UserRef,
} from '@company-data/contract';
import type { z } from 'zod';

/**
 * The fields an update may change, per resource: what changes on the real API after a record exists (a
 * user deactivated or renamed, a call excused late, a recording re-scored). `id` and `created_at` never
 * change; neither do a record's timings, its `source` or its embedded `user`.
 */
export const MUTABLE_FIELDS = {
  users: ['first_name', 'last_name', 'email', 'is_active', 'permissions'],
  teams: ['name', 'description'],
  recordings: ['name', 'score', 'custom_fields'],
  calls: [
    'is_excused',
    'excused_at',
    'excuse_reason',
    'summary',
    'sentiment',
    'score',
    'is_qualified',
    'is_booked',
    'is_cancellation',
    'has_cancellation',
  ],
} as const satisfies Record<DataResource, readonly string[]>;

/** Fields derived from others: never given, always recomputed. */
const DERIVED_FIELDS: Partial<Record<DataResource, Readonly<Record<string, string>>>> = {
  users: { full_name: 'first_name and last_name' },
};

/** The contract's schema of each resource's record (a recording with its custom fields). */
export const RECORD_SCHEMAS = {
  users: User,
  teams: Team,
  recordings: RecordingDetail,
  calls: Call,
} as const satisfies Record<DataResource, z.ZodObject>;

/**
 * The record of each resource, as stored and as the record controls return it.
 *
 * @example
 * ```ts
 * const call: RecordByResource['calls'] = server.records.create('calls', { is_excused: false });
 * ```
 */
export interface RecordByResource {
  users: User;
  teams: Team;
  recordings: RecordingDetail;
  calls: Call;
}

/**
 * The old name of {@link RecordByResource}.
 *
 * @deprecated Use {@link RecordByResource}: the SDK's `RecordOf` is another type (the record of an operation).
 * @example
 * ```ts
 * const user: RecordOf['users'] | undefined = server.records.get('users', id);
 * ```
 */
export type RecordOf = RecordByResource;

/** A record's name in messages: `user`, `team`, `recording`, `call`. */
export const SINGULAR: Readonly<Record<DataResource, string>> = {
  users: 'user',
  teams: 'team',
  recordings: 'recording',
  calls: 'call',
};

/** The embedded user a created recording or call may name: its id (its name is the user's). */
const USER_REF_FIELDS = Object.keys(UserRef.shape);

/**
 * Checks the fields given to a create or an update: each one known to the resource (else a did-you-mean),
 * changeable (for an update), and of the contract's type.
 *
 * @returns the given fields, those set to `undefined` left out.
 * @throws Error naming the field and what is expected.
 */
export function checkFields(
  resource: DataResource,
  fields: unknown,
  purpose: 'create' | 'update',
): Record<string, unknown> {
  const singular = SINGULAR[resource];
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    throw new Error(
      `The fields of a ${singular} must be an object, e.g. { "${MUTABLE_FIELDS[resource][0]}": … }`,
    );
  const shape = RECORD_SCHEMAS[resource].shape as Record<string, z.ZodType>;
  const known = Object.keys(shape);
  const checked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const schema = shape[name];
    if (schema === undefined) throw new Error(unknownField(`${singular} field`, name, known));
    const derived = DERIVED_FIELDS[resource]?.[name];
    if (derived !== undefined)
      throw new Error(`${singular}.${name} is derived from ${derived}: give those instead`);
    const mutable: readonly string[] = MUTABLE_FIELDS[resource];
    if (purpose === 'update' && !mutable.includes(name))
      throw new Error(
        `${singular}.${name} cannot change (id and created_at never do); a ${singular} can change ${mutable.join(', ')}`,
      );
    if (name === 'user') checkUserRef(singular, value);
    else check(`${singular}.${name}`, schema, value);
    checked[name] = value;
  }
  return checked;
}

/**
 * Checks a whole record against the contract, so no change can make the mock answer what the API would not.
 *
 * @throws Error naming the first bad field.
 */
export function checkRecord(resource: DataResource, record: unknown): void {
  check(SINGULAR[resource], RECORD_SCHEMAS[resource], record);
}

function checkUserRef(singular: string, value: unknown): void {
  const where = `${singular}.user`;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${where} must be an object naming an existing user: { "id": "<user id>" }`);
  for (const name of Object.keys(value))
    if (!USER_REF_FIELDS.includes(name))
      throw new Error(unknownField(`${where} field`, name, USER_REF_FIELDS));
  check(`${where}.id`, UserRef.shape.id, (value as { id?: unknown }).id);
  const { full_name } = value as { full_name?: unknown };
  if (full_name !== undefined) check(`${where}.full_name`, UserRef.shape.full_name, full_name);
}

function check(where: string, schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.');
  throw new Error(`${path ? `${where}.${path}` : where}: ${issue?.message ?? 'Invalid value'}`);
}

function unknownField(what: string, name: string, known: readonly string[]): string {
  const closest = closestName(name, known);
  return `Unknown ${what} "${name}"${closest ? ` (did you mean "${closest}"?)` : ''}; known: ${known.join(', ')}`;
}
