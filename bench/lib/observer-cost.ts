/**
 * What figures 1b (OpenTelemetry) and 1c (tracing channels) share: what an observer of the SDK costs a
 * request. One client of the built SDK sends `calls.list` requests to a `fetch` that answers at once from
 * memory (every line of the observing runs in the SDK, on the client's CPU, and a socket would only add its
 * noise to a difference of a microsecond); the observer is switched between blocks of requests, and between
 * rounds of a tight loop that times, alone, what a call adds for it.
 */
import * as sdk from '@company-data/sdk';
import { CompanyData } from '@company-data/sdk';
import { assertFreshBuild, assertRunsBuiltSdk } from './built.js';
import type { FigureContext, ResultBuilder } from './figure.js';
import { interleaveNamed, type NamedTimings } from './loop.js';
import { measurement } from './result.js';

/** Calls per round of the tight loop that times what a call adds, alone. */
export const TIGHT_LOOP = 1_000_000;

/** The smallest page, which every request gets: what a page costs to read is the same in every variant. */
export const EMPTY_PAGE = JSON.stringify({
  data: [],
  pagination: { count: 0, page: 1, page_size: 25, total_pages: 0 },
});

/** How long a figure measures: rounds of blocks of requests, after a warm-up (fewer with `--quick`). */
export interface Rounds {
  readonly rounds: number;
  readonly count: number;
  readonly warmup: number;
}

/** The observers a figure compares, by name, the first the one without (the others' cost is over it). */
export type Observers<Name extends string> = Readonly<Record<Name, string>>;

/**
 * A figure over the built SDK: checks that the build is fresh and is what the figure runs, and gives its
 * rounds and a client whose requests are answered from memory.
 */
export function builtSdkInMemory(
  ctx: FigureContext,
): Rounds & { client: CompanyData; call: () => Promise<unknown> } {
  assertFreshBuild();
  assertRunsBuiltSdk(import.meta.resolve('@company-data/sdk'), sdk);
  const headers = { 'content-type': 'application/json' };
  const client = new CompanyData({
    apiKey: 'svc_live_benchmark_key',
    baseURL: 'http://127.0.0.1:9/v1',
    validate: false,
    fetch: async () => new Response(EMPTY_PAGE, { status: 200, headers }),
  });
  return {
    rounds: ctx.quick ? 5 : 41,
    count: ctx.quick ? 1_000 : 5_000,
    warmup: ctx.quick ? 1_000 : 5_000,
    client,
    call: () => client.calls.list({ page_size: 25 }),
  };
}

/**
 * Times `work` alone in a tight loop of {@link TIGHT_LOOP} calls per round, under each observer in turn
 * (their order alternating round by round): client CPU in ns a call, one value per round.
 *
 * @param switchTo - sets the observer up (and the others down).
 */
export function tightLoopNs<Name extends string>(
  names: readonly Name[],
  rounds: number,
  switchTo: (name: Name) => void,
  work: () => void,
): Record<Name, number[]> {
  const perCall = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      switchTo(name);
      const started = process.cpuUsage();
      for (let n = 0; n < TIGHT_LOOP; n++) work();
      const used = process.cpuUsage(started);
      perCall[name].push(((used.user + used.system) * 1000) / TIGHT_LOOP);
    }
  }
  return perCall;
}

/**
 * Whole requests under each observer, in alternating blocks, each measured (client CPU and wall); then each
 * observer's cost over the first one, round by round, as its measurement.
 *
 * @param observers - each observer's label; the first is the one the others are compared with.
 * @param switchTo - sets the observer up (and the others down) before a block.
 * @returns each observer's median cost over the first, client CPU µs a request.
 */
export async function requestCosts<Name extends string>(
  ctx: FigureContext,
  r: ResultBuilder,
  setup: Rounds & { call: () => Promise<unknown> },
  observers: Observers<Name>,
  switchTo: (name: Name) => void,
  costLabel: (name: Name) => string,
): Promise<{ extraCpu: Record<Name, number>; base: NamedTimings }> {
  const names = Object.keys(observers) as Name[];
  const variants = Object.fromEntries(
    names.map((name) => [
      name,
      {
        label: observers[name],
        op: () => {
          switchTo(name);
          return setup.call();
        },
      },
    ]),
  ) as Record<Name, { label: string; op: () => Promise<unknown> }>;
  const { rounds, count, warmup } = setup;
  const results = await interleaveNamed(variants, { rounds, count, warmup, maxMs: 4_000, log: ctx.log });
  for (const name of names) {
    r.measure(measurement(`${observers[name]} — client CPU`, 'CPU µs/request', results[name].cpu));
    r.measure(measurement(`${observers[name]} — wall`, 'µs/request', results[name].wall));
  }
  const [first, ...others] = names as [Name, ...Name[]];
  const base = results[first];
  const extraCpu = {} as Record<Name, number>;
  for (const name of others) {
    const extra = results[name].cpu.map((value, round) => value - (base.cpu[round] ?? Number.NaN));
    extraCpu[name] = r.measure(measurement(costLabel(name), 'CPU µs/request', extra)).median;
  }
  return { extraCpu, base };
}
