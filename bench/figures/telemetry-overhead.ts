/**
 * Figure 1b: what OpenTelemetry costs a request. One SDK client of the built `dist` files, as users install
 * them, sends `calls.list` requests in alternating blocks: with no instrumentation (the SDK as every user
 * runs it: one property read a call, the hook unset), with `CompanyDataInstrumentation` enabled while no
 * tracer or meter provider is registered (the OpenTelemetry API's no-ops), and, for scale, recording
 * through the OpenTelemetry SDK's tracer and meter (spans sampled, exported nowhere). The requests go to a
 * `fetch` that answers at once from memory: every line of telemetry runs in the SDK, on the client's CPU,
 * and a socket would only add its noise to a difference of a microsecond. The figure is client CPU per
 * request, each variant minus "no instrumentation" in the same round.
 */
import * as sdk from '@company-data/sdk';
import { CompanyData } from '@company-data/sdk';
import { CompanyDataInstrumentation } from '@company-data/sdk/opentelemetry';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
// The registry the built SDK reads, from its one home (it sits on globalThis, shared by every copy of the SDK).
import { telemetrySink } from '../../packages/sdk/src/core/telemetry/sink.js';
import { assertFreshBuild, assertRunsBuiltSdk } from '../lib/built.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { interleaveNamed, type Variant } from '../lib/loop.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { median } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'telemetry-overhead') as (typeof FIGURES)[number];
const API_KEY = 'svc_live_benchmark_key';
/** The bound on what an application with no tracer registered pays, per request. */
const LIMIT_US = 1;
/** Calls per round of the tight loop that times the telemetry's own work. */
const TIGHT_LOOP = 1_000_000;

/** Runs figure 1b. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  assertFreshBuild();
  assertRunsBuiltSdk(import.meta.resolve('@company-data/sdk'), sdk);
  const r = new ResultBuilder(SPEC);
  const rounds = ctx.quick ? 5 : 41;
  const count = ctx.quick ? 1_000 : 5_000;
  const warmup = ctx.quick ? 1_000 : 5_000;
  // The smallest page: what the page costs to read is the same in every variant, and only adds noise.
  const body = JSON.stringify({ data: [], pagination: { count: 0, page: 1, page_size: 25, total_pages: 0 } });
  r.method(
    `Sequential calls.list requests (validation off) through one client of the built SDK, answered at once by a ` +
      `fetch that returns an empty page (${body.length} bytes) from memory (no socket: the ` +
      `telemetry is client CPU, and a socket's noise would hide a microsecond). ${warmup} warm-up requests per ` +
      `variant, then ${rounds} rounds of alternating blocks of up to ${count} requests per variant (each capped at ` +
      `4 s); switching variant sets or clears the SDK's telemetry hook, nothing else. The cost of a variant is its ` +
      `client CPU per request minus that of "no instrumentation" in the same round, median over rounds.`,
  );
  const unregistered = new CompanyDataInstrumentation({ enabled: false });
  const recording = new CompanyDataInstrumentation({ enabled: false });
  const tracerProvider = new BasicTracerProvider();
  const meterProvider = new MeterProvider();
  recording.setTracerProvider(tracerProvider);
  recording.setMeterProvider(meterProvider);
  try {
    const headers = { 'content-type': 'application/json' };
    const client = new CompanyData({
      apiKey: API_KEY,
      baseURL: 'http://127.0.0.1:9/v1',
      validate: false,
      fetch: async () => new Response(body, { status: 200, headers }),
    });
    let state: 'off' | 'unregistered' | 'recording' | undefined;
    const into = (next: typeof state) => {
      if (state === next) return;
      unregistered.disable();
      recording.disable();
      if (next === 'unregistered') unregistered.enable();
      if (next === 'recording') recording.enable();
      state = next;
    };
    const call = () => client.calls.list({ page_size: 25 });
    const variants = {
      off: {
        label: 'SDK calls.list, no instrumentation',
        op: () => {
          into('off');
          return call();
        },
      },
      unregistered: {
        label: 'SDK calls.list, CompanyDataInstrumentation enabled, no tracer or meter provider registered',
        op: () => {
          into('unregistered');
          return call();
        },
      },
      recording: {
        label: 'SDK calls.list, recording through the OpenTelemetry SDK (exported nowhere)',
        op: () => {
          into('recording');
          return call();
        },
      },
    } satisfies Record<string, Variant>;
    // What the SDK adds to a call, timed alone: it opens the call's telemetry exactly so, once a request.
    const open = () =>
      telemetrySink()?.start('calls.list', 'call', {
        'company_data.operation': 'listCalls',
        'company_data.page': 1,
        'http.request.method': 'GET',
        'url.template': '/calls/',
      });
    const perCall = { off: [] as number[], unregistered: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0
        ? (['off', 'unregistered'] as const)
        : (['unregistered', 'off'] as const)) {
        into(name);
        const started = process.cpuUsage();
        for (let n = 0; n < TIGHT_LOOP; n++) open();
        const used = process.cpuUsage(started);
        perCall[name].push(((used.user + used.system) * 1000) / TIGHT_LOOP);
      }
    }
    const page = await call();
    if (page.pagination.page !== 1) throw new Error('the SDK did not read the page');

    const results = await interleaveNamed(variants, { rounds, count, warmup, maxMs: 4_000, log: ctx.log });
    type Name = keyof typeof variants;
    for (const name of Object.keys(variants) as Name[]) {
      r.measure(measurement(`${variants[name].label} — client CPU`, 'CPU µs/request', results[name].cpu));
      r.measure(measurement(`${variants[name].label} — wall`, 'µs/request', results[name].wall));
    }
    /** A variant's cost over "no instrumentation", round by round. */
    const extra = (name: Name, of: 'cpu' | 'wall') =>
      results[name][of].map((value, round) => value - (results.off[of][round] ?? Number.NaN));
    const offNs = r.measure(
      measurement("opening a call's telemetry, no instrumentation (tight loop)", 'CPU ns/call', perCall.off),
    ).median;
    const unregisteredNs = r.measure(
      measurement(
        "opening a call's telemetry, instrumentation enabled, no provider registered (tight loop)",
        'CPU ns/call',
        perCall.unregistered,
      ),
    ).median;
    const unregisteredCpu = r.measure(
      measurement(
        'instrumentation enabled, no provider registered − no instrumentation, whole request: client CPU',
        'CPU µs/request',
        extra('unregistered', 'cpu'),
      ),
    ).median;
    const recordingCpu = r.measure(
      measurement(
        'recording through the OpenTelemetry SDK − no instrumentation, whole request: client CPU',
        'CPU µs/request',
        extra('recording', 'cpu'),
      ),
    ).median;
    r.check(
      atMost(
        'telemetry.no-tracer',
        'What a request gains with no tracer registered (instrumentation enabled, no provider): the telemetry it opens, timed alone',
        unregisteredNs / 1000,
        LIMIT_US,
        'µs',
      ),
    );
    r.note(
      `With no instrumentation the SDK's telemetry is one read of a property of globalThis a call (the hook is ` +
        `unset; the attributes are not even built): ${offNs.toFixed(1)} ns. With the instrumentation enabled and no ` +
        `provider registered, a call starts a span that records nothing and stops there: ${unregisteredNs.toFixed(0)} ns. ` +
        `Whole requests, paired round by round, agree within their noise: ${unregisteredCpu.toFixed(2)} µs of client CPU ` +
        `a request more than with no instrumentation (the SDK itself costs ${median(results.off.cpu).toFixed(1)} µs ` +
        `here without a socket; figure 1 gives a request over one). Recording spans and metrics through the ` +
        `OpenTelemetry SDK adds ${recordingCpu.toFixed(1)} µs a request.`,
    );
    await client.close();
    return r.build();
  } finally {
    unregistered.disable();
    recording.disable();
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  }
}
