import { closestName } from '@company-data/contract/runtime';
import {
  ACTIVITY_RATES,
  type ActivityOptions,
  type ActivityRate,
  RATE_UNIT_MS,
  type RateUnit,
  type ResolvedActivity,
  resolveActivity,
} from './options.js';

/**
 * The command line's words for an activity (`--activity calls=20/s,excused=10%`), each naming one field of
 * {@link ActivityOptions}: the one table the parser, the printer and the help text read.
 */
const SPEC_KEYS = {
  calls: { field: 'callsPerMinute', help: 'calls arriving' },
  excused: { field: 'excusedShare', help: 'share of them excused later, <n>% or 0..1' },
  'excused-after': { field: 'excusedAfterMinutes', help: 'minutes after arriving, <min>..<max>' },
  recordings: { field: 'recordingsPerHour', help: 'field recordings arriving' },
  deactivations: { field: 'deactivationsPerDay', help: 'active users deactivated' },
  deletions: { field: 'callDeletionsPerHour', help: 'calls deleted' },
} as const satisfies Record<string, { field: keyof ActivityOptions; help: string }>;

type SpecKey = keyof typeof SPEC_KEYS;

/** What a bare `--activity` means: the defaults. */
export const ACTIVITY_PRESET = 'default';
/** What `--activity off` means: none. */
export const ACTIVITY_OFF = 'off';

const UNITS = Object.keys(RATE_UNIT_MS) as RateUnit[];
const NUMBER = String.raw`\d+(?:\.\d+)?`;

/**
 * Reads the command line's activity: `default` (the defaults, what a bare `--activity` means), `off`, or
 * comma-separated `<key>=<value>` pairs over the defaults, e.g. `calls=20/s,excused=10%,deletions=1/s`.
 * Rates are `<n>/<s|m|h|d>` (or `0`), the share `<n>%` or a number from 0 to 1, the delay `<min>..<max>`
 * minutes.
 *
 * @param text - the text after `--activity`.
 * @returns the activity (resolved), or false for `off`.
 * @throws Error saying which key or value is wrong and what is accepted (with a did-you-mean for a key).
 * @example
 * ```ts
 * parseActivitySpec('calls=20/s,excused=10%').callsPerMinute; // 1200
 * ```
 */
export function parseActivitySpec(text: string): ResolvedActivity | false {
  if (text === ACTIVITY_OFF) return false;
  if (text === ACTIVITY_PRESET || text === '') return resolveActivity({});
  const options: Record<string, unknown> = {};
  for (const pair of text.split(',')) {
    const equals = pair.indexOf('=');
    const key = pair.slice(0, equals === -1 ? undefined : equals).trim();
    const value = equals === -1 ? '' : pair.slice(equals + 1).trim();
    if (!Object.hasOwn(SPEC_KEYS, key)) {
      const near = closestName(key, Object.keys(SPEC_KEYS));
      throw new Error(
        `has no key "${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; the keys are ${Object.keys(SPEC_KEYS).join(', ')} (e.g. calls=20/s,excused=10%)`,
      );
    }
    if (equals === -1 || value === '') throw new Error(`expects ${key}=<value>, got "${pair}"`);
    const { field } = SPEC_KEYS[key as SpecKey];
    options[field] = readValue(key as SpecKey, value);
  }
  try {
    return resolveActivity(options);
  } catch (error) {
    throw new Error(`"${text}": ${(error as Error).message.replace(/^activity: /, '')}`);
  }
}

function readValue(key: SpecKey, value: string): unknown {
  const { field } = SPEC_KEYS[key];
  if (field === 'excusedShare') {
    const percent = new RegExp(`^(${NUMBER})%$`).exec(value);
    if (percent) return Number(percent[1]) / 100;
    if (new RegExp(`^${NUMBER}$`).test(value)) return Number(value);
    throw new Error(`expects ${key}=<n>% or a share from 0 to 1 (e.g. ${key}=10%), got "${value}"`);
  }
  if (field === 'excusedAfterMinutes') {
    const range = new RegExp(`^(${NUMBER})\\.\\.(${NUMBER})m?$`).exec(value);
    if (range) return { min: Number(range[1]), max: Number(range[2]) };
    throw new Error(`expects ${key}=<min>..<max> in minutes (e.g. ${key}=5..120), got "${value}"`);
  }
  if (value === '0') return 0;
  const rate = new RegExp(`^(${NUMBER})/(${UNITS.join('|')})$`).exec(value);
  if (!rate)
    throw new Error(
      `expects ${key}=<n>/<unit> with a unit of s, m, h or d (e.g. ${key}=20/s, or 0 for none), got "${value}"`,
    );
  const native = RATE_UNIT_MS[ACTIVITY_RATES[field]];
  return (Number(rate[1]) * native) / RATE_UNIT_MS[rate[2] as RateUnit];
}

/**
 * A rate as the command line writes it, in the smallest unit where it is a whole number of at least one
 * (`20/s` rather than `1200/m`), else in its field's own unit.
 */
function rateText(activity: ResolvedActivity, field: ActivityRate): string {
  const native = ACTIVITY_RATES[field];
  const value = activity[field];
  if (value === 0) return '0';
  for (const unit of UNITS) {
    const inUnit = (value * RATE_UNIT_MS[unit]) / RATE_UNIT_MS[native];
    const rounded = Math.round(inUnit * 1e6) / 1e6;
    if (rounded >= 1 && Number.isInteger(rounded)) return `${rounded}/${unit}`;
  }
  return `${Math.round(value * 1e6) / 1e6}/${native}`;
}

/**
 * An activity as the command line writes it, every key given: what the banner shows, and what
 * `--activity` reads back to the same activity.
 *
 * @param activity - the activity in force.
 * @returns e.g. `calls=6/m,excused=10%,excused-after=5..120,recordings=4/h,deactivations=2/d,deletions=1/h`.
 * @example
 * ```ts
 * activitySpecText(parseActivitySpec('calls=20/s') as ResolvedActivity).startsWith('calls=20/s'); // true
 * ```
 */
export function activitySpecText(activity: ResolvedActivity): string {
  return (Object.keys(SPEC_KEYS) as SpecKey[])
    .map((key) => {
      const { field } = SPEC_KEYS[key];
      if (field === 'excusedShare') return `${key}=${Math.round(activity.excusedShare * 1e6) / 1e4}%`;
      if (field === 'excusedAfterMinutes') {
        const { min, max } = activity.excusedAfterMinutes;
        return `${key}=${min}..${max}`;
      }
      return `${key}=${rateText(activity, field)}`;
    })
    .join(',');
}

/**
 * The `--activity` part of the CLI's help, built from the keys and the defaults.
 *
 * @returns lines indented as the usage's other options.
 */
export function activityUsage(): string {
  const defaults = resolveActivity({});
  const pairs = activitySpecText(defaults).split(',');
  const lines = (Object.keys(SPEC_KEYS) as SpecKey[]).map(
    (key, index) => `                             ${pairs[index]?.padEnd(22)} ${SPEC_KEYS[key].help}`,
  );
  return `  --activity [<spec>]      a company that lives by the clock: records arrive, change and go as the
                           mock time passes (seeded by --seed; with --freeze, only when the clock is
                           moved). A bare --activity (or --activity ${ACTIVITY_PRESET}) means:
${lines.join('\n')}
                           or give keys over the defaults, e.g. --activity calls=20/s,excused=10%;
                           rates are <n>/<s|m|h|d>, 0 turns one off; --activity ${ACTIVITY_OFF} for none
`;
}
