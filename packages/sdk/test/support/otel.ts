import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { CompanyDataInstrumentation } from '../../src/opentelemetry.js';

/** A metric reader a test collects from when it wants, with no timer: what was recorded since it collected last. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }

  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The OpenTelemetry SDK with in-memory exporters, and the SDK's instrumentation recording through it. */
export interface OtelHarness {
  readonly provider: BasicTracerProvider;
  readonly instrumentation: CompanyDataInstrumentation;
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  /** The metrics recorded since they were read last (or since {@link OtelHarness.reset}). */
  metrics(): Promise<ResourceMetrics>;
  /** Forgets the spans ended and the metrics recorded so far. */
  reset(): Promise<void>;
  /** Disables the instrumentation and shuts the providers and the context manager down. */
  stop(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK (async-hooks context, in-memory span exporter, a metric reader) and the
 * SDK's instrumentation on its providers.
 */
export function startOtel(): OtelHarness {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const instrumentation = new CompanyDataInstrumentation({ enabled: false });
  instrumentation.setTracerProvider(provider);
  instrumentation.setMeterProvider(meterProvider);
  instrumentation.enable();
  return {
    provider,
    instrumentation,
    spans: () => exporter.getFinishedSpans(),
    metrics: async () => {
      const { resourceMetrics, errors } = await reader.collect();
      if (errors.length > 0) throw errors[0];
      return resourceMetrics;
    },
    reset: async () => {
      exporter.reset();
      await reader.collect();
    },
    stop: async () => {
      instrumentation.disable();
      await Promise.all([provider.shutdown(), meterProvider.shutdown()]);
      context.disable();
    },
  };
}

/** A span with its children, by name, as a test compares a tree. */
export interface SpanNode {
  readonly span: ReadableSpan;
  readonly children: SpanNode[];
}

/** The spans as trees: the roots (no parent among them), each with its children in start order. */
export function spanTrees(spans: readonly ReadableSpan[]): SpanNode[] {
  const nodes = new Map(
    spans.map((span) => [span.spanContext().spanId, { span, children: [] as SpanNode[] }]),
  );
  const roots: SpanNode[] = [];
  const byStart = [...nodes.values()].sort((a, b) => compareTime(a.span.startTime, b.span.startTime));
  for (const node of byStart) {
    const parent = node.span.parentSpanContext?.spanId;
    const parentNode = parent === undefined ? undefined : nodes.get(parent);
    if (parentNode === undefined) roots.push(node);
    else parentNode.children.push(node);
  }
  return roots;
}

function compareTime(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** The events of a span by name. */
export function eventsNamed(span: ReadableSpan, name: string) {
  return span.events.filter((event) => event.name === name);
}
