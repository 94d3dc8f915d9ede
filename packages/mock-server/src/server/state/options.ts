import { resolveActivity } from '../../data/activity/options.js';
import { parseFixture } from '../../data/fixture/validate.js';
import { checkQuota } from '../../data/store/quota.js';
import { FaultRateTable } from '../../serve/engine/faults.js';
import { LatencyTable } from '../../serve/engine/latency.js';
import type { MockServerOptions } from '../options.js';
import { atPath } from './error.js';
import { parseState } from './parse.js';
import { faultRatesFromJson, latencyFromJson } from './routes.js';
import type { MockState } from './schema.js';

/** The options a state holds: given beside it they are refused, rather than one silently winning. */
const HELD_BY_STATE = [
  'seed',
  'sizes',
  'fixture',
  'now',
  'clock',
  'quota',
  'throttle',
  'latency',
  'faultRate',
  'activity',
  'journalLimit',
] as const satisfies readonly (keyof MockServerOptions)[];

/**
 * The options to make a world from: those given, or, with `state`, the state's options beside the
 * transport ones given (origin, admin token, body limit, callbacks), and the state to restore into it.
 *
 * @param given - the options as given.
 * @returns the options, and the validated state when one was given.
 * @throws RangeError when options the state holds are given beside it; MockStateError for a bad state.
 */
export function withState(given: MockServerOptions): { options: MockServerOptions; state?: MockState } {
  const { state: input, ...options } = given;
  if (input === undefined) return { options };
  const held = HELD_BY_STATE.filter((name) => options[name] !== undefined);
  if (held.length > 0)
    throw new RangeError(
      `${held.join(', ')} cannot be given with state, which holds ${held.length === 1 ? 'it' : 'them'}: give the state alone (beside origin, adminToken, maxBodyBytes, onRequest or onUnmatchedRequest)`,
    );
  const state = parseState(input);
  return { options: { ...options, ...stateOptions(state) }, state };
}

/**
 * The options a state's world was made from, each checked as the server checks it (so a bad one is named
 * by its place in the state).
 *
 * @param state - a validated state.
 * @throws MockStateError naming the option.
 */
function stateOptions({ options }: MockState): MockServerOptions {
  const { seed, latency, faultRate, activity, quota } = options;
  if (options.fixture !== undefined) atPath('options.fixture', () => parseFixture(options.fixture));
  if (activity !== false) atPath('options.activity', () => resolveActivity(activity));
  atPath('options.quota', () => checkQuota(quota));
  return {
    seed,
    sizes: options.sizes,
    ...(options.fixture === undefined ? {} : { fixture: options.fixture as MockServerOptions['fixture'] }),
    now: options.nowMs,
    clock: options.clock,
    activity,
    quota,
    ...(latency === false
      ? {}
      : { latency: chaosOption('options.latency', latency, latencyFromJson, LatencyTable, seed) }),
    ...(faultRate === false
      ? {}
      : { faultRate: chaosOption('options.faultRate', faultRate, faultRatesFromJson, FaultRateTable, seed) }),
    journalLimit: options.journalLimit ?? Number.POSITIVE_INFINITY,
  };
}

/**
 * A chaos option of a state (its latency profile, its fault rates) read back from its JSON and checked as the
 * server checks it, by making the table the server makes of it; a refusal is named by its place in the state.
 *
 * @param path - its place in the state, e.g. `options.latency`.
 * @param json - the option as the state holds it.
 * @param fromJson - reads it from its JSON.
 * @param Table - the table the server makes of it (which throws a RangeError for an option it refuses).
 * @param seed - the state's seed.
 * @throws MockStateError naming the place.
 */
function chaosOption<Option>(
  path: string,
  json: unknown,
  fromJson: (json: unknown) => Option,
  Table: new (option: Option, seed: number) => unknown,
  seed: number,
): Option {
  return atPath(path, () => {
    const option = fromJson(json);
    new Table(option, seed);
    return option;
  });
}
