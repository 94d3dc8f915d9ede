import type { FaultRateSpec, FaultRates } from '../../serve/engine/faults.js';
import type { LatencyProfile, LatencyRule } from '../../serve/engine/latency.js';
import type { RouteMatch } from '../../serve/engine/route-match.js';

/** A rule's route in JSON: a RegExp path as its source and flags (JSON has no RegExp). */
interface RouteJson {
  readonly method?: string | undefined;
  readonly path?: string | undefined;
  readonly pathPattern?: string | undefined;
  readonly pathFlags?: string | undefined;
}

type Json<Rule extends RouteMatch> = Omit<Rule, 'path'> & RouteJson;

/**
 * A rule with its RegExp path written as `pathPattern` (and `pathFlags`, when it has flags): an armed fault,
 * a fault rate's or a latency profile's rule.
 *
 * @param rule - the rule.
 */
export function ruleToJson<Rule extends RouteMatch>(rule: Rule): Json<Rule> {
  const { path, ...rest } = rule;
  if (path === undefined) return rest;
  if (typeof path === 'string') return { ...rest, path };
  return { ...rest, pathPattern: path.source, ...(path.flags === '' ? {} : { pathFlags: path.flags }) };
}

/** A rule whose `pathPattern` (and `pathFlags`) become its RegExp path again. */
function fromJson<Rule extends RouteMatch>(rule: Json<Rule>): Rule {
  const { pathPattern, pathFlags, ...rest } = rule;
  if (pathPattern === undefined) return rest as unknown as Rule;
  return { ...rest, path: new RegExp(pathPattern, pathFlags) } as unknown as Rule;
}

/**
 * A latency profile as JSON.
 *
 * @param profile - the profile (a distribution, or rules whose path may be a RegExp).
 */
export function latencyToJson(profile: LatencyProfile): unknown {
  return Array.isArray(profile) ? profile.map((rule: LatencyRule) => ruleToJson(rule)) : profile;
}

/**
 * A latency profile from its JSON.
 *
 * @param json - what {@link latencyToJson} wrote, validated.
 */
export function latencyFromJson(json: unknown): LatencyProfile {
  return Array.isArray(json)
    ? json.map((rule: Json<LatencyRule>) => fromJson(rule))
    : (json as LatencyProfile);
}

/**
 * Fault rates as JSON.
 *
 * @param rates - one rule or a list of them (paths may be RegExps).
 */
export function faultRatesToJson(rates: FaultRates): unknown {
  return Array.isArray(rates)
    ? rates.map((rule: FaultRateSpec) => ruleToJson(rule))
    : ruleToJson(rates as FaultRateSpec);
}

/**
 * Fault rates from their JSON.
 *
 * @param json - what {@link faultRatesToJson} wrote, validated.
 */
export function faultRatesFromJson(json: unknown): FaultRates {
  return Array.isArray(json)
    ? json.map((rule: Json<FaultRateSpec>) => fromJson(rule))
    : fromJson(json as Json<FaultRateSpec>);
}
