import {
  type Attributes,
  type Context,
  context,
  createNoopMeter,
  type Histogram,
  type Meter,
  type Counter as OtelCounter,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import {
  type CallTelemetry,
  errorType,
  TELEMETRY,
  type TelemetryAttributes,
  type TelemetryScope,
  type TelemetrySink,
} from './sink.js';

/**
 * The metrics the SDK records, by name (the "In production" guide lists their attributes), e.g. to give one
 * a view of its own.
 *
 * @example
 * ```ts
 * import { METRICS } from '@company-data/sdk/opentelemetry';
 *
 * console.log(METRICS.requestDuration); // 'company_data.client.request.duration'
 * ```
 */
export const METRICS = {
  /** Every attempt, from sending to the body read (or the failure), in seconds. */
  requestDuration: 'company_data.client.request.duration',
  /** Retries, by `company_data.retry.reason`. */
  retries: 'company_data.client.retries',
  /** Pauses of the rate gate after a 429, in seconds. */
  rateLimitPause: 'company_data.client.rate_limit.pause',
} as const;

/** The instruments, made once per meter. */
interface Instruments {
  readonly duration: Histogram;
  readonly retries: OtelCounter;
  readonly pause: Histogram;
}

/** The attributes of a call that metrics keep: few values each (no page, no id). */
const METRIC_ATTRIBUTES = [TELEMETRY.operation, 'http.request.method'] as const;

/**
 * The attributes of `base` and then `attributes`, without `undefined` values (OpenTelemetry wants none).
 * Copied one by one: an object spread of these dotted names takes V8 about ten times as long.
 */
function defined(attributes: TelemetryAttributes | undefined, base?: Attributes): Attributes {
  const result: Attributes = {};
  if (base !== undefined) for (const name in base) result[name] = base[name];
  if (attributes === undefined) return result;
  for (const name in attributes) {
    const value = attributes[name];
    if (value !== undefined) result[name] = value;
  }
  return result;
}

/**
 * Turns the SDK's telemetry into OpenTelemetry spans, span events and metrics, through the tracer and meter
 * given (the global ones unless set).
 */
export class OpenTelemetrySink implements TelemetrySink {
  readonly #tracer: Tracer;
  readonly #instruments: Instruments;
  /** A meter provider was registered: metrics are recorded even for a span that is not. */
  readonly #metered: boolean;

  /**
   * @param tracer - where spans start.
   * @param meter - where the metrics' instruments are made.
   */
  constructor(tracer: Tracer, meter: Meter) {
    this.#tracer = tracer;
    // The metrics API has no proxy: a meter taken before any provider was registered stays a no-op.
    this.#metered = !(meter instanceof createNoopMeter().constructor);
    this.#instruments = {
      duration: meter.createHistogram(METRICS.requestDuration, {
        description: 'Duration of each attempt of a Company Data API request, retries included as their own.',
        unit: 's',
      }),
      retries: meter.createCounter(METRICS.retries, {
        description: 'Retries of Company Data API requests, by reason (the failed attempt’s error code).',
        unit: '{retry}',
      }),
      pause: meter.createHistogram(METRICS.rateLimitPause, {
        description: 'Pauses of the rate gate after a 429: every request through the gate waits this long.',
        unit: 's',
      }),
    };
  }

  /**
   * Opens a span under the active context (the caller's span, if any); nothing, when the span records
   * nothing (no tracer provider registered, or sampled out) and no meter provider is registered, so that
   * such a call costs no more than the span's start.
   */
  start(name: string, scope: TelemetryScope, attributes: TelemetryAttributes): CallTelemetry | undefined {
    const parent = context.active();
    const span = this.#startSpan(name, scope, attributes, parent);
    if (!this.#metered && !span.isRecording()) return undefined;
    return this.#wrap(span, parent, attributes);
  }

  /**
   * Opens a span under `parent`.
   *
   * @internal
   */
  open(name: string, scope: TelemetryScope, attributes: TelemetryAttributes, parent: Context): CallTelemetry {
    return this.#wrap(this.#startSpan(name, scope, attributes, parent), parent, attributes);
  }

  /** Starts a span; its attributes are set only when it records (building them is most of the cost). */
  #startSpan(name: string, scope: TelemetryScope, attributes: TelemetryAttributes, parent: Context): Span {
    const span = this.#tracer.startSpan(name, { kind: SpanKind.INTERNAL }, parent);
    if (span.isRecording()) {
      span.setAttributes(defined(attributes));
      span.setAttribute(TELEMETRY.scope, scope);
    }
    return span;
  }

  #wrap(span: Span, parent: Context, attributes: TelemetryAttributes): CallTelemetry {
    const metricAttributes: Attributes = {};
    for (const key of METRIC_ATTRIBUTES) {
      const value = attributes[key];
      if (value !== undefined) metricAttributes[key] = value;
    }
    return new OpenTelemetryCall(
      this,
      span,
      trace.setSpan(parent, span),
      metricAttributes,
      this.#instruments,
    );
  }
}

/** One call's span, and its share of the metrics. */
class OpenTelemetryCall implements CallTelemetry {
  readonly #sink: OpenTelemetrySink;
  readonly #span: Span;
  readonly #context: Context;
  readonly #metricAttributes: Attributes;
  readonly #instruments: Instruments;

  constructor(
    sink: OpenTelemetrySink,
    span: Span,
    spanContext: Context,
    metricAttributes: Attributes,
    instruments: Instruments,
  ) {
    this.#sink = sink;
    this.#span = span;
    this.#context = spanContext;
    this.#metricAttributes = metricAttributes;
    this.#instruments = instruments;
  }

  run<T>(fn: () => T): T {
    return context.with(this.#context, fn);
  }

  recordEvent(name: string, attributes?: TelemetryAttributes): void {
    this.#span.addEvent(name, defined(attributes));
  }

  setAttributes(attributes: TelemetryAttributes): void {
    this.#span.setAttributes(defined(attributes));
  }

  recordAttempt(durationMs: number, attributes: TelemetryAttributes): void {
    this.#instruments.duration.record(durationMs / 1000, defined(attributes, this.#metricAttributes));
  }

  recordRetry(reason: string, attributes: TelemetryAttributes): void {
    const event = defined(attributes);
    event[TELEMETRY.retryReason] = reason;
    this.#span.addEvent(TELEMETRY.retryEvent, event);
    const metric = defined(undefined, this.#metricAttributes);
    metric[TELEMETRY.retryReason] = reason;
    this.#instruments.retries.add(1, metric);
  }

  recordPause(waitMs: number, attributes: TelemetryAttributes): void {
    const event = defined(attributes);
    event[TELEMETRY.waitMs] = waitMs;
    this.#span.addEvent(TELEMETRY.pauseEvent, event);
    this.#instruments.pause.record(waitMs / 1000, this.#metricAttributes);
  }

  child(name: string, scope: TelemetryScope, attributes: TelemetryAttributes): CallTelemetry {
    return this.#sink.open(name, scope, attributes, this.#context);
  }

  end(error?: unknown, attributes?: TelemetryAttributes): void {
    const span = this.#span;
    if (attributes !== undefined) span.setAttributes(defined(attributes));
    if (error === undefined) {
      // An iteration left early says `stopped`; otherwise it is `ok`.
      if (attributes?.[TELEMETRY.outcome] === undefined) span.setAttribute(TELEMETRY.outcome, 'ok');
    } else {
      // The error's code, never its message: a message names the URL, and so the query's values.
      const type = errorType(error);
      span.setAttributes({ 'error.type': type, [TELEMETRY.outcome]: 'error' });
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    }
    span.end();
  }
}
