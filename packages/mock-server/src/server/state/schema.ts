import { AUDIENCE_MEMBER_STATUSES, DATA_RESOURCES } from '@company-data/contract';
import { z } from 'zod';
import { ActivityOptionsSchema } from '../../data/activity/options.js';
import { QuotaSchema } from '../../data/store/quota.js';
import { faultRateFields } from '../../serve/engine/faults.js';
import { LatencyDistributionSchema } from '../../serve/engine/latency.js';
import { MockSizesSchema } from '../options.js';

/** The version of the state this mock writes and reads. */
export const MOCK_STATE_VERSION = 1;

/** A time on the mock clock, epoch milliseconds (exact, where an ISO string would round). */
const Ms = z.number();
const Uint32 = z.int().min(0).max(0xffff_ffff);
const Count = z.int().min(0);
/** Fields of a record, a body or custom fields: any JSON object, kept as it is (a `__proto__` key too). */
const JsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { error: 'Invalid input: expected an object' },
);
const QuotaOrNone = z.union([z.literal(false), QuotaSchema]);

/** Which requests a latency or fault-rate rule matches, in JSON: a RegExp path as its source and flags. */
const RouteState = {
  method: z.string().optional(),
  path: z.string().optional(),
  pathPattern: z.string().optional(),
  pathFlags: z.string().optional(),
};
const LatencyState = z.union([
  LatencyDistributionSchema,
  z.array(z.object({ ...RouteState, latency: LatencyDistributionSchema })),
]);
const FaultRateRule = z.object({ ...RouteState, ...faultRateFields(z.object) });
const FaultRatesState = z.union([FaultRateRule, z.array(FaultRateRule)]);

/** The options a world was made from, which `reset()` returns to. */
const OptionsState = z.strictObject({
  seed: z.number(),
  sizes: MockSizesSchema.required(),
  /** The fixture in force, as validated (absent: generated data). */
  fixture: z.unknown().optional(),
  /** The clock's initial time. */
  nowMs: Ms,
  clock: z.enum(['running', 'frozen']),
  activity: z.union([z.literal(false), ActivityOptionsSchema]),
  quota: QuotaOrNone,
  latency: z.union([z.literal(false), LatencyState]),
  faultRate: z.union([z.literal(false), FaultRatesState]),
  /** null: the journals keep every entry. */
  journalLimit: Count.nullable(),
});

/** A schedule of the activity: with the seed, what makes its arrivals again. */
const ScheduleState = z.strictObject({ startMs: Ms, activity: ActivityOptionsSchema.required() });

const UserRefState = z.strictObject({ id: z.string(), full_name: z.string() });

/** A record created by a control: what it is generated from, and its fields changed since. */
const CreatedState = z.strictObject({
  seed: Uint32,
  atMs: Ms,
  given: JsonObject,
  domain: z.string(),
  user: z.strictObject({ id: z.string(), full_name: z.string(), drawn: z.boolean() }).optional(),
  fields: JsonObject.optional(),
});

/**
 * The records one schedule brought to a table, in columns: `n` and `atMs` each the difference from the
 * previous arrival's (the first's from 0), `user` a place in `users`, `excused` the places of those whose
 * scheduled excusal was applied, `fields` (by place) what a control changed since they arrived.
 */
const ArrivedState = z
  .strictObject({
    schedule: ScheduleState,
    users: z.array(UserRefState),
    n: z.array(z.int()),
    atMs: z.array(z.int()),
    user: z.array(Count),
    excused: z.array(Count).optional(),
    fields: z.record(z.string().regex(/^\d+$/), JsonObject).optional(),
  })
  .refine((group) => group.atMs.length === group.n.length && group.user.length === group.n.length, {
    error: 'n, atMs and user must have the same length',
  });

/** What changed in one table: base records changed and deleted, records created, records arrived. */
const TableState = z.strictObject({
  changed: z.record(z.string(), JsonObject).optional(),
  deleted: z.array(z.string()).optional(),
  created: z.array(CreatedState).optional(),
  arrived: z.array(ArrivedState).optional(),
});

/** The tables of one company that changed. */
const CompanyState = z.strictObject({
  id: z.string(),
  users: TableState.optional(),
  teams: TableState.optional(),
  recordings: TableState.optional(),
  calls: TableState.optional(),
});

const KeyState = z.strictObject({
  id: z.string(),
  company: z.string(),
  name: z.string(),
  /** Hex SHA-256 of the value: the value itself is never kept. */
  hash: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be a hex SHA-256 (64 hex digits)' }),
  prefix: z.string(),
  createdAtMs: Ms,
  expiresAtMs: Ms.nullable(),
  revoked: z.boolean(),
  permissions: z.array(z.enum(DATA_RESOURCES)),
  /** The key's own quota (absent: the default one). */
  quota: QuotaOrNone.optional(),
});

const MemberState = z.strictObject({
  id: z.string(),
  created_at: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  email: z.string(),
  custom_fields: JsonObject,
  status: z.enum(AUDIENCE_MEMBER_STATUSES),
});

const AudienceState = z.strictObject({
  id: z.string(),
  company: z.string(),
  name: z.string(),
  token: z.string(),
  createdAtMs: Ms,
  members: z.array(MemberState),
});

const LeadSourceState = z.strictObject({
  id: z.string(),
  company: z.string(),
  name: z.string(),
  token: z.string(),
  deletedAtMs: Ms.nullable(),
});

const LeadState = z.strictObject({
  id: z.string(),
  leadSourceId: z.string(),
  receivedAt: z.string(),
  phoneNumber: z.string(),
  phone: z.string().nullable(),
  body: JsonObject,
  status: z.enum(['queued', 'failed']),
  error: z.string().nullable(),
  deduplicated: z.boolean(),
  conversationId: z.string().nullable(),
});

const ConversationState = z.strictObject({
  id: z.string(),
  company: z.string(),
  leadSourceId: z.string(),
  phone: z.string(),
  createdAt: z.string(),
  lastLeadAt: z.string(),
  /** The ids of its leads, oldest first. */
  leads: z.array(z.string()),
});

const WellKnownKeys = z.strictObject({
  valid: z.string(),
  expired: z.string(),
  revoked: z.string(),
  limited: z.string(),
  noPermissions: z.string(),
  otherCompany: z.string(),
  throttled: z.string(),
});
const WellKnownTokens = z.strictObject({ audience: z.string(), lead: z.string(), deletedLead: z.string() });

/**
 * The schema of {@link MockState}: what `createMockServer({ state })` validates a state by before it makes
 * anything.
 *
 * @example
 * ```ts
 * const result = MockStateSchema.safeParse(JSON.parse(text));
 * if (!result.success) console.error(result.error.issues[0]);
 * ```
 */
export const MockStateSchema = z.strictObject({
  version: z.literal(MOCK_STATE_VERSION),
  options: OptionsState,
  clock: z.strictObject({ nowMs: Ms, frozen: z.boolean() }),
  random: Uint32,
  activity: z.union([
    z.literal(false),
    z.strictObject({ activity: ActivityOptionsSchema.required(), startMs: Ms, reachedMs: Ms }),
  ]),
  latency: z.union([z.literal(false), z.strictObject({ profile: LatencyState, stream: Uint32 })]),
  faultRate: z.union([
    z.literal(false),
    z.strictObject({ rates: FaultRatesState, stream: Uint32, remaining: z.array(Count.nullable()) }),
  ]),
  quota: z.strictObject({
    default: QuotaOrNone,
    windows: z.array(z.strictObject({ key: z.string(), startMs: Ms, count: Count })),
  }),
  keys: WellKnownKeys,
  tokens: WellKnownTokens,
  apiKeys: z.array(KeyState),
  companies: z.array(CompanyState),
  audiences: z.array(AudienceState),
  leadSources: z.array(LeadSourceState),
  leads: z.array(LeadState),
  conversations: z.array(ConversationState),
  leadFailures: Count,
});

/**
 * A mock's world as JSON-ready data, from {@link MockServer.saveState}, to make it again with
 * `createMockServer({ state })`. Small: the seeded base records are never repeated, only what changed on top
 * of them. Version 1 holds:
 *
 * - `version`: 1.
 * - `options`: what the world was made from, and what `reset()` returns to: `seed`, `sizes`, `fixture`
 *   (when one is loaded), `nowMs` (the clock's initial time), `clock`, `activity`, `quota`, `latency`,
 *   `faultRate` (a RegExp path as `pathPattern` and `pathFlags`) and `journalLimit` (null: no limit).
 * - `clock`: its time now (`nowMs`) and whether it is `frozen`.
 * - `random`: where the seeded stream of run-time ids and key values stands.
 * - `activity`: the activity in force, where its schedule started and how far it was applied, or false.
 * - `latency`, `faultRate`: those in force, with where their seeded streams stand (and each rate's faults
 *   still to apply), or false.
 * - `quota`: the default quota and the windows open now, by key id.
 * - `keys`, `tokens`: the well-known key values and webhook tokens (`mock.keys`, `mock.tokens`).
 * - `apiKeys`: every key, with the SHA-256 of its value (never the value), its company, name, permissions,
 *   expiry, revocation, creation time and own quota.
 * - `companies`: per company and resource, the record changes on top of the seeded data: base records
 *   `changed` (their changed fields) and `deleted`, records `created` (what each is generated from), and
 *   records `arrived` with the activity (their places in its schedule, in columns).
 * - `audiences` (with their members), `leadSources`, `leads` and `conversations`.
 * - `leadFailures`: injected lead failures still to happen.
 *
 * Not held: armed one-shot faults, the request and change journals and the unmatched requests (a restored
 * mock starts with none, and its journals count from 1 again), and the transport (`origin`, `adminToken`,
 * `maxBodyBytes`, `onRequest`, `onUnmatchedRequest`, which are given beside the state).
 *
 * @example
 * ```ts
 * const text = JSON.stringify(server.saveState());
 * const again = createMockServer({ state: JSON.parse(text) as MockState });
 * ```
 */
export type MockState = z.output<typeof MockStateSchema>;
