import {
  API_KEY_PREFIX,
  AudienceMemberInput,
  ERROR_DETAILS,
  endpointList,
  fillPath,
  LeadInput,
  rootPath,
} from '@company-data/contract';
import { describe, expect, it } from 'vitest';
import { parseFixture } from '../src/data/fixture/validate.js';
import { JOURNAL_LIMIT_FLAG_RULE, JOURNAL_LIMIT_RULE } from '../src/data/journal/limits.js';
import { quotaProblem } from '../src/data/store/quota.js';
import { parseMockCliArgs } from '../src/entries/cli/args.js';
import { createMockServer, LIVE_KEY_PREFIX, type MockServer, redactTokens } from '../src/index.js';
import { DEFAULT_FAULT_MIX, faultMixText, parseFaultMix } from '../src/serve/engine/faults.js';
import { MISSING_SLASH_HINT } from '../src/serve/http/responses.js';
import { MAX_SIZE, SIZE_RULE } from '../src/server/options.js';

// Each rule has one home; these tests make a second, disagreeing copy fail. They call the engine through
// `server.handle` (no socket) on a frozen clock.

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

async function send(
  server: MockServer,
  method: string,
  path: string,
  options: { body?: unknown; authorization?: string } = {},
) {
  const result = await server.handle({
    method,
    path,
    search: '',
    headers: {
      ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body)),
  });
  if (result.drop) throw new Error('dropped');
  const { status, headers, body } = result.response;
  return { status, headers, json: (body === '' ? undefined : JSON.parse(body)) as Loose };
}

const admin = (server: MockServer, method: string, path: string, body?: unknown) =>
  send(server, method, `/__admin/${path}`, { body, authorization: `Bearer ${server.adminToken}` });

describe('the journal rules have one home', () => {
  it('the option and the flag refuse a bad bound with the rule, in their own words for keeping all', () => {
    expect(() => createMockServer({ journalLimit: -5 })).toThrow(
      `journalLimit must be ${JOURNAL_LIMIT_RULE}, got -5`,
    );
    expect(() => parseMockCliArgs(['--journal-limit=-5'])).toThrow(
      `--journal-limit expects ${JOURNAL_LIMIT_FLAG_RULE}, got "-5"`,
    );
    // The two say the same but for how to keep every entry.
    expect(JOURNAL_LIMIT_FLAG_RULE).toBe(JOURNAL_LIMIT_RULE.replace('Infinity', 'all'));
  });

  it('in code and over the admin API, a bad since says the same', async () => {
    const server = createMockServer({ clock: 'frozen' });
    let thrown = '';
    try {
      server.journal({ since: -1 });
    } catch (error) {
      thrown = (error as Error).message;
    }
    expect(thrown).toMatch(/^since must be a whole number from 0: .*, got -1$/);
    const answered = await send(server, 'GET', '/__admin/journal', {
      authorization: `Bearer ${server.adminToken}`,
    });
    expect(answered.status).toBe(200);
    const refused = await server.handle({
      method: 'GET',
      path: '/__admin/changes',
      search: 'since=-1',
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    if (refused.drop) throw new Error('dropped');
    expect(JSON.parse(refused.response.body).error.detail).toBe(thrown.replace('got -1', 'got "-1"'));
  });
});

const badQuotas = [
  [{ requests: 0, perSeconds: 60 }, '0/60'],
  [{ requests: 2, perSeconds: 0 }, '2/0'],
] as const;

describe('the quota rule has one home', () => {
  it.each(badQuotas)(
    'the admin API, the CLI, the fixture and setQuota refuse %j with its message',
    async (quota, flag) => {
      const problem = quotaProblem(quota)?.text as string;
      expect(problem).toMatch(/^(requests|perSeconds) must be/);
      const server = createMockServer({ clock: 'frozen' });
      const answered = await admin(server, 'POST', 'quota', quota);
      expect(answered.status).toBe(400);
      expect(answered.json.error.detail.replace(': ', ' ')).toBe(problem);
      expect(() => parseMockCliArgs(['--throttle', flag])).toThrow(problem);
      expect(() => server.setQuota(quota)).toThrow(`quota.${problem}`);
      const field = problem.startsWith('requests') ? 'requests' : 'per_seconds';
      const fixture = {
        companies: [
          {
            name: 'Acme',
            keys: [
              { value: 'svc_live_x', quota: { requests: quota.requests, per_seconds: quota.perSeconds } },
            ],
          },
        ],
      };
      expect(() => parseFixture(fixture)).toThrow(
        `quota.${field}: ${problem.slice(problem.indexOf(' ') + 1)}`,
      );
    },
  );
});

describe('the size rule has one home', () => {
  it.each([-1, MAX_SIZE + 1])(
    'the sizes option, reseed, the admin API and the CLI refuse calls: %d with one rule',
    async (calls) => {
      expect(() => createMockServer({ sizes: { calls } })).toThrow(`sizes.calls must be ${SIZE_RULE}`);
      const server = createMockServer({ clock: 'frozen' });
      expect(() => server.reseed({ sizes: { calls } })).toThrow(`sizes.calls must be ${SIZE_RULE}`);
      const answered = await admin(server, 'POST', 'seed', { sizes: { calls } });
      expect([answered.status, answered.json.error.detail]).toEqual([
        400,
        `sizes.calls: must be ${SIZE_RULE}`,
      ]);
      expect(() => parseMockCliArgs([`--calls=${calls}`])).toThrow(
        `--calls expects ${SIZE_RULE}, got "${calls}"`,
      );
    },
  );

  it('accepts the largest size everywhere (the sizes are read lazily, so it costs nothing)', () => {
    expect(parseMockCliArgs(['--calls', String(MAX_SIZE)]).options.sizes).toEqual({ calls: MAX_SIZE });
  });
});

describe('fault specs have one schema', () => {
  it('the admin API and injectFault refuse the same bad status with the same words', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const answered = await admin(server, 'POST', 'faults', { status: 42 });
    expect(answered.status).toBe(400);
    expect(() => server.injectFault({ status: 42 })).toThrow(
      `fault.${answered.json.error.detail.replace(': ', ' ')}`,
    );
  });

  it('the admin API, setLatency and --latency refuse the same bad latency with the same words', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const answered = await admin(server, 'POST', 'latency', { minMs: 80, maxMs: 10 });
    expect(answered.status).toBe(400);
    const words = answered.json.error.detail as string;
    expect(words).toBe('minMs must not exceed maxMs');
    expect(() => server.setLatency({ minMs: 80, maxMs: 10 })).toThrow(`latency: ${words}`);
    expect(() => parseMockCliArgs(['--latency', '80..10'])).toThrow(words);
  });

  it('the admin API, setActivity, the option and --activity refuse the same bad activity with the same words', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const answered = await admin(server, 'POST', 'activity', { callsPerMinute: 70_000 });
    expect(answered.status).toBe(400);
    const words = answered.json.error.detail as string;
    expect(words).toBe(
      'activity: callsPerMinute must be a number from 0 to 60000 (1000 a second); 0 turns it off',
    );
    expect(() => server.setActivity({ callsPerMinute: 70_000 })).toThrow(words);
    expect(() => createMockServer({ activity: { callsPerMinute: 70_000 } })).toThrow(words);
    expect(() => parseMockCliArgs(['--activity', 'calls=70000/m'])).toThrow(words.replace('activity: ', ''));
  });

  it('the help text’s default mix is DEFAULT_FAULT_MIX, written in the words --fault-mix reads', () => {
    expect(parseFaultMix(faultMixText(DEFAULT_FAULT_MIX))).toEqual(DEFAULT_FAULT_MIX);
  });
});

describe('error bodies and texts have one builder', () => {
  it('answers every 405 (API, admin API, OpenAPI document) with one text and an Allow header', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const answers = [
      await send(server, 'DELETE', '/v1/users/', { authorization: `Bearer ${server.keys.valid}` }),
      await admin(server, 'PUT', 'clock'),
      await send(server, 'POST', '/openapi.json'),
    ];
    expect(answers.map(({ status, json }) => [status, json.error.detail])).toEqual([
      [405, 'Method "DELETE" not allowed.'],
      [405, 'Method "PUT" not allowed.'],
      [405, 'Method "POST" not allowed.'],
    ]);
    // The admin API's routes are rows of the API's router: a GET route answers HEAD there too.
    expect(answers.map(({ headers }) => headers.allow)).toEqual(['GET, HEAD', 'GET, HEAD', 'GET']);
    expect((await admin(server, 'HEAD', 'clock')).status).toBe(200);
  });

  it('hints at the missing slash with its one constant', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const answered = await send(server, 'GET', '/v1/users', { authorization: `Bearer ${server.keys.valid}` });
    expect(answered.status).toBe(404);
    expect(answered.headers[MISSING_SLASH_HINT.header]).toBe(MISSING_SLASH_HINT.text);
  });

  it('takes the webhooks’ and the fixture’s messages from ERROR_DETAILS', () => {
    expect(AudienceMemberInput.safeParse({ first_name: 'Ada' }).error?.issues[0]?.message).toBe(
      ERROR_DETAILS.audienceContactRequired,
    );
    expect(LeadInput.safeParse({}).error?.issues[0]?.message).toBe(ERROR_DETAILS.leadPhoneRequired);
    expect(() =>
      parseFixture({
        companies: [
          {
            name: 'Acme',
            audiences: [{ name: 'A', token: 'e0000000-0000-4000-8000-000000000001', members: [{}] }],
          },
        ],
      }),
    ).toThrow(ERROR_DETAILS.audienceContactRequired);
  });
});

describe('bearer parsing and path decoding agree everywhere', () => {
  it('accepts a lower-case bearer scheme on data endpoints and on the admin API alike', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const data = await send(server, 'GET', '/v1/teams/', { authorization: `bearer ${server.keys.valid}` });
    const control = await send(server, 'GET', '/__admin/clock', {
      authorization: `bearer ${server.adminToken}`,
    });
    expect([data.status, control.status]).toEqual([200, 200]);
    const refused = await send(server, 'GET', '/__admin/clock', { authorization: server.adminToken });
    expect(refused.status).toBe(401);
  });

  it('answers a malformed escape in an admin path as it answers an unknown token, without throwing', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const malformed = await admin(server, 'GET', 'audiences/%E0%A4%A/members');
    const unknown = await admin(server, 'GET', 'audiences/e0000000-0000-4000-8000-00000000ffff/members');
    expect(malformed).toEqual(unknown);
    expect(malformed.status).toBe(400);
  });
});

describe('names and patterns come from the contract', () => {
  it('generates keys with the contract’s prefix', () => {
    // The deprecated second name of the prefix (kept for one minor release) is the contract's value.
    expect(LIVE_KEY_PREFIX).toBe(API_KEY_PREFIX);
    expect(createMockServer().createKey().startsWith(API_KEY_PREFIX)).toBe(true);
  });

  it('redacts the token of every path-token row of the endpoint table', () => {
    const rows = endpointList.filter((endpoint) => endpoint.auth === 'pathToken');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const path = fillPath(rootPath(row), { webhook_token: 'secret-token' });
      expect(redactTokens(path)).not.toContain('secret-token');
      expect(redactTokens(path)).toContain('/{token}/');
    }
  });
});
