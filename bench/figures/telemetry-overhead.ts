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
import { CompanyDataInstrumentation } from '@company-data/sdk/opentelemetry';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
// The registry the built SDK reads, from its one home (it sits on globalThis, shared by every copy of the SDK).
import { telemetrySink } from '../../packages/sdk/src/core/telemetry/sink.js';
import { type FigureContext, ResultBuilder } from '../lib/figure.js';
import { builtSdkInMemory, EMPTY_PAGE, requestCosts, tightLoopNs } from '../lib/observer-cost.js';
import { atMost, type FigureResult, measurement } from '../lib/result.js';
import { median } from '../lib/stats.js';
import { FIGURES } from './index.js';

const SPEC = FIGURES.find((f) => f.id === 'telemetry-overhead') as (typeof FIGURES)[number];
/** The bound on what an application with no tracer registered pays, per request. */
const LIMIT_US = 1;

/** Runs figure 1b. */
export async function run(ctx: FigureContext): Promise<FigureResult> {
  const setup = builtSdkInMemory(ctx);
  const { rounds, count, warmup, client } = setup;
  const r = new ResultBuilder(SPEC);
  r.method(
    `Sequential calls.list requests (validation off) through one client of the built SDK, answered at once by a ` +
      `fetch that returns an empty page (${EMPTY_PAGE.length} bytes) from memory (no socket: the ` +
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
    type Observer = 'off' | 'unregistered' | 'recording';
    let state: Observer | undefined;
    const into = (next: Observer) => {
      if (state === next) return;
      unregistered.disable();
      recording.disable();
      if (next === 'unregistered') unregistered.enable();
      if (next === 'recording') recording.enable();
      state = next;
    };
    // What the SDK adds to a call, timed alone: it opens the call's telemetry exactly so, once a request.
    const open = () =>
      telemetrySink()?.start('calls.list', 'call', {
        'company_data.operation': 'listCalls',
        'company_data.page': 1,
        'http.request.method': 'GET',
        'url.template': '/calls/',
      });
    const perCall = tightLoopNs(['off', 'unregistered'] as const, rounds, into, open);
    into('off');
    const page = (await setup.call()) as { pagination: { page: number } };
    if (page.pagination.page !== 1) throw new Error('the SDK did not read the page');

    const { extraCpu, base } = await requestCosts(
      ctx,
      r,
      setup,
      {
        off: 'SDK calls.list, no instrumentation',
        unregistered:
          'SDK calls.list, CompanyDataInstrumentation enabled, no tracer or meter provider registered',
        recording: 'SDK calls.list, recording through the OpenTelemetry SDK (exported nowhere)',
      },
      into,
      (name) =>
        name === 'unregistered'
          ? 'instrumentation enabled, no provider registered − no instrumentation, whole request: client CPU'
          : 'recording through the OpenTelemetry SDK − no instrumentation, whole request: client CPU',
    );
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
        `Whole requests, paired round by round, agree within their noise: ${extraCpu.unregistered.toFixed(2)} µs of client CPU ` +
        `a request more than with no instrumentation (the SDK itself costs ${median(base.cpu).toFixed(1)} µs ` +
        `here without a socket; figure 1 gives a request over one). Recording spans and metrics through the ` +
        `OpenTelemetry SDK adds ${extraCpu.recording.toFixed(1)} µs a request.`,
    );
    await client.close();
    return r.build();
  } finally {
    unregistered.disable();
    recording.disable();
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  }
}
