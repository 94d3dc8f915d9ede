// How to test your own code against the mock server: an in-process mock per test (no socket, no shared
// state), the SDK client wired to it through its undici dispatcher, and the client's time wired to the
// mock's clock so that rate-limit waits and retry backoff take no real time.
import { createMockServer, type Fixture, type MockServer } from '@company-data/mock-server';
import { AuthenticationError, type Call, type ClientOptions, CompanyData } from '@company-data/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { addSignup, bookingRates } from './my-app.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const resource of opened.splice(0)) await resource.close();
});

/** An SDK client talking to `mock` in-process, on the mock's clock. */
function clientFor(mock: MockServer, options: ClientOptions = {}): CompanyData {
  const client = new CompanyData({
    apiKey: mock.keys.valid,
    baseURL: mock.baseURL,
    dispatcher: mock.dispatcher,
    sleep: async (ms) => mock.clock.advance(ms),
    now: () => mock.clock.nowMs(),
    logLevel: 'error', // the SDK warns when it pauses for a 429: keep the test output quiet
    ...options,
  });
  opened.push(client);
  return client;
}

function startMock(options: Parameters<typeof createMockServer>[0] = {}): MockServer {
  const mock = createMockServer(options);
  opened.push(mock);
  return mock;
}

// A fixture gives exact data, so the expectations are exact too.
const ADA = { id: '00000000-0000-4000-8000-0000000000a1', full_name: 'Ada Lovelace' };
const ALAN = { id: '00000000-0000-4000-8000-0000000000a2', full_name: 'Alan Turing' };
function call(n: number, user: typeof ADA, booked: boolean, source: Call['source'] = 'integration'): Call {
  const start = `2026-05-0${n}T10:00:00Z`;
  return {
    id: `00000000-0000-4000-8000-00000000c00${n}`,
    start_time: start,
    end_time: `2026-05-0${n}T10:05:00Z`,
    audio_duration_seconds: 300,
    direction: 'inbound',
    source,
    sentiment: 'positive',
    score: 7,
    summary: 'Customer asked for a quote.',
    is_qualified: true,
    is_booked: booked,
    is_excused: false,
    excused_at: null,
    excuse_reason: null,
    is_cancellation: false,
    has_cancellation: false,
    user,
    created_at: start,
  };
}
const fixture: Fixture = {
  companies: [
    {
      name: 'Acme',
      calls: [
        call(1, ADA, true),
        call(2, ADA, true),
        call(3, ADA, false, 'voice_agent'),
        call(4, ALAN, true),
        call(5, ALAN, false),
      ],
    },
  ],
};

describe('bookingRates', () => {
  it('computes the booking rate of every rep', async () => {
    const mock = startMock({ fixture });
    const rates = await bookingRates(clientFor(mock));
    expect(rates).toEqual([
      { userId: ADA.id, name: 'Ada Lovelace', calls: 3, booked: 2, bookingRate: 2 / 3 },
      { userId: ALAN.id, name: 'Alan Turing', calls: 2, booked: 1, bookingRate: 1 / 2 },
    ]);
  });

  it('passes the source filter to the API', async () => {
    const mock = startMock({ fixture });
    const rates = await bookingRates(clientFor(mock), 'voice_agent');
    expect(rates).toEqual([{ userId: ADA.id, name: 'Ada Lovelace', calls: 1, booked: 0, bookingRate: 0 }]);
    expect(mock.journal().map((entry) => entry.query.source)).toEqual(['voice_agent']);
  });

  it('reads every page of a long list', async () => {
    // Generated data: 250 calls are three pages of 100.
    const mock = startMock({ seed: 7, sizes: { calls: 250 } });
    const rates = await bookingRates(clientFor(mock));
    expect(rates.reduce((sum, rep) => sum + rep.calls, 0)).toBe(250);
    expect(
      mock
        .journal()
        .map((entry) => entry.query.page ?? '1')
        .sort(),
    ).toEqual(['1', '2', '3']);
  });

  it('waits out a rate limit without real waiting', async () => {
    // Frozen: the mock's clock moves only when the client sleeps, so the arithmetic below is exact.
    const mock = startMock({ fixture, clock: 'frozen' });
    mock.injectFault({ path: '/v1/calls/', status: 429, headers: { 'Retry-After': '30' } });
    const before = mock.clock.nowMs();
    const rates = await bookingRates(clientFor(mock));
    expect(rates).toHaveLength(2);
    expect(mock.journal().map((entry) => entry.status)).toEqual([429, 200]);
    expect(mock.clock.nowMs() - before).toBe(30_000); // 30 s of mock time, none of yours
  });

  it('survives a failing server once, and reports it when it keeps failing', async () => {
    const mock = startMock({ fixture });
    const client = clientFor(mock, { random: () => 0 });
    mock.injectFault({ path: '/v1/calls/', status: 503 });
    await expect(bookingRates(client)).resolves.toHaveLength(2);
    mock.injectFault({ path: '/v1/calls/', status: 503, times: 3 });
    await expect(bookingRates(client)).rejects.toMatchObject({ code: 'server_error', status: 503 });
  });

  it('reports an expired key', async () => {
    const mock = startMock({ fixture });
    const error = await bookingRates(clientFor(mock, { apiKey: mock.keys.expired })).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ reason: 'expired_key', detail: 'API key has expired.' });
  });
});

describe('addSignup', () => {
  it('adds a contact once, whatever the phone format', async () => {
    const mock = startMock();
    const client = clientFor(mock);
    const first = await addSignup(client, mock.tokens.audience, {
      name: 'Grace Brewster Hopper',
      phone: '(415) 555-0199',
    });
    const again = await addSignup(client, mock.tokens.audience, {
      name: 'Grace Hopper',
      phone: '+1 415-555-0199',
    });
    expect(first.isNew).toBe(true);
    expect(again).toEqual({ memberId: first.memberId, isNew: false });
    expect(mock.members(mock.tokens.audience)).toMatchObject([
      { first_name: 'Grace', last_name: 'Brewster Hopper', phone: '+14155550199' },
    ]);
  });
});
