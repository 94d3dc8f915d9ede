import {
  AggregationTemporality,
  type HistogramMetricData,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { telemetrySink } from '../../../src/core/telemetry/sink.js';
import { CompanyDataInstrumentation, INSTRUMENTATION_NAME } from '../../../src/opentelemetry.js';

// When the instrumentation hands the SDK a call's telemetry, and when it hands nothing (so that a call
// costs no more than a span start that records nothing).

const attributes = { 'company_data.operation': 'listCalls', 'http.request.method': 'GET' };

/** A metric reader collected from by hand. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }

  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}
let instrumentation: CompanyDataInstrumentation | undefined;
afterEach(() => {
  instrumentation?.disable();
  instrumentation = undefined;
});

describe('CompanyDataInstrumentation', () => {
  it('registers while enabled, and only then', () => {
    instrumentation = new CompanyDataInstrumentation({ enabled: false });
    expect(telemetrySink()).toBeUndefined();
    instrumentation.enable();
    // A sink (that it is this instrumentation's shows below: disabling it removes it).
    expect(telemetrySink()).toMatchObject({ start: expect.any(Function) });
    instrumentation.disable();
    expect(telemetrySink()).toBeUndefined();
    expect(instrumentation.instrumentationName).toBe(INSTRUMENTATION_NAME);
    instrumentation.setConfig({ enabled: true });
    expect(instrumentation.getConfig()).toEqual({ enabled: true });
  });

  it('opens nothing when the span records nothing and no meter provider is registered', () => {
    instrumentation = new CompanyDataInstrumentation();
    expect(telemetrySink()?.start('calls.list', 'call', attributes)).toBeUndefined();
    instrumentation.setTracerProvider(new BasicTracerProvider({ sampler: new AlwaysOffSampler() }));
    expect(telemetrySink()?.start('calls.list', 'call', attributes)).toBeUndefined();
  });

  it('opens a call whose span records nothing when a meter provider records its metrics', async () => {
    instrumentation = new CompanyDataInstrumentation();
    const exporter = new InMemorySpanExporter();
    instrumentation.setTracerProvider(
      new BasicTracerProvider({
        sampler: new AlwaysOffSampler(),
        spanProcessors: [new SimpleSpanProcessor(exporter)],
      }),
    );
    const reader = new CollectingReader();
    instrumentation.setMeterProvider(new MeterProvider({ readers: [reader] }));
    const call = telemetrySink()?.start('calls.list', 'call', attributes);
    call?.recordAttempt(250, { 'http.response.status_code': 200 });
    call?.end();
    const { resourceMetrics } = await reader.collect();
    const [duration, ...others] = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    expect(others).toEqual([]);
    expect(duration?.descriptor.name).toBe('company_data.client.request.duration');
    expect((duration as HistogramMetricData).dataPoints).toMatchObject([
      { attributes: { ...attributes, 'http.response.status_code': 200 }, value: { count: 1, sum: 0.25 } },
    ]);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('opens a call when its span records', () => {
    instrumentation = new CompanyDataInstrumentation();
    const exporter = new InMemorySpanExporter();
    instrumentation.setTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    const call = telemetrySink()?.start('calls.list', 'call', attributes);
    call?.end();
    expect(exporter.getFinishedSpans().map(({ name, attributes }) => ({ name, attributes }))).toEqual([
      {
        name: 'calls.list',
        attributes: { ...attributes, 'company_data.scope': 'call', 'company_data.outcome': 'ok' },
      },
    ]);
  });
});
