import type { MockServer } from '@company-data/mock-server';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type Target, targets } from '../../support/harness.js';
import { type OtelHarness, startOtel } from '../../support/otel.js';

// undici's own HTTP spans (`@opentelemetry/instrumentation-undici`, which listens to undici's diagnostics
// channels) nest under the SDK's spans: each attempt is sent with its call's or page's span active. Over a
// real socket only: the in-process dispatcher is no undici client, so undici reports nothing for it.

const loopback = targets.find((target) => target.name === 'loopback') as Target;

let otel: OtelHarness;
let undici: UndiciInstrumentation;
beforeAll(() => {
  otel = startOtel();
  // Enabled as made (its `enabled: false` would also make it skip every request once enabled).
  undici = new UndiciInstrumentation();
  undici.setTracerProvider(otel.provider);
});
afterAll(async () => {
  undici.disable();
  await otel.stop();
});

const UNDICI_SCOPE = '@opentelemetry/instrumentation-undici';
const isUndici = (span: ReadableSpan) => span.instrumentationScope.name === UNDICI_SCOPE;
const parentOf = (span: ReadableSpan, spans: readonly ReadableSpan[]) =>
  spans.find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);

describe('undici spans under the SDK spans (loopback)', () => {
  const opened: { close(): Promise<void> }[] = [];
  async function start(options: Parameters<typeof loopback.start>[0] = {}): Promise<MockServer> {
    const mock = await loopback.start({ clock: 'frozen', quota: false, ...options });
    opened.push(mock);
    return mock;
  }
  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
    await otel.reset();
  });

  it("a retrieve's attempts are undici spans, children of the retrieve's span", async () => {
    const mock = await start();
    const { client } = clientFor(loopback, mock);
    opened.push(client);
    const [user] = await client.users.list().toArray({ limit: 1 });
    await otel.reset();
    mock.injectFault({ path: `/v1/users/${user?.id}/`, status: 503 });

    await client.users.retrieve(String(user?.id));

    const spans = otel.spans();
    const http = spans.filter(isUndici);
    expect(http.map((span) => span.attributes['http.response.status_code'])).toEqual([503, 200]);
    for (const span of http) expect(parentOf(span, spans)?.name).toBe('users.retrieve');
    expect(spans.filter((span) => !isUndici(span)).map((span) => span.name)).toEqual(['users.retrieve']);
  });

  it("each page's request is an undici span under that page's span, under the walk's", async () => {
    const mock = await start({ sizes: { users: 2, calls: 40 } });
    const { client } = clientFor(loopback, mock);
    opened.push(client);

    await client.calls.list({ page_size: 5 }, { concurrency: 3 }).toArray();

    const spans = otel.spans();
    const http = spans.filter(isUndici);
    expect(http).toHaveLength(8);
    for (const span of http) {
      const page = parentOf(span, spans);
      expect(page?.name).toBe('calls.list page');
      const url = new URL(String(span.attributes['url.full']));
      expect(Number(url.searchParams.get('page'))).toBe(page?.attributes['company_data.page']);
      expect(parentOf(page as ReadableSpan, spans)?.name).toBe('calls.list iterate');
    }
  });
});
