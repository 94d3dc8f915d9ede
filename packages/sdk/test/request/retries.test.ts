import type { MockServer } from '@company-data/mock-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BadRequestError,
  type ClientOptions,
  ConnectionError,
  NotFoundError,
  type RetryEvent,
  ServerError,
  TimeoutError,
} from '../../src/index.js';
import { clientFor, DEFAULT_MOCK, inFakeTime, type Target, targets, wholeList } from '../support/harness.js';

describe.each(targets)('retries, timeouts and aborts ($name)', (target: Target) => {
  const opened: { close(): Promise<void> }[] = [];
  async function setup(options: ClientOptions = {}) {
    const mock = await target.start();
    const harness = clientFor(target, mock, options);
    opened.push(harness.client, mock);
    return { mock, ...harness };
  }
  const statuses = (mock: MockServer) => mock.journal().map((entry) => entry.status);
  afterEach(async () => {
    for (const resource of opened.splice(0)) await resource.close();
  });

  it('retries 5xx with exponential backoff and full jitter', async () => {
    const { mock, client, sleeps } = await setup();
    mock.injectFault({ path: '/v1/users/', status: 503, times: 2 });
    await expect(client.users.list()).resolves.toMatchObject({ pagination: { page: 1 } });
    // random() = 0.5: half of 500 ms, then half of 1000 ms.
    expect(sleeps).toEqual([250, 500]);
    expect(statuses(mock)).toEqual([503, 503, 200]);
  });

  it('throws a ServerError once the retries are spent', async () => {
    const { mock, client } = await setup();
    mock.injectFault({ path: '/v1/users/', status: 500, times: 3, body: { error: { detail: 'Boom.' } } });
    const error = await client.users.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, detail: 'Boom.', code: 'server_error' });
    expect(statuses(mock)).toEqual([500, 500, 500]);
  });

  it('retries 408', async () => {
    const { mock, client } = await setup();
    mock.injectFault({ path: '/v1/teams/', status: 408 });
    await client.teams.list();
    expect(statuses(mock)).toEqual([408, 200]);
  });

  it('never retries other 4xx', async () => {
    const { mock, client, sleeps } = await setup();
    mock.injectFault({ path: '/v1/teams/', status: 400, body: { error: { detail: 'page_size: too big' } } });
    await expect(client.teams.list()).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.teams.retrieve('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(statuses(mock)).toEqual([400, 404]);
    expect(sleeps).toEqual([]);
  });

  it('retries a dropped connection, then gives up with a ConnectionError', async () => {
    const { mock, client } = await setup();
    mock.injectFault({ path: '/v1/users/', drop: true });
    await expect(client.users.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.users));
    expect(statuses(mock)).toEqual([null, 200]);
    mock.injectFault({ path: '/v1/users/', drop: true, times: 3 });
    const error = await client.users.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as ConnectionError).cause).toMatchObject({
      code: 'UND_ERR_SOCKET',
      message: 'other side closed',
    });
  });

  it('lets onRetry observe and veto a retry, and a per-request maxRetries override the client', async () => {
    const events: RetryEvent[] = [];
    const { mock, client } = await setup({
      onRetry: (event) => {
        events.push(event);
        return false;
      },
    });
    mock.injectFault({ path: '/v1/users/', status: 502, times: 2 });
    await expect(client.users.list()).rejects.toMatchObject({ status: 502 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ operation: 'GET /users/', attempt: 1, delayMs: 250 });
    expect(events[0]?.error).toBeInstanceOf(ServerError);
    await expect(client.users.list({}, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(events).toHaveLength(1);
  });

  it('times out a slow attempt with a TimeoutError, and retries it like a connection error', async () => {
    const { mock, client } = await setup({ timeout: 250 });
    mock.injectFault({ path: '/v1/users/', delayMs: 5_000 });
    const error = await inFakeTime(() =>
      client.users.list({}, { maxRetries: 0 }).then(undefined, (caught: unknown) => caught),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'timeout', message: expect.stringContaining('after 250 ms') });
    mock.injectFault({ path: '/v1/users/', delayMs: 5_000 });
    await expect(inFakeTime(() => client.users.list())).resolves.toMatchObject(wholeList(DEFAULT_MOCK.users));
    // The server hears of each abandoned attempt when its connection closes.
    await vi.waitFor(() =>
      expect(mock.journal().map((entry) => entry.outcome)).toEqual([
        'client_aborted',
        'client_aborted',
        'served',
      ]),
    );
  });

  it('applies a per-request timeout', async () => {
    const { mock, client } = await setup();
    mock.injectFault({ path: '/v1/teams/', delayMs: 5_000 });
    const error = await inFakeTime(() =>
      client.teams.list({}, { timeout: 30, maxRetries: 0 }).then(undefined, (caught: unknown) => caught),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('after 30 ms');
  });

  it('aborts a request in flight, and never retries it', async () => {
    const { mock, client, logger } = await setup();
    mock.injectFault({ path: '/v1/users/', delayMs: 5_000 });
    const controller = new AbortController();
    const pending = client.users.list({}, { signal: controller.signal });
    setImmediate(() => controller.abort(new Error('user gave up')));
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'request_aborted', name: 'RequestAbortedError' });
    expect((error as Error).cause).toEqual(new Error('user gave up'));
    // One attempt, whether or not it reached the server before the abort: never a second.
    const attempts = logger.lines.filter((line) => String(line.args[0]).startsWith('company-data request'));
    expect(attempts).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { mock, client } = await setup();
    await expect(client.users.list({}, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'request_aborted',
    });
    expect(mock.journal()).toHaveLength(0);
  });

  it('aborts during a backoff wait', async () => {
    const mock = await target.start();
    const controller = new AbortController();
    const { client } = clientFor(target, mock, {
      sleep: () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    opened.push(client, mock);
    mock.injectFault({ path: '/v1/users/', status: 503 });
    await expect(client.users.list({}, { signal: controller.signal })).rejects.toMatchObject({
      code: 'request_aborted',
    });
  });

  it('aborts while waiting at the rate gate', async () => {
    const mock = await target.start();
    const controller = new AbortController();
    // The pause starts (a sleep that never ends), then the caller gives up.
    const { client } = clientFor(target, mock, {
      sleep: () => {
        setImmediate(() => controller.abort());
        return new Promise(() => undefined);
      },
    });
    opened.push(client, mock);
    mock.injectFault({ path: '/v1/users/', status: 429, headers: { 'Retry-After': '30' } });
    const throttled = client.users.list({}, { signal: controller.signal });
    await expect(throttled).rejects.toMatchObject({ code: 'request_aborted' });
    expect(mock.journal()).toHaveLength(1);
  });
});
