/**
 * Figure 1: what the SDK adds per request. A bare server in another process answers every request with
 * the same pre-serialised page of 25 calls; the SDK (validation on and off) is timed against raw
 * `undici.request` + `JSON.parse` and against Node's global `fetch`, in interleaved sequential loops.
 */
import { CallList } from '@company-data/contract';
import { request } from 'undici';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { callsPageBytes } from '../lib/fixture.js';
import { interleave, runFor, type Variant } from '../lib/loop.js';
import { loadSdk, NotReady } from '../lib/packages.js';
import { describeDifference, describeProfile, startProfile } from '../lib/profile.js';
import { atMost, type FigureResult, measurement, notMeasured } from '../lib/result.js';
import { startHosted } from '../lib/servers.js';
import { stripMode } from '../lib/strip.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'sdk-overhead') as (typeof FIGURES)[number];
const API_KEY = 'svc_live_benchmark_key';

/** Runs figure 1. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 3 : 7;
  const count = ctx.quick ? 300 : 1_000;
  const warmup = ctx.quick ? 200 : 500;
  const body = callsPageBytes();
  r.method(
    `Sequential requests for one ${(body.length / 1024).toFixed(1)} KB page of 25 calls (valid against the contract's ` +
      `CallList) served as pre-serialised bytes by a bare node:http server in a separate process on 127.0.0.1. ` +
      `${warmup} warm-up requests per variant, then ${rounds} interleaved rounds of up to ${count} requests per ` +
      `variant (each round capped at 4 s per variant); the value is mean µs per request in a round, median over rounds.`,
  );
  const server = await startHosted({ kind: 'bare', bodyBase64: body.toString('base64') });
  try {
    const url = `${server.baseURL}/calls/?page_size=25`;
    const headers = { authorization: `Bearer ${API_KEY}` };
    const stripCallList = stripMode(CallList);
    const variants: Variant[] = [
      {
        label: 'raw undici.request + JSON.parse',
        op: async () => {
          const res = await request(url, { headers });
          return JSON.parse(await res.body.text());
        },
      },
      {
        label: 'global fetch + response.json()',
        op: async () => {
          const res = await fetch(url, { headers });
          return res.json();
        },
      },
      {
        label: 'raw undici + JSON.parse + contract CallList.parse (reference: validation cost alone)',
        op: async () => {
          const res = await request(url, { headers });
          return CallList.parse(JSON.parse(await res.body.text()));
        },
      },
      {
        label:
          'raw undici + JSON.parse + CallList shapes in strip mode (reference: checks without pass-through)',
        op: async () => {
          const res = await request(url, { headers });
          return stripCallList.parse(JSON.parse(await res.body.text()));
        },
      },
    ];
    let sdkReady = true;
    try {
      const { CompanyData } = await loadSdk();
      const validating = new CompanyData({ apiKey: API_KEY, baseURL: server.baseURL });
      const trusting = new CompanyData({ apiKey: API_KEY, baseURL: server.baseURL, validate: false });
      variants.push(
        { label: 'SDK calls.list, validation on', op: () => validating.calls.list({ page_size: 25 }) },
        { label: 'SDK calls.list, validation off', op: () => trusting.calls.list({ page_size: 25 }) },
      );
      // Prove the SDK really got the page before timing it.
      const page = await validating.calls.list({ page_size: 25 });
      if (page.data.length !== 25) throw new Error(`the SDK returned ${page.data.length} calls, expected 25`);
    } catch (error) {
      if (!(error instanceof NotReady)) throw error;
      sdkReady = false;
      r.missing(error.message);
    }

    const results = await interleave(variants, { rounds, count, warmup, maxMs: 4_000, log: ctx.log });
    const medians = variants.map(
      (v, i) => r.measure(measurement(v.label, 'µs/request', results.wall[i] ?? [])).median,
    );
    // Client CPU per request: steadier than wall time when other processes compete for the two cores.
    const cpu = variants.map(
      (v, i) =>
        r.measure(measurement(`${v.label} — client CPU`, 'CPU µs/request', results.cpu[i] ?? [])).median,
    );
    // Four baselines always run; the two SDK variants only once the SDK is there.
    type PerVariant = [number, number, number, number, number?, number?];
    const [raw, viaFetch, loose, strip, sdkOn, sdkOff] = medians as PerVariant;
    const [rawCpu, fetchCpu, looseCpu, stripCpu, sdkOnCpu, sdkOffCpu] = cpu as PerVariant;
    const passThroughShare = (looseCpu - stripCpu) / Math.max(1, looseCpu - rawCpu);
    r.note(
      `Validation alone (contract CallList.parse of the 25-call page) costs ≈ ${Math.round(looseCpu - rawCpu)} µs of ` +
        `client CPU per request (${(looseCpu / rawCpu).toFixed(2)}× raw undici's CPU; wall ${(loose / raw).toFixed(2)}×) ` +
        `before any SDK code runs. The same shapes as strip-mode objects cost ≈ ${Math.round(stripCpu - rawCpu)} µs ` +
        `(${(stripCpu / rawCpu).toFixed(2)}×; wall ${(strip / raw).toFixed(2)}×), so the loose objects' copying of every ` +
        `key into a new output object (to let unknown fields through) is ≈ ${Math.round(passThroughShare * 100)} % of ` +
        `the validation cost.`,
    );

    const ids = ['overhead.validate-on', 'overhead.validate-off', 'overhead.fetch-on', 'overhead.fetch-off'];
    if (!sdkReady || sdkOn === undefined || sdkOff === undefined) {
      const why = 'the SDK has not landed';
      r.check(notMeasured(ids[0] as string, 'SDK (validation on) / raw undici', '≤ 1.15×', why));
      r.check(notMeasured(ids[1] as string, 'SDK (validation off) / raw undici', '≤ 1.05×', why));
      r.check(notMeasured(ids[2] as string, 'SDK (validation on) / global fetch', '< 1×', why));
      r.check(notMeasured(ids[3] as string, 'SDK (validation off) / global fetch', '< 1×', why));
      r.note(`Baselines: global fetch / raw undici = ${(viaFetch / raw).toFixed(2)}×.`);
      return r.build();
    }
    const checks = [
      atMost(ids[0] as string, 'SDK (validation on) / raw undici', sdkOn / raw, 1.15),
      atMost(ids[1] as string, 'SDK (validation off) / raw undici', sdkOff / raw, 1.05),
      {
        ...atMost(ids[2] as string, 'SDK (validation on) / global fetch', sdkOn / viaFetch, 1),
        target: '< 1×',
      },
      {
        ...atMost(ids[3] as string, 'SDK (validation off) / global fetch', sdkOff / viaFetch, 1),
        target: '< 1×',
      },
    ];
    for (const check of checks) {
      if (check.target === '< 1×') check.pass = (check.value ?? 1) < 1;
      r.check(check);
    }
    if (sdkOnCpu !== undefined && sdkOffCpu !== undefined) {
      r.note(
        `Cross-check on client CPU time per request (the wall-time ratios above also contain the server's and the ` +
          `kernel's share, and the scheduling noise of a shared machine): SDK validation on / raw undici = ` +
          `${(sdkOnCpu / rawCpu).toFixed(2)}×, validation off / raw undici = ${(sdkOffCpu / rawCpu).toFixed(2)}×, ` +
          `validation on / fetch = ${(sdkOnCpu / fetchCpu).toFixed(2)}×, off / fetch = ${(sdkOffCpu / fetchCpu).toFixed(2)}×.`,
      );
    }
    // Name what limits each miss: profile the slow variant and raw undici alike, and compare per request.
    const missed = checks.filter((c) => c.pass === false);
    if (missed.length > 0) {
      const profiled = async (variant: Variant) => {
        const stop = await startProfile();
        const ops = await runFor(variant.op, 4_000, 2_000);
        return { label: variant.label, summary: await stop(), ops };
      };
      const baseline = await profiled(variants[0] as Variant);
      for (const check of missed) {
        const slowVariant = variants[check.id.endsWith('-on') ? 4 : 5] as Variant;
        const slow = await profiled(slowVariant);
        const versus = check.id.startsWith('overhead.fetch')
          ? await profiled(variants[1] as Variant)
          : baseline;
        const floor =
          check.id === 'overhead.validate-on'
            ? `Contract validation alone is ${(looseCpu / rawCpu).toFixed(2)}× raw undici's client CPU (strip-mode ` +
              `shapes ${(stripCpu / rawCpu).toFixed(2)}×; see the notes), so with full validation the target is out of ` +
              `reach before any SDK code runs. `
            : '';
        check.note = `${floor}${describeDifference(slow, versus)} ${describeProfile(`"${slow.label}"`, slow.summary)}`;
      }
    }
    return r.build();
  } finally {
    await server.close();
  }
}
