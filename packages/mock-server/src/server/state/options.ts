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
      : {
          latency: atPath('options.latency', () => {
            const profile = latencyFromJson(latency);
            new LatencyTable(profile, seed);
            return profile;
          }),
        }),
    ...(faultRate === false
      ? {}
      : {
          faultRate: atPath('options.faultRate', () => {
            const rates = faultRatesFromJson(faultRate);
            new FaultRateTable(rates, seed);
            return rates;
          }),
        }),
    journalLimit: options.journalLimit ?? Number.POSITIVE_INFINITY,
  };
}
