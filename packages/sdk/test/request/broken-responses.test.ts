import type { MockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionError, InvalidResponseError, type RetryEvent, ServerError } from '../../src/index.js';
import { clientFor, DEFAULT_MOCK, type Target, targets, wholeList } from '../support/harness.js';

// The SDK against each broken answer the mock can give: what it retries, what it throws at once, and
// what its messages say.

describe.each(targets)('the SDK against broken responses ($name)', (target: Target) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await target.start({ clock: 'frozen' });
  });
  beforeEach(() => mock.reset());
  afterAll(() => mock.close());

  it('a body cut mid-way: a ConnectionError, retried', async () => {
    const retries: RetryEvent[] = [];
    const { client } = clientFor(target, mock, { onRetry: (event) => void retries.push(event) });
    mock.injectFault({ path: '/v1/teams/', cutAfterBytes: 20 });
    await expect(client.teams.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.teams));
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error).toBeInstanceOf(ConnectionError);
    expect(mock.journal().map((entry) => entry.fault?.cutAfterBytes)).toEqual([20, undefined]);

    mock.injectFault({ path: '/v1/teams/', cutAfterBytes: 20 });
    await expect(client.teams.list({}, { maxRetries: 0 })).rejects.toBeInstanceOf(ConnectionError);
  });

  it('a 200 with truncated JSON: an InvalidResponseError at once, never retried (GET or POST)', async () => {
    const retries: RetryEvent[] = [];
    const { client } = clientFor(target, mock, { onRetry: (event) => void retries.push(event) });
    mock.injectFault({ path: '/v1/teams/', malformedJson: true });
    const error = await client.teams.list().then(undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200, issues: [] });
    mock.injectFault({ method: 'POST', malformedJson: true });
    const member = client.audiences.addMember(mock.tokens.audience, { phone: '415-555-0190' });
    await expect(member).rejects.toBeInstanceOf(InvalidResponseError);
    expect(retries).toEqual([]);
    expect(mock.journal()).toHaveLength(2);
    // The server did its work: a retry could not have known that, and would have hidden the broken answer.
    expect(mock.journal()[1]?.status).toBe(200);
  });

  it('an HTML error page: a ServerError, retried, whose message is one short readable line', async () => {
    const { client } = clientFor(target, mock);
    mock.injectFault({ path: '/v1/teams/', htmlPage: true });
    await expect(client.teams.list()).resolves.toMatchObject(wholeList(DEFAULT_MOCK.teams));

    const padding = `<p>${'Our engineers have been notified. '.repeat(40)}</p>`;
    const body = `<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title>\n<style>body { color: red }</style></head>\n<body>\n  <h1>502   Bad Gateway</h1>\n${padding}\n</body>\n</html>\n`;
    mock.injectFault({ path: '/v1/teams/', htmlPage: true, body });
    const error = await client.teams.list({}, { maxRetries: 0 }).then(undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    const { message, detail } = error as ServerError;
    expect(message).toMatch(
      /^502 text\/html; charset=utf-8 body: 502 Bad Gateway 502 Bad Gateway Our engineers have been notified\. .*… \(GET http.*\/v1\/teams\/.*\)$/,
    );
    expect(message).not.toMatch(/[<>\n]|color: red|\s{2}/);
    expect(detail?.length).toBe(200);
  });

  it('a steady latency and fault rate: a full listing still arrives whole, through retries', async () => {
    const expected = (await clientFor(target, mock).client.users.list({ page_size: 1 }).toArray()).length;
    mock.setLatency({ minMs: 0, maxMs: 2 });
    mock.setFaultRate({ rate: 0.3 });
    const { client } = clientFor(target, mock, { maxRetries: 4 });
    const users = await client.users.list({ page_size: 1 }).toArray();
    expect(users).toHaveLength(expected);
    expect(new Set(users.map((user) => user.id)).size).toBe(expected);
    const faulted = mock.journal().filter((entry) => entry.fault?.fromRate);
    expect(faulted.length).toBeGreaterThan(0);
  });
});
