import { z } from 'zod';
import { hashInts, Prng } from '../../data/random/prng.js';
import { type RouteMatch, routeMatches } from './route-match.js';

/**
 * A body sent a few bytes at a time: `bytes` every `everyMs` real milliseconds (the headers at once).
 *
 * @example
 * ```ts
 * server.injectFault({ path: '/v1/users/', drip: { bytes: 1, everyMs: 2000 } satisfies Drip });
 * ```
 */
export interface Drip {
  /** Bytes per piece (≥ 1). */
  readonly bytes: number;
  /** Real milliseconds between pieces. */
  readonly everyMs: number;
}

/**
 * What a fault does to a request. The parts combine: e.g. `status` with `drip` drips the injected
 * answer, `delayMs` with `cutAfterBytes` waits and then cuts the real answer.
 *
 * @example
 * ```ts
 * const broken: FaultAction = { status: 502, htmlPage: true };
 * ```
 */
export interface FaultAction {
  /** Answer this status instead of the real response. */
  readonly status?: number | undefined;
  /** Headers of the injected answer (with no `status`: added to the real response). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Body of the injected answer: a string is sent as-is, anything else as JSON (default `{error:{detail:'Injected fault.'}}`). */
  readonly body?: unknown;
  /** Real milliseconds to wait before answering (for client timeout tests). */
  readonly delayMs?: number | undefined;
  /** Destroy the connection instead of answering (the dispatcher reports a socket error). */
  readonly drop?: boolean | undefined;
  /** Send the body slowly, a few bytes at a time (the answer is complete, only late). */
  readonly drip?: Drip | undefined;
  /**
   * Send the headers, with the `Content-Length` of the whole body, and at most this many bytes of it
   * (always at least one byte short), then destroy the connection.
   */
  readonly cutAfterBytes?: number | undefined;
  /**
   * Process the request, then answer 200 (or `status`) with the first half of the real JSON body: a
   * complete response whose JSON is truncated, as a broken proxy or server produces.
   */
  readonly malformedJson?: boolean | undefined;
  /** Answer an HTML error page (`text/html`), as a proxy in front of an API does: status 502 unless `status` says otherwise. */
  readonly htmlPage?: boolean | undefined;
}

/**
 * A fault to inject into the next matching requests.
 *
 * @example
 * ```ts
 * server.injectFault({ path: '/v1/calls/', status: 503, times: 2 });
 * server.injectFault({ path: /\/transcript\/$/, drop: true });
 * server.injectFault({ path: '/v1/users/', cutAfterBytes: 100 });
 * ```
 */
export interface FaultSpec extends RouteMatch, FaultAction {
  /** How many matching requests it applies to (default 1). */
  readonly times?: number | undefined;
}

/**
 * One kind of failure in a fault rate's mix, drawn in proportion to its `weight` (default 1).
 *
 * @example
 * ```ts
 * const mix: FaultMixEntry[] = [{ status: 503, weight: 3 }, { drop: true }, { cutAfterBytes: 64 }];
 * ```
 */
export interface FaultMixEntry extends FaultAction {
  /** Relative share of this entry (default 1). */
  readonly weight?: number | undefined;
}

/**
 * "This share of matching requests fails with this mix": a seeded background of trouble, beside the
 * next-N faults of {@link FaultSpec}. When an armed next-N fault matches a request too, it wins (it was
 * aimed at that request); the rate's draw for the request is made all the same, so arming a fault never
 * shifts which later requests the rate fails.
 *
 * @example
 * ```ts
 * const server = createMockServer({ faultRate: { rate: 0.05 } satisfies FaultRateSpec });
 * server.setFaultRate({ path: /^\/v1\/calls\//, rate: 0.2, mix: [{ status: 503 }, { drop: true }], max: 10 });
 * ```
 */
export interface FaultRateSpec extends RouteMatch {
  /** The share of matching requests that fail, from 0 to 1. */
  readonly rate: number;
  /** What they fail with (default {@link DEFAULT_FAULT_MIX}). */
  readonly mix?: readonly FaultMixEntry[] | undefined;
  /** Fail at most this many requests, then none (default: no cap). */
  readonly max?: number | undefined;
}

/**
 * A fault rate in force: one rule for every request, or rules per route (the first matching rule decides).
 *
 * @example
 * ```ts
 * const rates: FaultRates = [{ method: 'POST', rate: 0.1, mix: [{ status: 500 }] }, { rate: 0.02 }];
 * ```
 */
export type FaultRates = FaultRateSpec | readonly FaultRateSpec[];

/**
 * The mix of a fault rate that names none: the failures a resilient client retries and survives, in equal
 * shares: a 500, a 503, an HTML 502 page from a proxy, a dropped connection and a body cut after 64 bytes.
 *
 * @example
 * ```ts
 * server.setFaultRate({ rate: 0.05, mix: [...DEFAULT_FAULT_MIX, { malformedJson: true }] });
 * ```
 */
export const DEFAULT_FAULT_MIX: readonly FaultMixEntry[] = Object.freeze([
  { status: 500 },
  { status: 503 },
  { status: 502, htmlPage: true },
  { drop: true },
  { cutAfterBytes: 64 },
]);

/** A fault as the engine applies it: armed (next-N) or drawn by a fault rate. */
export type InjectedFault = FaultAction & { readonly fromRate?: true | undefined };

interface ArmedFault {
  readonly spec: FaultSpec;
  remaining: number;
}

/**
 * A fault armed for the next matching requests: as it was given to `injectFault` (its method in upper case),
 * with how many requests it has still to fail.
 *
 * @example
 * ```ts
 * server.injectFault({ path: '/v1/calls/', status: 503, times: 2 });
 * console.log(server.armedFaults()[0]?.remaining); // → 2
 * ```
 */
export interface ArmedFaultInfo extends FaultSpec {
  /** The matching requests it has still to fail (from `times` down to 1; gone at 0). */
  readonly remaining: number;
}

const rule = (text: string) => ({ error: text });
const STATUS = 'must be an HTTP status (100–599)';
const NON_NEGATIVE = 'must be ≥ 0';
const WHOLE_NON_NEGATIVE = 'must be an integer ≥ 0';
const WHOLE_POSITIVE = 'must be an integer ≥ 1';
const DRIP = 'needs bytes (an integer ≥ 1) and everyMs (≥ 0)';

/**
 * The fields of what a fault does, with their bounds and messages (relative to the field): the one
 * schema of a fault, read by the server's controls, the admin API (which adds its route fields) and the
 * CLI's fault mix.
 */
export const FAULT_ACTION_FIELDS = {
  status: z.int(rule(STATUS)).min(100, rule(STATUS)).max(599, rule(STATUS)).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  delayMs: z.number(rule(NON_NEGATIVE)).nonnegative(rule(NON_NEGATIVE)).optional(),
  drop: z.boolean().optional(),
  drip: z
    .strictObject(
      {
        bytes: z.int(rule(DRIP)).min(1, rule(DRIP)),
        everyMs: z.number(rule(DRIP)).nonnegative(rule(DRIP)),
      },
      rule(DRIP),
    )
    .optional(),
  cutAfterBytes: z.int(rule(WHOLE_NON_NEGATIVE)).nonnegative(rule(WHOLE_NON_NEGATIVE)).optional(),
  malformedJson: z.boolean().optional(),
  htmlPage: z.boolean().optional(),
};

/** How many requests a next-N fault applies to. */
export const FAULT_TIMES = z.int(rule(WHOLE_POSITIVE)).min(1, rule(WHOLE_POSITIVE)).optional();

/**
 * The fields of a fault rate besides its route: the share, the mix (each entry a fault with a weight)
 * and the cap.
 *
 * @param object - `z.object` where extra fields ride along (code), `z.strictObject` where they are typos (JSON).
 */
export function faultRateFields(object: typeof z.object | typeof z.strictObject) {
  return {
    rate: z
      .number(rule('must be a share from 0 to 1'))
      .min(0, rule('must be a share from 0 to 1'))
      .max(1, rule('must be a share from 0 to 1')),
    mix: z
      .array(
        object({
          ...FAULT_ACTION_FIELDS,
          weight: z.number(rule('must be > 0')).positive(rule('must be > 0')).optional(),
        }),
      )
      .min(1, rule('needs at least one entry'))
      .optional(),
    max: z.int(rule(WHOLE_POSITIVE)).min(1, rule(WHOLE_POSITIVE)).optional(),
  };
}

const FaultActionSchema = z.object(FAULT_ACTION_FIELDS);
const FaultSpecSchema = z.object({ times: FAULT_TIMES, ...FAULT_ACTION_FIELDS });
const FaultRateSchema = z.object(faultRateFields(z.object));

/** Throws the first problem of `value` by `schema`, as `<name>.<path> <message>`. */
function check(schema: z.ZodType, value: unknown, name: string): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? [])
    .filter((part) => part !== 'bytes' && part !== 'everyMs')
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
    .join('');
  throw new RangeError(`${name}${path} ${issue?.message ?? 'is invalid'}`);
}

/**
 * Checks what a fault does.
 *
 * @param action - the fault.
 * @param name - how messages name it, e.g. `fault`.
 * @throws RangeError for a negative `delayMs`, a status outside 100–599, a bad drip or cut.
 */
export function checkFaultAction(action: FaultAction, name: string): void {
  check(FaultActionSchema, action, name);
}

/** Faults waiting for matching requests, first injected first applied. */
export class FaultQueue {
  #armed: ArmedFault[] = [];

  /** Number of faults still armed. */
  get size(): number {
    return this.#armed.length;
  }

  /**
   * Arms a fault.
   *
   * @throws RangeError for a non-positive `times`, a negative `delayMs`, a status outside 100–599, a bad drip or cut.
   */
  add(spec: FaultSpec): void {
    check(FaultSpecSchema, spec, 'fault');
    const times = spec.times ?? 1;
    this.#armed.push({ spec: { ...spec, method: spec.method?.toUpperCase() }, remaining: times });
  }

  clear(): void {
    this.#armed = [];
  }

  /** The faults still armed, in the order they match, each with the requests it has still to fail. */
  armed(): ArmedFaultInfo[] {
    return this.#armed.map(({ spec, remaining }) => ({ ...spec, remaining }));
  }

  /** The first fault matching the request, counted as used; undefined when none matches. */
  take(method: string, path: string): FaultSpec | undefined {
    const index = this.#armed.findIndex(({ spec }) => routeMatches(spec, method, path));
    if (index < 0) return undefined;
    const armed = this.#armed[index] as ArmedFault;
    armed.remaining--;
    if (armed.remaining === 0) this.#armed.splice(index, 1);
    return armed.spec;
  }
}

/** Mixed into the server's seed so the fault stream is independent of the data and of the latency. */
const FAULT_RATE_SALT = 0x0fa1_7ea7;

interface RateRule {
  readonly match: RouteMatch;
  readonly rate: number;
  readonly mix: readonly InjectedFault[];
  /** Running totals of the weights, for one draw over the mix. */
  readonly cumulative: readonly number[];
  remaining: number;
}

/** Fault rates in force: matches requests and draws their fate from its own seeded stream. */
export class FaultRateTable {
  /** The rates, as given. */
  readonly rates: FaultRates;
  readonly #rules: readonly RateRule[];
  readonly #random: Prng;

  /**
   * @param rates - the rates.
   * @param seed - the server's seed (the stream starts again with every new table).
   * @param resume - where a saved table stood: its stream and each rule's faults still to apply (its
   * {@link FaultRateTable.stream} and {@link FaultRateTable.remaining}; default: the start).
   * @throws RangeError for a rate outside 0–1, an empty mix, a weight ≤ 0, a cap below 1 or a bad fault.
   */
  constructor(
    rates: FaultRates,
    seed: number,
    resume?: { readonly stream: number; readonly remaining: readonly number[] },
  ) {
    this.rates = rates;
    const specs: readonly FaultRateSpec[] = Array.isArray(rates) ? rates : [rates as FaultRateSpec];
    this.#rules = specs.map(rateRule);
    this.#random = new Prng(resume?.stream ?? hashInts(seed, FAULT_RATE_SALT));
    this.#rules.forEach((rule, index) => {
      const remaining = resume?.remaining[index];
      if (remaining !== undefined) rule.remaining = Math.min(rule.remaining, remaining);
    });
  }

  /** Where its seeded stream stands (see {@link Prng.state}). */
  get stream(): number {
    return this.#random.state;
  }

  /** How many faults each rule may still apply (Infinity for a rule without `max`). */
  get remaining(): number[] {
    return this.#rules.map((rule) => rule.remaining);
  }

  /**
   * Draws a request's fate.
   *
   * @param method - the request's method.
   * @param path - the request's path.
   * @param apply - false when a next-N fault already answers the request: drawn, but neither applied nor counted.
   * @returns the fault to apply, or undefined.
   */
  draw(method: string, path: string, apply: boolean): InjectedFault | undefined {
    const found = this.#rules.find(({ match }) => routeMatches(match, method, path));
    if (found === undefined || found.remaining === 0) return undefined;
    const fails = this.#random.next() < found.rate;
    if (!fails) return undefined;
    const total = found.cumulative[found.cumulative.length - 1] as number;
    const pick = this.#random.next() * total;
    const index = found.cumulative.findIndex((bound) => pick < bound);
    if (!apply) return undefined;
    found.remaining--;
    return found.mix[index < 0 ? found.mix.length - 1 : index];
  }
}

function rateRule(spec: FaultRateSpec, index: number): RateRule {
  check(FaultRateSchema, spec, `faultRate[${index}]`);
  let sum = 0;
  const cumulative: number[] = [];
  const mix = (spec.mix ?? DEFAULT_FAULT_MIX).map(({ weight = 1, ...action }) => {
    sum += weight;
    cumulative.push(sum);
    return { ...action, fromRate: true as const };
  });
  const max = spec.max ?? Number.POSITIVE_INFINITY;
  return {
    match: { method: spec.method?.toUpperCase(), path: spec.path },
    rate: spec.rate,
    mix,
    cumulative,
    remaining: max,
  };
}

/** What `--fault-mix` words mean; `<n>` is a number, `*<w>` after any word a weight. */
const MIX_WORDS: Readonly<Record<string, (argument: number[]) => FaultAction>> = {
  drop: () => ({ drop: true }),
  cut: ([bytes = 64]) => ({ cutAfterBytes: bytes }),
  html: ([status = 502]) => ({ status, htmlPage: true }),
  malformed: () => ({ malformedJson: true }),
  delay: ([ms = 5000]) => ({ delayMs: ms }),
  drip: ([bytes = 16, everyMs = 500]) => ({ drip: { bytes, everyMs } }),
};

/**
 * Writes a fault mix in the command line's words, as {@link parseFaultMix} reads them back (the help
 * text's default is {@link DEFAULT_FAULT_MIX} written this way, never retyped).
 *
 * @param mix - the mix.
 * @returns e.g. `500,503,html,drop,cut:64`.
 * @throws Error for an entry with no words (e.g. only headers).
 */
export function faultMixText(mix: readonly FaultMixEntry[]): string {
  return mix
    .map((entry) => {
      const word = mixWord(entry);
      return entry.weight === undefined || entry.weight === 1 ? word : `${word}*${entry.weight}`;
    })
    .join(',');
}

function mixWord(entry: FaultAction): string {
  if (entry.htmlPage)
    return entry.status === undefined || entry.status === 502 ? 'html' : `html:${entry.status}`;
  if (entry.drop) return 'drop';
  if (entry.cutAfterBytes !== undefined) return `cut:${entry.cutAfterBytes}`;
  if (entry.malformedJson) return 'malformed';
  if (entry.delayMs !== undefined) return `delay:${entry.delayMs}`;
  if (entry.drip !== undefined) return `drip:${entry.drip.bytes}/${entry.drip.everyMs}`;
  if (entry.status !== undefined) return String(entry.status);
  throw new Error(`no command-line word for the fault ${JSON.stringify(entry)}`);
}

/**
 * Reads the command line's fault mix: comma-separated entries, each a status (`503`), `drop`,
 * `cut[:<bytes>]`, `html[:<status>]`, `malformed`, `delay[:<ms>]` or `drip[:<bytes>/<ms>]`, with an
 * optional weight `*<n>`; e.g. `503*3,drop,cut:100,html`.
 *
 * @param text - the text.
 * @returns the mix.
 * @throws Error naming the entry it cannot read and the accepted forms.
 */
export function parseFaultMix(text: string): FaultMixEntry[] {
  return text.split(',').map((raw) => {
    const entry = /^([a-z]+|\d{3})(?::(\d+(?:\/\d+)?))?(?:\*(\d+(?:\.\d+)?))?$/.exec(raw.trim());
    const word = entry?.[1] ?? '';
    const make = /^\d{3}$/.test(word) ? () => ({ status: Number(word) }) : MIX_WORDS[word];
    if (!entry || !make)
      throw new Error(
        `cannot read "${raw}": use a status (503), drop, cut[:<bytes>], html[:<status>], malformed, delay[:<ms>] or drip[:<bytes>/<ms>], each with an optional weight *<n>, comma-separated`,
      );
    const action = make(entry[2] === undefined ? [] : entry[2].split('/').map(Number));
    checkFaultAction(action, `"${raw}"`);
    return entry[3] === undefined ? action : { ...action, weight: Number(entry[3]) };
  });
}
