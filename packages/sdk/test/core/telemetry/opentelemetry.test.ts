import { DEFAULT_FAULT_MIX, type MockServer } from '@company-data/mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { telemetrySink } from '../../../src/core/telemetry/sink.js';
import { METRICS } from '../../../src/opentelemetry.js';
import {
  callPagesRead,
  clientFor,
  clientWithHook,
  lateSecondPageAfterArrivals,
  manualTime,
  type Target,
  targets,
} from '../../support/harness.js';
import { eventsNamed, type OtelHarness, spanTrees, startOtel } from '../../support/otel.js';
import { turns, until } from '../../support/turns.js';

// The spans, span events and metrics of `@company-data/sdk/opentelemetry`, recorded by the OpenTelemetry
// SDK's in-memory exporter, against the mock: each counted against the mock's journal of requests.

let otel: OtelHarness;
beforeAll(() => {
  otel = startOtel();
});
afterAll(async () => {
  await otel.stop();
});

describe.each(targets)('OpenTelemetry spans ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  async function start(options: Parameters<Target['start']>[0] = {}): Promise<MockServer> {
    const mock = await target.start({ clock: 'frozen', quota: false, ...options });
    opened.push(mock);
    return mock;
  }

  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
    await otel.reset();
  });

  it('a retrieve that retries is one span: its attempts, a retry event per failure, the HTTP conventions', async () => {
    const mock = await start();
    const { client } = clientFor(target, mock);
    opened.push(client);
    const [user] = await client.users.list().toArray({ limit: 1 });
    await otel.reset();
    mock.clearJournal();
    mock.injectFault({ path: `/v1/users/${user?.id}/`, status: 503, times: 2 });

    await client.users.retrieve(String(user?.id));

    const trees = spanTrees(otel.spans());
    expect(trees.map((tree) => tree.span.name)).toEqual(['users.retrieve']);
    const { span } = trees[0] as (typeof trees)[number];
    expect(span.attributes).toMatchObject({
      'company_data.operation': 'retrieveUser',
      'company_data.scope': 'call',
      'company_data.attempts': mock.journal().length,
      'company_data.outcome': 'ok',
      'http.request.method': 'GET',
      'http.request.resend_count': 2,
      'http.response.status_code': 200,
      'url.template': '/users/{id}/',
      'server.address': new URL(mock.baseURL).hostname,
    });
    const retries = eventsNamed(span, 'company_data.retry');
    expect(retries.map((event) => event.attributes)).toEqual([
      expect.objectContaining({ 'company_data.retry.reason': 'server_error', 'company_data.attempt': 1 }),
      expect.objectContaining({ 'company_data.retry.reason': 'server_error', 'company_data.attempt': 2 }),
    ]);
    expect(mock.journal().map((entry) => entry.status)).toEqual([503, 503, 200]);

    const metrics = (await otel.metrics()).scopeMetrics.flatMap((scope) => scope.metrics);
    const retryCounts = metrics.find((metric) => metric.descriptor.name === METRICS.retries);
    expect(retryCounts?.dataPoints).toContainEqual(
      expect.objectContaining({
        attributes: {
          'company_data.operation': 'retrieveUser',
          'http.request.method': 'GET',
          'company_data.retry.reason': 'server_error',
        },
        value: 2,
      }),
    );
    const durations = metrics.find((metric) => metric.descriptor.name === METRICS.requestDuration);
    const by503 = durations?.dataPoints.find(
      (point) => point.attributes['http.response.status_code'] === 503,
    );
    expect(by503?.value).toMatchObject({ count: 2 });
  });

  it('a hedged read is one span: an event says which copy answered and when the second went out', async () => {
    const mock = await start();
    const afterMs = 250;
    // The hedge's wait is over at once; the first copy hangs (the mock holds it until it is aborted).
    const sleep = (ms: number) => (ms === afterMs ? Promise.resolve() : new Promise<void>(() => {}));
    const { client } = clientFor(target, mock, { hedge: { afterMs }, sleep });
    opened.push(client);
    const [user] = await client.users.list().toArray({ limit: 1 });
    await otel.reset();
    mock.injectFault({ path: `/v1/users/${user?.id}/`, delayMs: 600_000, times: 1 });

    await client.users.retrieve(String(user?.id));

    const [span] = otel.spans();
    expect(span?.name).toBe('users.retrieve');
    const [event, ...more] = eventsNamed(span as NonNullable<typeof span>, 'company_data.hedge');
    expect(more).toEqual([]);
    expect(event?.attributes).toMatchObject({
      'company_data.attempt': 1,
      'company_data.hedge.after_ms': afterMs,
    });
    // In process the hung first copy surely reached the mock first; over a socket the two copies race.
    if (target.name === 'in-process') expect(event?.attributes?.['company_data.hedge.winner']).toBe('hedge');
  });

  it('a failed call ends its span with the error code, never the message', async () => {
    const mock = await start();
    const { client } = clientFor(target, mock);
    opened.push(client);
    await expect(client.users.retrieve('00000000-0000-4000-8000-000000000000')).rejects.toThrow();
    const [span] = otel.spans();
    expect(span?.attributes).toMatchObject({ 'error.type': 'not_found', 'company_data.outcome': 'error' });
    expect(span?.status).toEqual({ code: 2, message: 'not_found' });
  });

  it('a 429 pauses the gate: the pause is an event of the call that met it, the wait an event of the one it held', async () => {
    const mock = await start();
    const time = manualTime(mock);
    const { client } = clientFor(target, mock, { sleep: time.sleep, now: time.now });
    opened.push(client);
    const [first, second] = await client.users.list().toArray({ limit: 2 });
    await otel.reset();
    mock.injectFault({ path: `/v1/users/${first?.id}/`, status: 429, headers: { 'retry-after': '1' } });

    const met = client.users.retrieve(String(first?.id));
    await until(() => time.pending.length === 1);
    const held = client.users.retrieve(String(second?.id));
    // It reaches the gate within a few turns (no request goes out while the gate is closed).
    await turns(5);
    time.release();
    await Promise.all([met, held]);

    const [metSpan, heldSpan] = [first, second].map((_, index) =>
      otel.spans().find((span) => span.attributes['company_data.attempts'] === (index === 0 ? 2 : 1)),
    );
    expect(
      eventsNamed(metSpan as never, 'company_data.rate_limit.pause').map((event) => event.attributes),
    ).toEqual([
      { 'company_data.attempt': 1, 'company_data.rate_limit.retry_after': 1, 'company_data.wait_ms': 1000 },
    ]);
    expect(eventsNamed(metSpan as never, 'company_data.rate_gate.wait')[0]?.attributes).toMatchObject({
      'company_data.rate_gate.cause': 'this_call',
      'company_data.wait_ms': 1000,
    });
    expect(eventsNamed(heldSpan as never, 'company_data.rate_gate.wait')[0]?.attributes).toMatchObject({
      'company_data.rate_gate.cause': 'other',
      'company_data.wait_ms': 1000,
    });
    const metrics = (await otel.metrics()).scopeMetrics.flatMap((scope) => scope.metrics);
    const pauses = metrics.find((metric) => metric.descriptor.name === METRICS.rateLimitPause);
    expect(pauses?.dataPoints[0]?.value).toMatchObject({ count: 1, sum: 1 });
  });

  it('an ordered export under a 10 % fault rate: one walk span, a span per page with its attempts, an event per retry and 429', async () => {
    const pages = 60;
    const mock = await start({ seed: 5, sizes: { users: 2, calls: pages * 5 } });
    const { client } = clientFor(target, mock, { maxRetries: 8 });
    opened.push(client);
    mock.setFaultRate({
      method: 'GET',
      path: '/v1/calls/',
      rate: 0.1,
      mix: [...DEFAULT_FAULT_MIX, { status: 429, headers: { 'retry-after': '1' } }],
    });

    const calls = await client.calls.list({ page_size: 5 }, { concurrency: 4 }).toArray();
    expect(calls).toHaveLength(pages * 5);

    const trees = spanTrees(otel.spans());
    expect(trees.map((tree) => tree.span.name)).toEqual(['calls.list iterate']);
    const walk = trees[0] as (typeof trees)[number];
    expect(walk.span.attributes).toMatchObject({
      'company_data.scope': 'walk',
      'company_data.pages': pages,
      'company_data.outcome': 'ok',
      'company_data.concurrency': 4,
    });
    expect(walk.children.every((child) => child.children.length === 0)).toBe(true);
    const pageSpans = walk.children.map((child) => child.span);
    expect(new Set(pageSpans.map((span) => span.name))).toEqual(new Set(['calls.list page']));
    expect(
      pageSpans.map((span) => span.attributes['company_data.page']).sort((a, b) => Number(a) - Number(b)),
    ).toEqual(Array.from({ length: pages }, (_, index) => index + 1));
    const journal = mock.journal().filter((entry) => entry.path === '/v1/calls/');
    for (const span of pageSpans) {
      const page = span.attributes['company_data.page'];
      expect(span.attributes['company_data.attempts']).toBe(
        journal.filter((entry) => Number(entry.query.page) === page).length,
      );
    }
    const faults = journal.filter((entry) => entry.fault !== null);
    expect(faults.length).toBeGreaterThan(3);
    const events = (name: string) => pageSpans.flatMap((span) => eventsNamed(span, name));
    expect(events('company_data.retry')).toHaveLength(faults.filter((entry) => entry.status !== 429).length);
    expect(events('company_data.rate_limit.pause')).toHaveLength(
      journal.filter((entry) => entry.status === 429).length,
    );
    expect(callPagesRead(mock)).toHaveLength(journal.length);
  });

  it('a list page awaited alone is a call; iterated, page 1 is the first page of the walk', async () => {
    const mock = await start({ sizes: { users: 2, calls: 25 } });
    const { client } = clientFor(target, mock);
    opened.push(client);
    await client.calls.list({ page_size: 10 });
    expect(
      spanTrees(otel.spans()).map((tree) => [tree.span.name, tree.span.attributes['company_data.scope']]),
    ).toEqual([['calls.list', 'call']]);
    await otel.reset();
    for await (const _page of client.calls.list({ page_size: 10 }).pages()) {
      // every page
    }
    const [walk, ...others] = spanTrees(otel.spans());
    expect(others).toEqual([]);
    expect(walk?.children.map((child) => child.span.attributes['company_data.page'])).toEqual([1, 2, 3]);
  });

  it('a walk left early ends stopped, and so do its pages in flight: no error', async () => {
    const mock = await start({ sizes: { users: 2, calls: 50 } });
    const { client } = clientFor(target, mock);
    opened.push(client);
    // Items of page 2: pages 3 and 4, fetched ahead, are stopped (or were in already). The read-ahead stays
    // within the window: on a busy machine page 2 can be late (100 ms), and a walk whose head is late
    // starts pages further ahead (a test of its own, below).
    await client.calls.list({ page_size: 5 }, { concurrency: 3, readAhead: 3 }).toArray({ limit: 7 });
    const pages = () => otel.spans().filter((span) => span.attributes['company_data.scope'] === 'page');
    await until(() => pages().length === 4);
    const walk = otel.spans().find((span) => span.attributes['company_data.scope'] === 'walk');
    expect(walk?.attributes).toMatchObject({ 'company_data.outcome': 'stopped', 'company_data.pages': 2 });
    const outcomes = new Map(
      pages().map((span) => [span.attributes['company_data.page'], span.attributes['company_data.outcome']]),
    );
    expect([outcomes.get(1), outcomes.get(2)]).toEqual(['ok', 'ok']);
    expect(['ok', 'stopped']).toContain(outcomes.get(3));
    expect(['ok', 'stopped']).toContain(outcomes.get(4));
    expect(
      otel.spans().filter((span) => span.status.code !== 0 || span.attributes['error.type'] !== undefined),
    ).toEqual([]);
  });

  it('the read-ahead reaching past a failing head page is an event of the walk', async () => {
    const mock = await start({ sizes: { users: 2, calls: 50 } });
    let armed = false;
    const { client } = clientWithHook(target, mock, ({ path, page }) => {
      if (path !== '/v1/calls/') return undefined;
      if (page === 2 && !armed) {
        armed = true;
        mock.injectFault({ path: '/v1/calls/', status: 503 });
      }
      // Page 3 goes out once page 2 met its fault, so that the fault is page 2's.
      if (page === 3) return until(() => mock.journal().some((entry) => entry.fault !== null));
      return undefined;
    });
    opened.push(client);
    await client.calls.list({ page_size: 5 }, { concurrency: 2, readAhead: 6 }).toArray();
    const walk = otel.spans().find((span) => span.attributes['company_data.scope'] === 'walk');
    expect(
      eventsNamed(walk as never, 'company_data.read_ahead.extend').map((event) => event.attributes),
    ).toEqual([
      { 'company_data.page': 2, 'company_data.read_ahead.budget': 6, 'company_data.reason': 'failed' },
    ]);
  });

  it('a sync run is one span, its pages its children', async () => {
    const mock = await start({ sizes: { users: 2, calls: 30 } });
    const { client } = clientFor(target, mock);
    opened.push(client);
    for await (const _change of client.calls.sync({ params: { page_size: 10 } })) {
      // every change
    }
    const [sync, ...others] = spanTrees(otel.spans());
    expect(others).toEqual([]);
    expect(sync?.span.name).toBe('calls.sync');
    expect(sync?.span.attributes).toMatchObject({
      'company_data.scope': 'sync',
      'company_data.outcome': 'ok',
      'company_data.pages': 3,
    });
    expect(
      sync?.children.map((child) => [child.span.name, child.span.attributes['company_data.page']]),
    ).toEqual([
      ['calls.list page', 1],
      ['calls.list page', 2],
      ['calls.list page', 3],
    ]);
  });

  it('a list that grows under an iteration: the count change and the page read again are events of the walk', async () => {
    const mock = await start({ sizes: { users: 2, calls: 40 } });
    const count = 40;
    // Page 2 goes out late: pages 3 and 4 are read first, then three calls arrive at the head, then page 2
    // is read; pages 3 and 4, read before the list grew, are read again.
    const { client } = clientWithHook(target, mock, lateSecondPageAfterArrivals(mock));
    opened.push(client);
    await client.calls.list({ page_size: 5 }, { concurrency: 3, readAhead: 3 }).toArray();
    const walk = otel.spans().find((span) => span.attributes['company_data.scope'] === 'walk');
    expect(eventsNamed(walk as never, 'company_data.count_change').map((event) => event.attributes)).toEqual([
      { 'company_data.count.previous': count, 'company_data.count': count + 3, 'company_data.page': 2 },
    ]);
    const rereads = eventsNamed(walk as never, 'company_data.page.reread');
    expect(rereads.map((event) => event.attributes?.['company_data.page'])).toContain(3);
    expect(rereads).toHaveLength(callPagesRead(mock).length - new Set(callPagesRead(mock)).size);
  });

  it('records deleted under a sync: the fall of count and the step back are events of the sync', async () => {
    const mock = await start({ sizes: { users: 2, calls: 30 } });
    const { client: reader } = clientFor(target, mock);
    opened.push(reader);
    const ids = (await reader.calls.list({ page_size: 100 }).toArray()).map((call) => call.id);
    let fired = false;
    const { client } = clientWithHook(target, mock, ({ path, page }) => {
      // As page 3 goes out, two calls of page 1 (already read) are deleted: every later page starts two
      // items later, and the walk steps back.
      if (path === '/v1/calls/' && page === 3 && !fired) {
        fired = true;
        mock.records.delete('calls', String(ids[1]));
        mock.records.delete('calls', String(ids[2]));
      }
      return undefined;
    });
    opened.push(client);
    await otel.reset();
    for await (const _change of client.calls.sync({ params: { page_size: 5 } })) {
      // every change
    }
    const sync = otel.spans().find((span) => span.attributes['company_data.scope'] === 'sync');
    expect(eventsNamed(sync as never, 'company_data.count_change')[0]?.attributes).toEqual({
      'company_data.page': 3,
      'company_data.count.previous': 30,
      'company_data.count': 28,
    });
    expect(eventsNamed(sync as never, 'company_data.sync.step_back')[0]?.attributes).toEqual({
      'company_data.page': 3,
      'company_data.to_page': 2,
    });
  });

  it('records nothing once the instrumentation is disabled', async () => {
    const mock = await start({ sizes: { users: 2, calls: 5 } });
    const { client } = clientFor(target, mock);
    opened.push(client);
    otel.instrumentation.disable();
    try {
      expect(telemetrySink()).toBeUndefined();
      await client.calls.list().toArray();
      expect(otel.spans()).toEqual([]);
    } finally {
      otel.instrumentation.enable();
    }
  });
});
