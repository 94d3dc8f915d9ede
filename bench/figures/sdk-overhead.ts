/**
 * Figure 1: what the SDK adds per request. A bare server in another process answers every request with
 * the same pre-serialised page of 25 calls; the SDK (validation on and off) is timed against raw
 * `undici.request` + `JSON.parse` and against Node's global `fetch`, in interleaved sequential loops.
 * The SDK and the contract are their built `dist` files, as users install them (see `built` in `index.ts`).
 */
import { CallList } from '@company-data/contract';
import { RESPONSE_CHECKS } from '@company-data/contract/runtime';
import * as sdk from '@company-data/sdk';
import { CompanyData } from '@company-data/sdk';
import { request } from 'undici';
import { assertFreshBuild, assertRunsBuiltSdk } from '../lib/built.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { callsPageBytes } from '../lib/fixture.js';
import { interleaveNamed, runFor, type Variant } from '../lib/loop.js';
import { describeDifference, describeProfile, startProfile } from '../lib/profile.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { startHosted } from '../lib/servers.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'sdk-overhead') as (typeof FIGURES)[number];
const API_KEY = 'svc_live_benchmark_key';

/** Runs figure 1. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  assertFreshBuild();
  assertRunsBuiltSdk(import.meta.resolve('@company-data/sdk'), sdk);
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 3 : 15;
  const count = ctx.quick ? 300 : 1_000;
  const warmup = ctx.quick ? 200 : 500;
  const body = callsPageBytes();
  r.method(
    `Sequential requests for one ${(body.length / 1024).toFixed(1)} KB page of 25 calls (valid against the contract's ` +
      `CallList) served as pre-serialised bytes by a bare node:http server in a separate process on 127.0.0.1. ` +
      `${warmup} warm-up requests per variant, then ${rounds} interleaved rounds of up to ${count} requests per ` +
      `variant (each round capped at 4 s per variant); the value is mean µs per request in a round, median over rounds. ` +
      `The SDK and the contract run from their built dist files (checked current, and byte for byte the files' code).`,
  );
  const server = await startHosted({ kind: 'bare', bodyBase64: body.toString('base64') });
  try {
    const url = `${server.baseURL}/calls/?page_size=25`;
    const headers = { authorization: `Bearer ${API_KEY}` };
    const checkCallList = RESPONSE_CHECKS.listCalls;
    if (!checkCallList) throw new Error('the contract has no compiled check for listCalls');
    const validating = new CompanyData({ apiKey: API_KEY, baseURL: server.baseURL });
    const trusting = new CompanyData({ apiKey: API_KEY, baseURL: server.baseURL, validate: false });
    const variants = {
      raw: {
        label: 'raw undici.request + JSON.parse',
        op: async () => {
          const res = await request(url, { headers });
          return JSON.parse(await res.body.text());
        },
      },
      fetch: {
        label: 'global fetch + response.json()',
        op: async () => {
          const res = await fetch(url, { headers });
          return res.json();
        },
      },
      zod: {
        label: 'raw undici + JSON.parse + zod CallList.parse (reference: what validating with zod costs)',
        op: async () => {
          const res = await request(url, { headers });
          return CallList.parse(JSON.parse(await res.body.text()));
        },
      },
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
      sdkOn: { label: 'SDK calls.list, validation on', op: () => validating.calls.list({ page_size: 25 }) },
      sdkOff: { label: 'SDK calls.list, validation off', op: () => trusting.calls.list({ page_size: 25 }) },
    } satisfies Record<string, Variant>;
    // Prove the SDK really gets the page before timing it.
    const page = await validating.calls.list({ page_size: 25 });
    if (page.data.length !== 25) throw new Error(`the SDK returned ${page.data.length} calls, expected 25`);

    const results = await interleaveNamed(variants, { rounds, count, warmup, maxMs: 4_000, log: ctx.log });
    type Name = keyof typeof variants;
    const names = Object.keys(variants) as Name[];
    const wall = Object.fromEntries(
      names.map((name) => [
        name,
        r.measure(measurement(variants[name].label, 'µs/request', results[name].wall)).median,
      ]),
    ) as Record<Name, number>;
    // Client CPU per request: steadier than wall time when other processes compete for the two cores.
    const cpu = Object.fromEntries(
      names.map((name) => [
        name,
        r.measure(measurement(`${variants[name].label} — client CPU`, 'CPU µs/request', results[name].cpu))
          .median,
      ]),
    ) as Record<Name, number>;
    r.note(
      `Validating the 25-call page with zod (the contract's CallList.parse) would cost ≈ ${Math.round(cpu.zod - cpu.raw)} µs ` +
        `of client CPU per request (${(cpu.zod / cpu.raw).toFixed(2)}× raw undici's CPU; wall ${(wall.zod / wall.raw).toFixed(2)}×); ` +
        `the check compiled from the same schema, which the SDK runs, costs ≈ ${Math.round(cpu.compiled - cpu.raw)} µs ` +
        `(${(cpu.compiled / cpu.raw).toFixed(2)}×; wall ${(wall.compiled / wall.raw).toFixed(2)}×). Both check every field of every item.`,
    );

    /** Each check: its SDK variant and the baseline it is compared with. */
    const compared = [
      {
        id: 'overhead.validate-on',
        sdk: 'sdkOn',
        versus: 'raw',
        label: 'SDK (validation on) / raw undici',
        limit: 1.2,
      },
      {
        id: 'overhead.validate-off',
        sdk: 'sdkOff',
        versus: 'raw',
        label: 'SDK (validation off) / raw undici',
        limit: 1.05,
      },
      {
        id: 'overhead.fetch-on',
        sdk: 'sdkOn',
        versus: 'fetch',
        label: 'SDK (validation on) / global fetch',
        limit: 1,
      },
      {
        id: 'overhead.fetch-off',
        sdk: 'sdkOff',
        versus: 'fetch',
        label: 'SDK (validation off) / global fetch',
        limit: 1,
      },
    ] as const;
    const checks = compared.map((c) => {
      const check = atMost(c.id, c.label, wall[c.sdk] / wall[c.versus], c.limit);
      // Faster than fetch is the target: strictly below 1.
      if (c.versus === 'fetch') return { ...check, target: '< 1×', pass: wall[c.sdk] / wall[c.versus] < 1 };
      return check;
    });
    for (const check of checks) r.check(check);
    r.note(
      `Cross-check on client CPU time per request (the wall-time ratios above also contain the server's and the ` +
        `kernel's share, and the scheduling noise of a shared machine): SDK validation on / raw undici = ` +
        `${(cpu.sdkOn / cpu.raw).toFixed(2)}×, validation off / raw undici = ${(cpu.sdkOff / cpu.raw).toFixed(2)}×, ` +
        `validation on / fetch = ${(cpu.sdkOn / cpu.fetch).toFixed(2)}×, off / fetch = ${(cpu.sdkOff / cpu.fetch).toFixed(2)}×.`,
    );
    // Name what limits each miss: profile the slow variant and its baseline alike, and compare per request.
    const profiled = async (name: Name) => {
      const stop = await startProfile();
      const ops = await runFor(variants[name].op, 4_000, 2_000);
      return { label: variants[name].label, summary: await stop(), ops };
    };
    for (const [index, check] of checks.entries()) {
      if (check.pass !== false) continue;
      const { sdk, versus } = compared[index] as (typeof compared)[number];
      const slow = await profiled(sdk);
      const baseline = await profiled(versus);
      const floor =
        check.id === 'overhead.validate-on'
          ? `The compiled check alone is ${(cpu.compiled / cpu.raw).toFixed(2)}× raw undici's client CPU (see the notes). `
          : '';
      check.note = `${floor}${describeDifference(slow, baseline)} ${describeProfile(`"${slow.label}"`, slow.summary)}`;
    }
    await validating.close();
    await trusting.close();
    return r.build();
  } finally {
    await server.close();
  }
}
