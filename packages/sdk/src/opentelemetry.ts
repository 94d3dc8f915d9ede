/**
 * OpenTelemetry traces and metrics of the SDK's calls, list iterations, exports and syncs: enable
 * {@link CompanyDataInstrumentation} once. `@opentelemetry/api` is an optional peer dependency: install it to
 * use this entry point; the main entry never loads it.
 *
 * @module @company-data/sdk/opentelemetry
 * @group Entry points
 */
// The only file of the SDK that imports `@opentelemetry/api`. The main entry only asks, per call, whether an
// instrumentation registered (see `core/telemetry/sink.ts`).
import { type MeterProvider, metrics, type TracerProvider, trace } from '@opentelemetry/api';
import { OpenTelemetrySink } from './core/telemetry/open-telemetry-sink.js';
import { setTelemetrySink, telemetrySink } from './core/telemetry/sink.js';
import { SDK_VERSION } from './core/version.js';

export { METRICS } from './core/telemetry/open-telemetry-sink.js';

/**
 * The instrumentation's name: its tracer's and meter's, as backends show the scope of its spans and metrics.
 *
 * @example
 * ```ts
 * import { INSTRUMENTATION_NAME } from '@company-data/sdk/opentelemetry';
 *
 * console.log(INSTRUMENTATION_NAME); // '@company-data/sdk'
 * ```
 */
export const INSTRUMENTATION_NAME = '@company-data/sdk';

/**
 * Options of {@link CompanyDataInstrumentation}, as every OpenTelemetry instrumentation takes them.
 *
 * @example
 * ```ts
 * const instrumentation = new CompanyDataInstrumentation({ enabled: false });
 * instrumentation.enable();
 * ```
 */
export interface CompanyDataInstrumentationConfig {
  /** Start recording at once (`true`, the default), or only once `enable()` is called. */
  enabled?: boolean | undefined;
}

/**
 * Spans, span events and metrics for every Company Data client in the process: a span per call (a
 * retrieve, a webhook POST, a list's first page awaited alone), per list iteration (`for await`, `.pages()`,
 * `.toArray()`) with a child span per page, and per `sync()` run. Each request's attempts run with its span
 * active, so undici's HTTP spans (`@opentelemetry/instrumentation-undici`) nest under it. Retries, 429
 * pauses, read-ahead extensions and count changes are span events; the metrics are
 * {@link METRICS}. No API key, webhook token, or value of a query or body is ever recorded: a span names
 * its operation by the endpoint's path template.
 *
 * It has the shape of an OpenTelemetry instrumentation, so `registerInstrumentations()` and the Node SDK's
 * `instrumentations` option take it; on its own, `new CompanyDataInstrumentation()` records through the
 * global tracer and meter providers (register them first). With no instrumentation, the SDK records
 * nothing and loads no OpenTelemetry package.
 *
 * @example
 * ```ts
 * import { CompanyDataInstrumentation } from '@company-data/sdk/opentelemetry';
 *
 * // After the OpenTelemetry SDK registered its providers:
 * const instrumentation = new CompanyDataInstrumentation();
 * // …and to stop: instrumentation.disable();
 * ```
 */
export class CompanyDataInstrumentation {
  /** The instrumentation's name, {@link INSTRUMENTATION_NAME}. */
  readonly instrumentationName: string = INSTRUMENTATION_NAME;
  /** The SDK's version. */
  readonly instrumentationVersion: string = SDK_VERSION;
  #config: CompanyDataInstrumentationConfig;
  #tracerProvider: TracerProvider | undefined;
  #meterProvider: MeterProvider | undefined;
  #sink: OpenTelemetrySink | undefined;

  /** @param config - `{ enabled: false }` to start disabled. */
  constructor(config: CompanyDataInstrumentationConfig = {}) {
    this.#config = { ...config };
    if (config.enabled !== false) this.enable();
  }

  /** Starts recording: every client's calls from now on open spans and record metrics. */
  enable(): void {
    const tracer = (this.#tracerProvider ?? trace).getTracer(INSTRUMENTATION_NAME, SDK_VERSION);
    const meter = (this.#meterProvider ?? metrics).getMeter(INSTRUMENTATION_NAME, SDK_VERSION);
    this.#sink = new OpenTelemetrySink(tracer, meter);
    setTelemetrySink(this.#sink);
  }

  /** Stops recording (calls already under way finish their spans). */
  disable(): void {
    if (this.#sink !== undefined && telemetrySink() === this.#sink) setTelemetrySink(undefined);
    this.#sink = undefined;
  }

  /**
   * Records spans through this provider instead of the global one.
   *
   * @param tracerProvider - the provider.
   */
  setTracerProvider(tracerProvider: TracerProvider): void {
    this.#tracerProvider = tracerProvider;
    if (this.#sink !== undefined) this.enable();
  }

  /**
   * Records metrics through this provider instead of the global one.
   *
   * @param meterProvider - the provider.
   */
  setMeterProvider(meterProvider: MeterProvider): void {
    this.#meterProvider = meterProvider;
    if (this.#sink !== undefined) this.enable();
  }

  /**
   * Replaces the options.
   *
   * @param config - the new options (`enabled` is read by the constructor only, as in other instrumentations).
   */
  setConfig(config: CompanyDataInstrumentationConfig): void {
    this.#config = { ...config };
  }

  /** The options given. */
  getConfig(): CompanyDataInstrumentationConfig {
    return { ...this.#config };
  }
}
