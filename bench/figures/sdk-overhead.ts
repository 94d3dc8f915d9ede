/**
 * Figure 1: what the SDK adds per request, in the client's CPU time. A bare server in another process
 * answers every request with the same pre-serialised page of 25 calls; the SDK (validation on and off), the
 * references and Node's global `fetch` each run blocks of sequential requests that alternate with blocks of
 * raw `undici.request` + `JSON.parse` (`lib/alternate.ts`), and each block is compared with the raw blocks
 * around it. The SDK and the contract are their built `dist` files, as users install them (see `built` in
 * `index.ts`).
 */
import { CallList } from '@company-data/contract';
import { RESPONSE_CHECKS } from '@company-data/contract/runtime';
import * as sdk from '@company-data/sdk';
import { CompanyData } from '@company-data/sdk';
import { request } from 'undici';
import { alternateWithBaseline } from '../lib/alternate.js';
import { assertFreshBuild, assertRunsBuiltSdk } from '../lib/built.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { callsPageBytes } from '../lib/fixture.js';
import { runFor, type Variant } from '../lib/loop.js';
import { describeDifference, describeProfile, startProfile } from '../lib/profile.js';
import { atMost, type Check, type FigureResult, measurement } from '../lib/result.js';
import { startHosted } from '../lib/servers.js';
import { median, percentile } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'sdk-overhead') as (typeof FIGURES)[number];
const API_KEY = 'svc_live_benchmark_key';

/** A whole number of µs with its sign, e.g. `+12` or `-3`. */
const signed = (value: number) => (value >= 0 ? `+${value}` : String(value));

/** A list of per-block values as its median and interquartile range, e.g. `1.04× (1.01–1.07×)`. */
function spread(values: readonly number[], digits = 3, unit = '×'): string {
  const at = (p: number) => percentile(values, p).toFixed(digits);
  return `${median(values).toFixed(digits)}${unit} (${at(25)}–${at(75)}${unit})`;
}

/** Runs figure 1. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  assertFreshBuild();
  assertRunsBuiltSdk(import.meta.resolve('@company-data/sdk'), sdk);
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 3 : 16;
  const count = ctx.quick ? 300 : 1_000;
  const warmup = ctx.quick ? 200 : 1_000;
  const body = callsPageBytes();
  r.method(
    `Sequential requests for one ${(body.length / 1024).toFixed(1)} KB page of 25 calls (valid against the contract's ` +
      `CallList) served as pre-serialised bytes by a bare node:http server in a separate process on 127.0.0.1. ` +
      `Measured in the client process's CPU time (process.cpuUsage(), user + system) per call, in alternating blocks of ` +
      `${count} calls (each capped at 4 s): raw undici.request + JSON.parse, then a block of one of the others, then raw ` +
      `again, and so on, ${rounds} rounds of every variant (each round starting from another), after ${warmup} warm-up ` +
      `calls of each. Each block is compared with the mean of the raw blocks before and after it; a ratio is the median ` +
      `of those per-block ratios, with their interquartile range. The SDK and the contract run from their built dist ` +
      `files (checked current, and byte for byte the files' code).`,
  );
  const server = await startHosted({ kind: 'bare', bodyBase64: body.toString('base64') });
  try {
    const url = `${server.baseURL}/calls/?page_size=25`;
    const headers = { authorization: `Bearer ${API_KEY}` };
    const checkCallList = RESPONSE_CHECKS.listCalls;
    if (!checkCallList) throw new Error('the contract has no compiled check for listCalls');
    const validating = new CompanyData({ apiKey: API_KEY, baseURL: server.baseURL });
    const trusting = new CompanyData({ apiKey: API_KEY, baseURL: server.baseURL, validate: false });
    const raw: Variant = {
      label: 'raw undici.request + JSON.parse',
      op: async () => {
        const res = await request(url, { headers });
        return JSON.parse(await res.body.text());
      },
    };
    const variants = {
      sdkOff: { label: 'SDK calls.list, validation off', op: () => trusting.calls.list({ page_size: 25 }) },
      sdkOn: { label: 'SDK calls.list, validation on', op: () => validating.calls.list({ page_size: 25 }) },
      compiled: {
        label:
          "raw undici + JSON.parse + the contract's compiled check (reference: the SDK's validation alone)",
        op: async () => {
          const res = await request(url, { headers });
          const json: unknown = JSON.parse(await res.body.text());
          if (!checkCallList(json)) throw new Error('the compiled check refused the page');
          return json;
        },
      },
      zod: {
        label: 'raw undici + JSON.parse + zod CallList.parse (reference: what validating with zod costs)',
        op: async () => {
          const res = await request(url, { headers });
          return CallList.parse(JSON.parse(await res.body.text()));
        },
      },
      fetch: {
        label: 'global fetch + response.json()',
        op: async () => {
          const res = await fetch(url, { headers });
          return res.json();
        },
      },
    } satisfies Record<string, Variant>;
    // Prove the SDK really gets the page before timing it.
    const page = await validating.calls.list({ page_size: 25 });
    if (page.data.length !== 25) throw new Error(`the SDK returned ${page.data.length} calls, expected 25`);

    const results = await alternateWithBaseline(raw, variants, {
      rounds,
      count,
      warmup,
      maxMs: 4_000,
      log: ctx.log,
    });
    type Name = keyof typeof variants;
    const names = Object.keys(variants) as Name[];
    r.measure(measurement(`${raw.label} — client CPU`, 'CPU µs/call', results.baseline.cpu));
    const cpu = { raw: median(results.baseline.cpu) } as Record<Name | 'raw', number>;
    const ratio = {} as Record<Name, number>;
    for (const name of names) {
      const timings = results.variants[name];
      const label = variants[name].label;
      cpu[name] = r.measure(measurement(`${label} — client CPU`, 'CPU µs/call', timings.cpu)).median;
      const q = (p: number) => percentile(timings.cpuRatio, p);
      ratio[name] = r.measure(
        measurement(`${label} / raw undici — client CPU, per block`, '×', timings.cpuRatio, {
          interquartile: `${q(25).toFixed(3)}–${q(75).toFixed(3)}`,
        }),
      ).median;
    }
    r.measure(measurement(`${raw.label} — wall`, 'µs/call', results.baseline.wall));
    for (const name of ['sdkOff', 'sdkOn'] as const) {
      r.measure(measurement(`${variants[name].label} — wall`, 'µs/call', results.variants[name].wall));
    }
    // µs a call over raw: the median of each block's difference with the raw blocks around it.
    const extra = (name: Name) => Math.round(median(results.variants[name].cpuExtra));
    r.note(
      `Client CPU per call, median of each variant's blocks: raw undici ${Math.round(cpu.raw)} µs; the SDK ` +
        `${Math.round(cpu.sdkOff)} µs with validation off (${spread(results.variants.sdkOff.cpuRatio)} of the raw ` +
        `blocks around it, ≈ ${signed(extra('sdkOff'))} µs) and ${Math.round(cpu.sdkOn)} µs with validation on ` +
        `(${spread(results.variants.sdkOn.cpuRatio)}, ≈ ${signed(extra('sdkOn'))} µs); global fetch ${Math.round(cpu.fetch)} µs ` +
        `(${spread(results.variants.fetch.cpuRatio, 2)}).`,
    );
    r.note(
      `Validation of the 25-call page: the SDK with it on costs ≈ ${extra('sdkOn') - extra('sdkOff')} µs of client CPU ` +
        `more than with it off (each against its raw blocks); the contract's compiled check alone ≈ ${extra('compiled')} µs over raw ` +
        `(${spread(results.variants.compiled.cpuRatio)}), zod's CallList.parse ≈ ${extra('zod')} µs ` +
        `(${spread(results.variants.zod.cpuRatio)}). Both check every field of every item.`,
    );
    r.note(
      `Cross-check on wall time (it also holds the server's and the kernel's share, and the scheduling noise of a ` +
        `shared machine), per block against the raw blocks around it: validation off ${spread(results.variants.sdkOff.wallRatio)}, ` +
        `on ${spread(results.variants.sdkOn.wallRatio)}.`,
    );

    /** Each check: its SDK variant, the baseline it is compared with, and its client-CPU ratio. */
    const compared = [
      {
        id: 'overhead.validate-on',
        sdk: 'sdkOn',
        versus: 'raw',
        label: 'SDK (validation on) / raw undici, client CPU',
        limit: 1.1,
      },
      {
        id: 'overhead.validate-off',
        sdk: 'sdkOff',
        versus: 'raw',
        label: 'SDK (validation off) / raw undici, client CPU',
        limit: 1.05,
      },
      {
        id: 'overhead.fetch-on',
        sdk: 'sdkOn',
        versus: 'fetch',
        label: 'SDK (validation on) / global fetch, client CPU',
        limit: 1,
      },
      {
        id: 'overhead.fetch-off',
        sdk: 'sdkOff',
        versus: 'fetch',
        label: 'SDK (validation off) / global fetch, client CPU',
        limit: 1,
      },
    ] as const;
    const checks = compared.map((c): Check => {
      // Against raw undici: the paired blocks. Against fetch (2–3× raw's cost), the medians say it plainly.
      if (c.versus === 'raw') return atMost(c.id, c.label, ratio[c.sdk], c.limit);
      const value = cpu[c.sdk] / cpu.fetch;
      // Faster than fetch is the target: strictly below 1.
      return { ...atMost(c.id, c.label, value, c.limit), target: '< 1×', pass: value < 1 };
    });
    for (const check of checks) r.check(check);
    // Name what limits each miss: profile the slow variant and its baseline alike, and compare per request.
    const profiled = async (variant: Variant) => {
      const stop = await startProfile();
      const ops = await runFor(variant.op, 4_000, 2_000);
      return { label: variant.label, summary: await stop(), ops };
    };
    for (const [index, check] of checks.entries()) {
      if (check.pass !== false) continue;
      const { sdk, versus } = compared[index] as (typeof compared)[number];
      const slow = await profiled(variants[sdk]);
      const baseline = await profiled(versus === 'raw' ? raw : variants.fetch);
      check.note = `${describeDifference(slow, baseline)} ${describeProfile(`"${slow.label}"`, slow.summary)}`;
    }
    await validating.close();
    await trusting.close();
    return r.build();
  } finally {
    await server.close();
  }
}
