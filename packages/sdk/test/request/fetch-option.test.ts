import { createMockServer, type MockServer } from '@company-data/mock-server';
import { mswHandlers } from '@company-data/mock-server/msw';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CompanyData,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
} from '../../src/index.js';
import { inFakeTime, mockTime } from '../support/harness.js';

// The SDK sends through undici by default, which msw cannot intercept; with `fetch: globalThis.fetch` a
// user's own msw setupServer (here holding the mock server's handlers) answers the SDK's requests.
const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterAll(() => msw.close());

describe('the fetch option, through msw setupServer and the mock server handlers', () => {
  let mock: MockServer;
  let client: CompanyData;
  beforeEach(() => {
    mock = createMockServer();
    msw.resetHandlers(...mswHandlers(mock));
    const time = mockTime(mock);
    client = new CompanyData({
      apiKey: mock.keys.valid,
      baseURL: mock.baseURL,
      fetch: globalThis.fetch,
      sleep: time.sleep,
      now: time.now,
    });
  });
  afterEach(async () => {
    await client.close();
    await mock.close();
  });

  it('lists, iterates and retrieves', async () => {
    const page = await client.users.list({ page_size: 5 });
    expect(page.data).toHaveLength(5);
    const all = await client.users.list({ page_size: 5 }).toArray();
    expect(all).toHaveLength(page.pagination.count);
    const first = page.data[0];
    if (!first) throw new Error('no user');
    expect((await client.users.retrieve(first.id)).id).toBe(first.id);
  });

  it('reads status and headers with withResponse', async () => {
    const { data, response } = await client.audiences
      .addMember(mock.tokens.audience, { email: 'fetch@example.com' })
      .withResponse();
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(data.email).toBe('fetch@example.com');
  });

  it('lets the user’s own msw handlers override the mock', async () => {
    msw.use(
      http.get(`${mock.baseURL}/teams/`, () =>
        HttpResponse.json({ error: { detail: 'Not found.' } }, { status: 404 }),
      ),
    );
    await expect(client.teams.list()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('maps throttling, dropped connections and timeouts to the same errors', async () => {
    mock.injectFault({ path: '/v1/teams/', status: 429, headers: { 'retry-after': '600' }, body: {} });
    await expect(client.teams.list()).rejects.toBeInstanceOf(RateLimitError);

    mock.injectFault({ path: '/v1/teams/', drop: true, times: 3 });
    await expect(client.teams.list()).rejects.toBeInstanceOf(ConnectionError);

    mock.injectFault({ path: '/v1/teams/', delayMs: 5_000 });
    const timedOut = await inFakeTime(() =>
      client.teams.list({}, { timeout: 50, maxRetries: 0 }).then(undefined, (caught: unknown) => caught),
    );
    expect(timedOut).toBeInstanceOf(TimeoutError);
  });
});
