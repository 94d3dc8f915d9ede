import { type MockServer, startMockServer } from '@company-data/mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Mismatch, VerifyReport } from '../src/index.js';
import { formatReport } from '../src/verify/format.js';
import { type Drift, startDriftingProxy } from './support/drifting-proxy.js';
import { envFor, runChild, runInProcess } from './support/run.js';

let mock: MockServer;
const closing: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 2, sizes: { users: 30, calls: 240 } });
});
afterEach(async () => {
  for (const server of closing.splice(0)) await server.close();
  mock.reset();
});
afterAll(() => mock.close());

async function verifyJson(baseURL: string, args: readonly string[] = []) {
  const ran = await runInProcess(['verify', '--json', ...args], {
    env: envFor({ baseURL, keys: mock.keys }),
    cwd: process.cwd(),
    clockOf: mock,
  });
  return { code: ran.code, report: JSON.parse(ran.stdout) as VerifyReport, stderr: ran.stderr };
}

async function drifting(drift: Drift) {
  const proxy = await startDriftingProxy(mock, drift);
  closing.push(proxy);
  return verifyJson(proxy.baseURL);
}

/** The run failed in `check` alone, and found `mismatch` there (among others, perhaps). */
function expectOnly(
  result: { code: number | null; report: VerifyReport },
  check: string,
  mismatch: Partial<Mismatch>,
) {
  expect(result.code).toBe(1);
  expect(Object.keys(failed(result.report))).toEqual([check]);
  expect(failed(result.report)[check]).toContainEqual(expect.objectContaining(mismatch));
}

function failed(report: VerifyReport): Record<string, Mismatch[]> {
  return Object.fromEntries(
    report.checks.filter((check) => check.status === 'fail').map((check) => [check.name, check.mismatches]),
  );
}

describe('company-data verify against the mock server', () => {
  it('passes, reading only, with a readable report and exit 0 (run as a user runs it)', async () => {
    const ran = await runChild(['verify'], { env: envFor(mock) });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    for (const check of ['records', 'pagination', 'ordering', 'filters', 'not-found', 'unauthorized'])
      expect(ran.stdout).toMatch(new RegExp(`PASS  ${check} +[1-9]\\d* `));
    expect(ran.stdout).toMatch(/SKIP {2}throttle +no 429 met/);
    expect(ran.stdout).toMatch(/SKIP {2}webhooks +not run: it writes/);
    expect(ran.stdout).toMatch(/the server matches the contract \(\d+ requests, 0 answered 429/);
    expect(mock.journal().every((entry) => entry.method === 'GET')).toBe(true);
  }, 30_000);

  it('checks the 429 message when the server throttles, and the webhooks only when given their tokens', async () => {
    mock.setKeyQuota(mock.keys.valid, { requests: 15, perSeconds: 10 });
    const { code, report } = await verifyJson(mock.baseURL, [
      '--audience-webhook',
      mock.tokens.audience,
      '--lead-webhook',
      `${mock.apiRoot}/messaging-agent/webhook/${mock.tokens.lead}/`,
    ]);
    expect(code).toBe(0);
    expect(report.throttled).toBeGreaterThan(0);
    expect(report.checks.find((check) => check.name === 'throttle')).toMatchObject({ status: 'pass' });
    expect(report.checks.find((check) => check.name === 'webhooks')).toMatchObject({ status: 'pass' });
    expect(report.created).toEqual([
      expect.stringMatching(/^audience member company-data-verify@example\.com .*: added$/),
      expect.stringMatching(/^lead from \+12025550142 /),
    ]);
    expect(mock.members(mock.tokens.audience)).toHaveLength(1);
    expect(mock.leads()).toHaveLength(1);
  });

  it('refuses a malformed webhook token, a refused key and an unreachable server with exit 2', async () => {
    const token = await runInProcess(['verify', '--lead-webhook', 'not-a-token'], {
      env: envFor(mock),
      cwd: '.',
    });
    expect(token.code).toBe(2);
    expect(token.stderr).toMatch(/--lead-webhook: Invalid webhook token/);
    const key = await runInProcess(['verify'], {
      env: { ...envFor(mock), COMPANY_DATA_API_KEY: mock.keys.revoked },
      cwd: '.',
    });
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(
      /The server refused the API key \(Invalid API key\.\): check COMPANY_DATA_API_KEY/,
    );
    const limited = await runInProcess(['verify'], {
      env: { ...envFor(mock), COMPANY_DATA_API_KEY: mock.keys.noPermissions },
      cwd: '.',
    });
    expect(limited.stderr).toMatch(/needs a key that reads all four resources/);
    const proxy = await startDriftingProxy(mock, () => undefined);
    await proxy.close();
    // The retries' backoff passes on the mock's clock, not in real time.
    const gone = await runInProcess(['verify'], {
      env: { ...envFor(mock), COMPANY_DATA_BASE_URL: proxy.baseURL },
      cwd: '.',
      clockOf: mock,
    });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/Cannot reach the server: .*Check COMPANY_DATA_BASE_URL/);
  });
});

describe('company-data verify against a server that drifts in one way', () => {
  it('names the renamed field and its value', async () => {
    const result = await drifting((passing) => {
      if (!passing.path.startsWith('/v1/users/') || passing.status !== 200) return;
      const data = passing.json.data;
      for (const user of Array.isArray(data) ? data : [data]) {
        user.name = user.full_name;
        delete user.full_name;
      }
    });
    expectOnly(result, 'records', {
      operation: 'listUsers',
      field: 'data[0].full_name',
      value: 'missing',
      expected: 'string',
    });
    // The report says "expected" once.
    expect(formatReport(result.report)).toContain('listUsers data[0].full_name: missing, expected string\n');
    expect(failed(result.report).records).toContainEqual(
      expect.objectContaining({ operation: 'retrieveUser', field: 'data.full_name' }),
    );
  });

  it('names a wrong count', async () => {
    const { code, report } = await drifting((passing) => {
      if (passing.path === '/v1/calls/' && passing.status === 200) passing.json.pagination.count += 1;
    });
    expect(code).toBe(1);
    expect(failed(report).pagination).toContainEqual(
      expect.objectContaining({
        operation: 'listCalls',
        field: 'pagination.count',
        value: '241',
        expected: expect.stringMatching(/^240: 9 full pages of 25 and 15 items on the last page 10/),
      }),
    );
    expect(failed(report).filters).toContainEqual(
      expect.objectContaining({ operation: 'listCalls', field: 'pagination.count' }),
    );
  });

  it('names an id that two pages both list', async () => {
    const result = await drifting(async (passing) => {
      const page = Number(passing.query.get('page') ?? 1);
      if (passing.path !== '/v1/calls/' || passing.status !== 200 || page < 2) return;
      const query = new URLSearchParams(passing.query);
      query.set('page', String(page - 1));
      const previous = await passing.upstream(`${passing.path}?${query}`);
      passing.json.data[0] = previous.data.at(-1);
    });
    expectOnly(result, 'pagination', {
      operation: 'listCalls',
      field: 'data[0].id',
      expected: 'each id once across the pages; this one is also on page 1',
    });
  });

  it('names a flat error on a data endpoint', async () => {
    const result = await drifting((passing) => {
      if (passing.status === 404) passing.json = { error: passing.json.error.detail };
    });
    expectOnly(result, 'not-found', {
      operation: 'retrieveCallTranscript',
      field: 'error',
      value: '"Not found."',
    });
    expect(failed(result.report)['not-found']).toHaveLength(6);
  });

  it('names a throttle message in another format', async () => {
    mock.setKeyQuota(mock.keys.valid, { requests: 20, perSeconds: 5 });
    const result = await drifting((passing) => {
      if (passing.status === 429) passing.json.error.detail = 'Too many requests, slow down.';
    });
    expectOnly(result, 'throttle', {
      field: 'error.detail',
      value: '"Too many requests, slow down."',
      expected: '"Request was throttled. Expected available in N seconds."',
    });
  });
});
