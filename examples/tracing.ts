// An export of every call, traced with OpenTelemetry: the SDK's spans (one for the export, one per page with
// its attempts, retries and 429 pauses as events), collected by the OpenTelemetry SDK's in-memory exporter
// and printed as a tree once the export is done. In a service, the exporter would send them to a collector
// instead (see the "In production" guide, docs/in-production.md).
//
//   npx tsx examples/tracing.ts                    # the tree, one line per span
//   npx tsx examples/tracing.ts --json             # one JSON object per span, for a program to read
//   npx tsx examples/tracing.ts --concurrency 4    # pages fetched ahead (the default)
//
// Against a mock server that fails one request in ten:
//
//   node examples/with-mock.mjs examples/tracing.ts
//
// `@company-data/sdk/opentelemetry` is the SDK's opt-in OpenTelemetry entry: it needs `@opentelemetry/api`
// installed (an optional peer dependency); the main entry never loads it.
import { parseArgs } from 'node:util';
import { CompanyData } from '@company-data/sdk';
import { CompanyDataInstrumentation } from '@company-data/sdk/opentelemetry';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, concurrency: { type: 'string', default: '4' } },
});

// The OpenTelemetry SDK: a context manager (so that spans nest across awaits), a tracer provider, and the
// SDK's instrumentation recording through it.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const instrumentation = new CompanyDataInstrumentation({ enabled: false });
instrumentation.setTracerProvider(provider);
instrumentation.enable();

const client = new CompanyData({ maxRetries: 8 });
try {
  const calls = await client.calls
    .list({ page_size: 100 }, { concurrency: Number(values.concurrency) })
    .toArray();
  console.error(`${calls.length} calls exported`);
} finally {
  await client.close();
  instrumentation.disable();
}
await provider.forceFlush();
const spans = exporter.getFinishedSpans();
await provider.shutdown();

if (values.json) {
  for (const span of spans) console.log(JSON.stringify(spanRecord(span)));
} else {
  printTree(spans);
}

/** A span as JSON: its name, ids, attributes and events. */
function spanRecord(span: ReadableSpan) {
  return {
    name: span.name,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
  };
}

/** The spans as a tree, children in page order, each with its attempts and events. */
function printTree(all: readonly ReadableSpan[]): void {
  const children = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(all.map((span) => span.spanContext().spanId));
  for (const span of all) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const page = (span: ReadableSpan) => Number(span.attributes['company_data.page'] ?? 0);
  const print = (span: ReadableSpan, depth: number) => {
    const { attributes } = span;
    const facts = [
      attributes['company_data.outcome'],
      attributes['company_data.pages'] !== undefined
        ? `${attributes['company_data.pages']} pages`
        : undefined,
      attributes['company_data.attempts'] !== undefined
        ? `${attributes['company_data.attempts']} attempts`
        : undefined,
      attributes['error.type'],
    ].filter((fact) => fact !== undefined);
    const events = span.events.map((event) => {
      const wait = event.attributes?.['company_data.wait_ms'];
      const reason =
        event.attributes?.['company_data.retry.reason'] ?? event.attributes?.['company_data.reason'];
      return `${event.name}${reason === undefined ? '' : ` ${reason}`}${wait === undefined ? '' : ` ${wait} ms`}`;
    });
    const pageNumber = page(span) > 0 ? ` ${page(span)}` : '';
    console.log(
      `${'  '.repeat(depth)}${span.name}${pageNumber} (${facts.join(', ')})${events.length > 0 ? `: ${events.join('; ')}` : ''}`,
    );
    const below = children.get(span.spanContext().spanId) ?? [];
    for (const child of [...below].sort((a, b) => page(a) - page(b))) print(child, depth + 1);
  };
  for (const root of children.get(undefined) ?? []) print(root, 0);
}
