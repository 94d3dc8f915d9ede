import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { AlwaysOffSampler, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { telemetrySink } from '../../src/internal/telemetry.js';
import { CompanyDataInstrumentation, INSTRUMENTATION_NAME } from '../../src/opentelemetry.js';

// When the instrumentation hands the SDK a call's telemetry, and when it hands nothing (so that a call
// costs no more than a span start that records nothing).

const attributes = { 'company_data.operation': 'listCalls', 'http.request.method': 'GET' };
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
    expect(telemetrySink()).toBeDefined();
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

  it('opens a call whose span records nothing when a meter provider records its metrics', () => {
    instrumentation = new CompanyDataInstrumentation();
    instrumentation.setTracerProvider(new BasicTracerProvider({ sampler: new AlwaysOffSampler() }));
    instrumentation.setMeterProvider(new MeterProvider());
    expect(telemetrySink()?.start('calls.list', 'call', attributes)).toBeDefined();
  });

  it('opens a call when its span records', () => {
    instrumentation = new CompanyDataInstrumentation();
    instrumentation.setTracerProvider(new BasicTracerProvider());
    const call = telemetrySink()?.start('calls.list', 'call', attributes);
    expect(call).toBeDefined();
    call?.end();
  });
});
