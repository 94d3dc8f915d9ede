import { parseArgs } from 'node:util';
import { ACTIVITY_PRESET, activityUsage, parseActivitySpec } from '../../data/activity/spec.js';
import { DEFAULT_NOW, toEpochMs } from '../../data/clock.js';
import { DEFAULT_SIZES } from '../../data/fake/seeded-store.js';
import { DEFAULT_JOURNAL_LIMIT, parseJournalLimit } from '../../data/journal/limits.js';
import { type Quota, quotaProblem } from '../../data/store/quota.js';
import { UNMATCHED_MODES } from '../../inspect/verify/unmatched.js';
import { DEFAULT_HOST } from '../../serve/adapters/listen-address.js';
import {
  DEFAULT_FAULT_MIX,
  type FaultRateSpec,
  faultMixText,
  parseFaultMix,
} from '../../serve/engine/faults.js';
import { parseLatency } from '../../serve/engine/latency.js';
import type { StartMockServerOptions } from '../../server/create-mock-server.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SEED,
  MAX_SIZE,
  SIZE_RULE,
  sizesProblem,
} from '../../server/options.js';
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  parseSessionIdle,
} from '../../server/sessions/session-rules.js';

/** How the CLI logs requests on stderr. */
export type LogFormat = 'off' | 'text' | 'json';

/** A quota the command line gives one key. */
export interface KeyQuotaRequest {
  /** A well-known key's name (`valid`, `throttled`, …) or a key value (e.g. one from the fixture). */
  readonly key: string;
  /** The quota, or false to never throttle the key. */
  readonly quota: Quota | false;
}

/** What the command line asked for. */
export interface MockCliRequest {
  /** Options for startMockServer (the fixture is still a file path here). */
  readonly options: StartMockServerOptions;
  /** Path of a fixture JSON file. */
  readonly fixturePath?: string | undefined;
  /** A saved state to start from (`--state`). */
  readonly statePath?: string | undefined;
  /** Per-key quotas to apply once started. */
  readonly keyQuotas: readonly KeyQuotaRequest[];
  /** The request log on stderr. */
  readonly log: LogFormat;
  /** What to do with a request the mock cannot match (`--on-unmatched`). */
  readonly onUnmatched: (typeof UNMATCHED_MODES)[number];
  /** Print machine-readable JSON instead of words. */
  readonly json: boolean;
  /** Stop when standard input ends (the harness closed it, or died). */
  readonly exitOnStdinClose: boolean;
  /** Stop when the process with this pid is gone. */
  readonly parentPid?: number | undefined;
  /** Print the usage and exit. */
  readonly help: boolean;
  /** Print the version and exit. */
  readonly version: boolean;
  /** Print the fixture JSON Schema and exit. */
  readonly fixtureSchema: boolean;
}

/** The default port of the CLI. */
export const DEFAULT_CLI_PORT = 4010;

/** The CLI usage text. */
export const MOCK_USAGE = `Usage: company-data-mock [options]

Serves a stateful mock of the Company Data API on a local port.

Data
  --seed <n>               seed of the generated data (default ${DEFAULT_SEED})
  --users <n>              users of the primary company (default ${DEFAULT_SIZES.users})
  --teams <n>              teams (default ${DEFAULT_SIZES.teams})
  --recordings <n>         field recordings (default ${DEFAULT_SIZES.recordings})
  --calls <n>              calls (default ${DEFAULT_SIZES.calls})
  --fixture <file>         load companies, keys and records from a JSON fixture instead
  --fixture-schema         print the fixture's JSON Schema and exit
  --state <file>           start from a saved state (GET /__admin/state, saveState()): its data,
                           keys, clock and activity as they were; not with the data and time options

Time and quotas
  --now <time>             initial time of the mock clock (default ${DEFAULT_NOW})
  --freeze                 keep the clock still (it moves only through the admin API);
                           by default it runs with real time, so a 429's Retry-After comes true
  --throttle <n>/<s>       quota of keys without their own, e.g. 100/60, or "off" (default off)
  --throttle-key <k>=<n>/<s>
                           one key's own quota, or <k>=off; <k> is a well-known key's name
                           (valid, limited, throttled, ...) or a key value; repeatable
${activityUsage()}
Latency and faults (seeded by --seed: the same requests get the same waits and faults)
  --latency <profile>      wait before every answer: <ms> (e.g. 20), <min>..<max> (e.g. 10..80)
                           or lognormal:median=<ms>,p99=<ms> (e.g. lognormal:median=30,p99=400)
  --fault-rate <share>     fail this share of requests, from 0 to 1 (e.g. 0.05)
  --fault-mix <list>       what they fail with, comma-separated, each with an optional weight *<n>:
                           a status (503), drop, cut[:<bytes>], html[:<status>], malformed,
                           delay[:<ms>], drip[:<bytes>/<ms>] (default ${faultMixText(DEFAULT_FAULT_MIX)})
  --fault-max <n>          fail at most this many requests (default: no cap)

Server
  --port <n>               port to listen on, 0 for any free port (default ${DEFAULT_CLI_PORT})
  --host <host>            interface to bind (default ${DEFAULT_HOST})
  --max-body-bytes <n>     request body limit (default ${DEFAULT_MAX_BODY_BYTES})
  --admin-token <token>    token of the admin API under /__admin/ (default: random)
  --journal-limit <n>      requests and changes each journal keeps, the newest (default ${DEFAULT_JOURNAL_LIMIT});
                           all keeps every one; the admin API says how many were dropped
  --max-sessions <n>       sessions (isolated worlds, POST /__admin/sessions) held at most besides
                           the default one (default ${DEFAULT_MAX_SESSIONS})
  --session-idle <time>    a session unused this long ends: 90s, 30m, 2h or never (default ${DEFAULT_SESSION_IDLE_MS / 60_000}m)

Output and lifetime
  --json                   print the addresses, keys, webhooks, pid and admin token as one JSON line
  --log <format>           log each request on stderr: off (default), text or json
  --on-unmatched <mode>    a request the mock cannot match (an unknown path or method, a missing
                           or bad key, an unknown webhook token): ignore (default; listed at
                           /__admin/unmatched), warn (a line on stderr) or error (that line, and
                           POST /__admin/verify fails until it has reported it; else exit code 1)
  --exit-on-stdin-close    stop when standard input ends: spawn with a stdin pipe, close it to stop
  --parent-pid <pid>       stop when that process is gone (e.g. the test harness's own pid)
  -v, --version            print the version and exit
  -h, --help               show this help
`;

const LOG_FORMATS: readonly LogFormat[] = ['off', 'text', 'json'];

/** The flags whose options a saved state holds: refused beside `--state`. */
const FLAGS_A_STATE_HOLDS = [
  'seed',
  'users',
  'teams',
  'recordings',
  'calls',
  'fixture',
  'now',
  'freeze',
  'throttle',
  'latency',
  'fault-rate',
  'activity',
  'journal-limit',
] as const;

/**
 * Parses the command line.
 *
 * @param argv - arguments after the program name.
 * @returns what to start.
 * @throws Error with a readable message (saying how to fix it) for an unknown option or a bad value.
 */
export function parseMockCliArgs(argv: readonly string[]): MockCliRequest {
  const { values } = parseArgs({
    args: withActivityValue(argv),
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      fixture: { type: 'string' },
      state: { type: 'string' },
      'fixture-schema': { type: 'boolean', default: false },
      users: { type: 'string' },
      teams: { type: 'string' },
      recordings: { type: 'string' },
      calls: { type: 'string' },
      now: { type: 'string' },
      freeze: { type: 'boolean', default: false },
      throttle: { type: 'string' },
      activity: { type: 'string' },
      'throttle-key': { type: 'string', multiple: true, default: [] },
      'max-body-bytes': { type: 'string' },
      latency: { type: 'string' },
      'fault-rate': { type: 'string' },
      'fault-mix': { type: 'string' },
      'fault-max': { type: 'string' },
      'admin-token': { type: 'string' },
      'journal-limit': { type: 'string' },
      'max-sessions': { type: 'string' },
      'session-idle': { type: 'string' },
      json: { type: 'boolean', default: false },
      log: { type: 'string', default: 'off' },
      'on-unmatched': { type: 'string', default: 'ignore' },
      'exit-on-stdin-close': { type: 'boolean', default: false },
      'parent-pid': { type: 'string' },
      version: { type: 'boolean', short: 'v', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.state !== undefined) {
    const given = FLAGS_A_STATE_HOLDS.filter((flag) => values[flag] !== undefined && values[flag] !== false);
    if (given.length > 0)
      throw new Error(
        `--state holds the data, the clock, the quota, the latency, the fault rate, the activity and the journals' limit: give it without ${given.map((flag) => `--${flag}`).join(', ')}`,
      );
  }
  const sizes = {
    users: size('users', values.users),
    teams: size('teams', values.teams),
    recordings: size('recordings', values.recordings),
    calls: size('calls', values.calls),
  };
  const options: StartMockServerOptions = {
    port: integer('port', values.port, 0, 65_535) ?? DEFAULT_CLI_PORT,
    host: values.host ?? DEFAULT_HOST,
    seed: integer('seed', values.seed, 0, MAX_SIZE),
    sizes: Object.fromEntries(Object.entries(sizes).filter(([, value]) => value !== undefined)),
    now: time('now', values.now),
    clock: values.freeze ? 'frozen' : undefined,
    quota: values.throttle === undefined ? undefined : quota('--throttle', values.throttle),
    maxBodyBytes: integer('max-body-bytes', values['max-body-bytes'], 0, Number.MAX_SAFE_INTEGER),
    adminToken: values['admin-token'],
    journalLimit:
      values['journal-limit'] === undefined
        ? undefined
        : flagValue('--journal-limit', parseJournalLimit, values['journal-limit']),
    latency: values.latency === undefined ? undefined : flagValue('--latency', parseLatency, values.latency),
    faultRate: faultRate(values['fault-rate'], values['fault-mix'], values['fault-max']),
    activity:
      values.activity === undefined ? undefined : flagValue('--activity', parseActivitySpec, values.activity),
    maxSessions: integer('max-sessions', values['max-sessions'], 0, 1_000_000),
    sessionIdleMs:
      values['session-idle'] === undefined
        ? undefined
        : flagValue('--session-idle', parseSessionIdle, values['session-idle']),
  };
  if (!LOG_FORMATS.includes(values.log as LogFormat))
    throw new Error(`--log expects off, text or json, got "${values.log}"`);
  const onUnmatched = values['on-unmatched'];
  if (!(UNMATCHED_MODES as readonly string[]).includes(onUnmatched))
    throw new Error(`--on-unmatched expects ${UNMATCHED_MODES.join(', ')}, got "${onUnmatched}"`);
  return {
    options: dropUndefined(options),
    fixturePath: values.fixture,
    statePath: values.state,
    keyQuotas: values['throttle-key'].map(keyQuota),
    log: values.log as LogFormat,
    onUnmatched: onUnmatched as MockCliRequest['onUnmatched'],
    json: values.json,
    exitOnStdinClose: values['exit-on-stdin-close'],
    parentPid: integer('parent-pid', values['parent-pid'], 1, 0x7fffffff),
    help: values.help,
    version: values.version,
    fixtureSchema: values['fixture-schema'],
  };
}

/**
 * The arguments with a bare `--activity` (last, or followed by another option) given its preset, since
 * `parseArgs` wants a value after an option that takes one.
 */
function withActivityValue(argv: readonly string[]): string[] {
  return argv.map((arg, index) => {
    const next = argv[index + 1];
    const bare = arg === '--activity' && (next === undefined || next.startsWith('-'));
    return bare ? `--activity=${ACTIVITY_PRESET}` : arg;
  });
}

function integer(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new Error(`--${name} expects a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** A record count flag (`--users`, …), by the size rule of the server's `sizes` option. */
function size(name: 'users' | 'teams' | 'recordings' | 'calls', raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (sizesProblem({ [name]: value }) !== undefined)
    throw new Error(`--${name} expects ${SIZE_RULE}, got "${raw}"`);
  return value;
}

/** A flag's value read by `read`, its message prefixed with the flag. */
function flagValue<T>(flag: string, read: (raw: string) => T, raw: string): T {
  try {
    return read(raw);
  } catch (error) {
    throw new Error(`${flag} ${(error as Error).message}`);
  }
}

function faultRate(
  rate: string | undefined,
  mix: string | undefined,
  max: string | undefined,
): FaultRateSpec | undefined {
  if (rate === undefined) {
    if (mix !== undefined || max !== undefined)
      throw new Error('--fault-mix and --fault-max need --fault-rate <share> (e.g. --fault-rate 0.05)');
    return undefined;
  }
  const share = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(rate) ? Number(rate) : Number.NaN;
  if (Number.isNaN(share))
    throw new Error(`--fault-rate expects a share from 0 to 1 (e.g. 0.05), got "${rate}"`);
  const spec: { rate: number; mix?: FaultRateSpec['mix']; max?: number } = { rate: share };
  if (mix !== undefined) spec.mix = flagValue('--fault-mix', parseFaultMix, mix);
  if (max !== undefined) spec.max = integer('fault-max', max, 1, Number.MAX_SAFE_INTEGER);
  return spec;
}

function time(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    toEpochMs(raw);
  } catch {
    throw new Error(`--${name} expects an ISO 8601 time such as 2026-06-01T12:00:00Z, got "${raw}"`);
  }
  return raw;
}

function quota(flag: string, raw: string): Quota | false {
  if (raw === 'off') return false;
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(raw);
  if (!match)
    throw new Error(
      `${flag} expects <requests>/<seconds> with both above 0 (e.g. 100/60) or "off", got "${raw}"`,
    );
  const parsed = { requests: Number(match[1]), perSeconds: Number(match[2]) };
  // The bounds and their words are the quota rule's own (the admin API and fixtures say the same).
  const problem = quotaProblem(parsed);
  if (problem !== undefined)
    throw new Error(`${flag} expects a quota within bounds, got "${raw}": ${problem.text}`);
  return parsed;
}

function keyQuota(raw: string): KeyQuotaRequest {
  const equals = raw.lastIndexOf('=');
  if (equals <= 0)
    throw new Error(
      `--throttle-key expects <key>=<requests>/<seconds> or <key>=off (e.g. valid=10/60), got "${raw}"`,
    );
  return {
    key: raw.slice(0, equals),
    quota: quota(`--throttle-key ${raw.slice(0, equals)}`, raw.slice(equals + 1)),
  };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
