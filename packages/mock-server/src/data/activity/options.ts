import { closestName } from '@company-data/contract/runtime';
import { z } from 'zod';

/**
 * A company that lives by the mock's clock: calls arrive, some are excused later, field recordings arrive,
 * users are deactivated and calls deleted, each at a rate. Every field is optional: an absent one takes its
 * default ({@link DEFAULT_ACTIVITY}); 0 turns that kind of event off. Events happen to the primary company.
 *
 * Activity is a function of the seed and the clock: the same seed and the same clock moves give the same
 * records, ids and bytes. With a frozen clock, `clock.advance(10 * 60_000)` creates exactly the records those
 * ten minutes bring.
 *
 * @example
 * ```ts
 * const server = createMockServer({
 *   clock: 'frozen',
 *   activity: { callsPerMinute: 120, excusedShare: 0.2, callDeletionsPerHour: 0 } satisfies ActivityOptions,
 * });
 * server.clock.advance(10 * 60_000); // about 1,200 calls arrive, about 240 of them to be excused later
 * ```
 */
export interface ActivityOptions {
  /** Calls arriving per minute, on average (Poisson arrivals; default 6). */
  callsPerMinute?: number;
  /** The share of arriving calls excused later, from 0 to 1 (default 0.1). */
  excusedShare?: number;
  /** How many minutes after it arrived an excused call is excused: uniformly between `min` and `max` (default 5 to 120). */
  excusedAfterMinutes?: { min: number; max: number };
  /** Field recordings arriving per hour (default 4). */
  recordingsPerHour?: number;
  /** Active users deactivated per day, each a seeded pick among the users active then (default 2). */
  deactivationsPerDay?: number;
  /** Calls deleted per hour, each a seeded pick among the calls existing then (default 1). */
  callDeletionsPerHour?: number;
}

/**
 * An activity with every field filled in: what `server.activity()` answers.
 *
 * @example
 * ```ts
 * const activity = server.activity();
 * if (activity) console.log(`${activity.callsPerMinute} calls a minute`);
 * ```
 */
export type ResolvedActivity = Required<ActivityOptions>;

/**
 * The activity of `activity: {}` and of a bare `company-data-mock --activity`: a modest, steady company.
 *
 * @example
 * ```ts
 * createMockServer({ activity: { ...DEFAULT_ACTIVITY, callsPerMinute: 60 } });
 * ```
 */
export const DEFAULT_ACTIVITY: Readonly<ResolvedActivity> = Object.freeze({
  callsPerMinute: 6,
  excusedShare: 0.1,
  excusedAfterMinutes: Object.freeze({ min: 5, max: 120 }),
  recordingsPerHour: 4,
  deactivationsPerDay: 2,
  callDeletionsPerHour: 1,
});

/** The largest rate of any kind of event: 1,000 a second (a million calls arrive in about 17 minutes). */
export const MAX_EVENTS_PER_SECOND = 1000;
/** The longest wait before an excused call is excused: one week, in minutes. */
export const MAX_EXCUSE_DELAY_MINUTES = 7 * 24 * 60;

/** The unit of a rate field, in milliseconds. */
export const RATE_UNIT_MS = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
} as const;

/** A unit of {@link RATE_UNIT_MS}: second, minute, hour or day. */
export type RateUnit = keyof typeof RATE_UNIT_MS;

/** The rate fields of {@link ActivityOptions}, each with the unit its name says. */
export const ACTIVITY_RATES = {
  callsPerMinute: 'm',
  recordingsPerHour: 'h',
  deactivationsPerDay: 'd',
  callDeletionsPerHour: 'h',
} as const satisfies Record<string, RateUnit>;

/** A rate field of {@link ActivityOptions}. */
export type ActivityRate = keyof typeof ACTIVITY_RATES;

/** The events a rate field makes per millisecond. */
export function perMs(activity: ResolvedActivity, field: ActivityRate): number {
  return activity[field] / RATE_UNIT_MS[ACTIVITY_RATES[field]];
}

function rate(field: ActivityRate) {
  const unit = ACTIVITY_RATES[field];
  const max = MAX_EVENTS_PER_SECOND * (RATE_UNIT_MS[unit] / 1000);
  const message = `${field} must be a number from 0 to ${max} (${MAX_EVENTS_PER_SECOND} a second); 0 turns it off`;
  return z.number({ error: message }).min(0, { error: message }).max(max, { error: message });
}

const SHARE = 'excusedShare must be a number from 0 to 1 (e.g. 0.1 for 10%)';
const DELAY = `excusedAfterMinutes.min and .max must be numbers of minutes from 0 to ${MAX_EXCUSE_DELAY_MINUTES} (a week)`;
const delay = z
  .number({ error: DELAY })
  .min(0, { error: DELAY })
  .max(MAX_EXCUSE_DELAY_MINUTES, { error: DELAY });

/**
 * The one schema of {@link ActivityOptions}, with its bounds and messages: read by `createMockServer`,
 * `setActivity`, the admin API (`POST /__admin/activity`) and `--activity`.
 */
export const ActivityOptionsSchema = z.strictObject({
  callsPerMinute: rate('callsPerMinute').optional(),
  excusedShare: z.number({ error: SHARE }).min(0, { error: SHARE }).max(1, { error: SHARE }).optional(),
  excusedAfterMinutes: z
    .strictObject({ min: delay, max: delay })
    .refine((range) => range.min <= range.max, {
      error: 'excusedAfterMinutes.min must not exceed excusedAfterMinutes.max',
    })
    .optional(),
  recordingsPerHour: rate('recordingsPerHour').optional(),
  deactivationsPerDay: rate('deactivationsPerDay').optional(),
  callDeletionsPerHour: rate('callDeletionsPerHour').optional(),
});

/**
 * Checks an activity by {@link ActivityOptionsSchema} and fills in the defaults.
 *
 * @param activity - the options (every field optional).
 * @returns the activity in force.
 * @throws RangeError naming the field, its bounds and, for an unknown field, the nearest known one.
 * @example
 * ```ts
 * resolveActivity({ callsPerMinute: 60 }).excusedShare; // 0.1
 * ```
 */
export function resolveActivity(activity: ActivityOptions): ResolvedActivity {
  const result = ActivityOptionsSchema.safeParse(activity);
  if (!result.success) throw new RangeError(`activity: ${activityProblem(result.error)}`);
  const { excusedAfterMinutes, ...rest } = result.data;
  const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  return {
    ...DEFAULT_ACTIVITY,
    ...given,
    excusedAfterMinutes: { ...(excusedAfterMinutes ?? DEFAULT_ACTIVITY.excusedAfterMinutes) },
  };
}

/**
 * What is wrong with an activity, in words (the first problem), for errors of every way in.
 *
 * @param error - the schema's error.
 */
export function activityProblem(error: z.ZodError): string {
  // A misspelt field says so first: the missing field it was meant to be is the same mistake.
  const issue = error.issues.find((found) => found.code === 'unrecognized_keys') ?? error.issues[0];
  if (issue === undefined) return 'invalid activity';
  if (issue.code === 'unrecognized_keys') {
    const nested = issue.path.length > 0;
    const known = nested ? ['min', 'max'] : Object.keys(ActivityOptionsSchema.shape);
    const key = issue.keys[0] ?? '';
    const near = closestName(key, known);
    const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
    const where = nested ? `${issue.path.map(String).join('.')}: ` : '';
    return `${where}unknown field "${key}"${hint}; the fields are ${known.join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.path.length === 0)
    return `expects an object such as { callsPerMinute: 6 } (or false for none)`;
  return issue.message;
}
