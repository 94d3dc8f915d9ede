import '../../../src/entries/vitest.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockServerMatchers } from '../../../src/entries/vitest.js';
import {
  createMockServer,
  type MockServer,
  type MockServerOptions,
  VerificationError,
  VerifyPatternError,
} from '../../../src/index.js';
import { toMockRequest } from '../../support/engine.js';

// The vitest matchers of `@company-data/mock-server/vitest`: importing the entry extends vitest's expect
// (and its Assertion type); each matcher runs mock.verify and fails with its report. It extends expect for
// the whole worker, so this file runs with modules of its own.

const AT = '2026-06-01T12:00:00.000Z';
const opened: MockServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of opened.splice(0)) await server.close().catch(() => {});
});

async function mockWithCalls(options: MockServerOptions = {}): Promise<MockServer> {
  const mock = createMockServer({ clock: 'frozen', ...options });
  opened.push(mock);
  for (const page of [1, 2]) {
    const request = {
      path: `/v1/calls/?page=${page}`,
      headers: { authorization: `Bearer ${mock.keys.valid}` },
    };
    await mock.handle(toMockRequest(mock, request));
  }
  return mock;
}

/** The message an expectation failed with. */
function failureOf(expectation: () => void): string {
  try {
    expectation();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the expectation passed');
}

describe('expect(mock).toHaveReceived / toHaveReceivedTimes', () => {
  it('pass when the journal holds the requests, with or without .not', async () => {
    const mock = await mockWithCalls();
    expect(mock).toHaveReceived();
    expect(mock).toHaveReceived({ method: 'GET', path: '/v1/calls/', query: { page: 2 }, key: 'valid' });
    expect(mock).toHaveReceivedTimes(2, { path: '/v1/calls/' });
    expect(mock).toHaveReceivedTimes(0, { method: 'DELETE' });
    expect(mock).not.toHaveReceived({ method: 'POST' });
    expect(mock).not.toHaveReceivedTimes(1, { path: '/v1/calls/' });
  });

  it('fail with the near-miss report', async () => {
    const mock = await mockWithCalls();
    expect(failureOf(() => expect(mock).toHaveReceived({ path: '/v1/calls/', query: { page: 3 } }))).toBe(
      [
        'Expected at least 1 request matching any method /v1/calls/ with query {"page":"3"}, received 0.',
        'Closest requests that did not match, fewest differences first (2 of 2):',
        `1. GET /v1/calls/?page=2, answered 200, at ${AT}`,
        '   - query page: expected "3", received "2"',
        `2. GET /v1/calls/?page=1, answered 200, at ${AT}`,
        '   - query page: expected "3", received "1"',
      ].join('\n'),
    );
    expect(failureOf(() => expect(mock).toHaveReceivedTimes(1, { method: 'GET' }))).toBe(
      [
        'Expected exactly 1 request matching GET any path, received 2.',
        'Requests that matched:',
        `1. GET /v1/calls/?page=1, answered 200, at ${AT}`,
        `2. GET /v1/calls/?page=2, answered 200, at ${AT}`,
      ].join('\n'),
    );
  });

  it('under .not, fail with the requests that matched', async () => {
    const mock = await mockWithCalls();
    expect(failureOf(() => expect(mock).not.toHaveReceived({ query: { page: 1 } }))).toBe(
      [
        'Expected the mock not to have received at least 1 request matching any method any path with query {"page":"1"}, but it received 1.',
        'Requests that matched:',
        `1. GET /v1/calls/?page=1, answered 200, at ${AT}`,
      ].join('\n'),
    );
  });

  it('throw, with or without .not, for unmatched requests to report, a bad pattern or no mock', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const mock = await mockWithCalls({ onUnmatchedRequest: 'error' });
    await mock.handle(toMockRequest(mock, { path: '/v1/user/' }));
    let thrown: unknown;
    try {
      expect(mock).not.toHaveReceived({ method: 'POST' }); // would pass: the unmatched request fails it
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VerificationError);
    expect((thrown as VerificationError).message).toContain(
      `1. GET /v1/user/, answered 404, at ${AT}: No operation of the API has this path (did you mean /v1/users/?).`,
    );
    expect(() => expect(mock).toHaveReceived({ paht: '/v1/calls/' } as never)).toThrow(VerifyPatternError);
    expect(() => expect(mock).toHaveReceivedTimes(1, { times: 2 })).toThrow(
      'toHaveReceivedTimes(times, pattern) takes the count as its first argument: leave times out of the pattern, or use toHaveReceived(pattern).',
    );
    expect(() => expect({}).toHaveReceived()).toThrow(
      'expect(mock).toHaveReceived(…) takes a mock server (from createMockServer() or startMockServer()); received object.',
    );
  });

  it('are typed on vitest’s Assertion, and exported for an expect of your own', async () => {
    const mock = await mockWithCalls();
    // @ts-expect-error: the count comes first.
    expect(() => expect(mock).toHaveReceivedTimes({ path: '/v1/calls/' })).toThrow(VerifyPatternError);
    // @ts-expect-error: a pattern has no such field.
    expect(() => expect(mock).toHaveReceived({ paht: '/v1/calls/' })).toThrow(VerifyPatternError);
    expect(Object.keys(mockServerMatchers)).toEqual(['toHaveReceived', 'toHaveReceivedTimes']);
  });
});
