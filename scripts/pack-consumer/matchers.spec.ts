// The mock server's vitest matchers as a user's test file uses them, run by scripts/packaging/consumer.mjs in the
// project the guides set up outside the workspace, where the tarballs were installed: importing
// `@company-data/mock-server/vitest` extends the project's vitest (and, for tsc, its Assertion type).
// A `.spec.ts`, so the repository's own test run (its `*.test.ts` files) leaves it to the consumer check.
import '@company-data/mock-server/vitest';
import { type MockServer, startMockServer } from '@company-data/mock-server';
import { afterAll, beforeAll, expect, it } from 'vitest';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, clock: 'frozen' });
  const headers = { authorization: `Bearer ${mock.keys.valid}` };
  const response = await fetch(`${mock.baseURL}/calls/?page=2`, { headers });
  await response.arrayBuffer();
});
afterAll(() => mock.close());

/** What the failing expectation says: the near-miss report. */
const REPORT = [
  'Expected at least 1 request matching GET /v1/calls/ with query {"page":"3"}, received 0.',
  'Closest requests that did not match, fewest differences first (1 of 1):',
  '1. GET /v1/calls/?page=2, answered 200, at 2026-06-01T12:00:00.000Z',
  '   - query page: expected "3", received "2"',
].join('\n');

it('passes when the mock received the requests', () => {
  expect(mock).toHaveReceived({ method: 'GET', path: '/v1/calls/', query: { page: 2 }, key: 'valid' });
  expect(mock).toHaveReceivedTimes(1, { path: '/v1/calls/' });
  expect(mock).not.toHaveReceived({ method: 'POST' });
});

it('fails with the near-miss report', () => {
  let message = '';
  try {
    expect(mock).toHaveReceived({ method: 'GET', path: '/v1/calls/', query: { page: 3 } });
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toBe(REPORT);
});

// Run only when asked: the check then sees vitest itself print the report of a failing expectation.
it.runIf(process.env.MATCHERS_SHOW_FAILURE === '1')('shows the report when it fails', () => {
  expect(mock).toHaveReceived({ method: 'GET', path: '/v1/calls/', query: { page: 3 } });
});
