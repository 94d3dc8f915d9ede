import { describe, expect, it } from 'vitest';
import {
  createMockServer,
  type RequestPattern,
  VerificationError,
  VerifyPatternError,
  type VerifyResult,
} from '../../../src/index.js';
import { useEngine } from '../../support/engine.js';

// mock.verify against the journal, through server.handle() with a frozen clock: which requests a pattern
// matches, the near-miss report (its exact words, for each field that can differ), and the patterns it
// refuses. The same over HTTP, and the vitest matchers, are in their own files beside this one.

const { h, get, post, audiencePath } = useEngine();
const AT = '2026-06-01T12:00:00.000Z';

/** What verify threw, which must be a VerificationError. */
function failure(pattern: RequestPattern): VerificationError {
  try {
    h.server.verify(pattern);
  } catch (error) {
    if (error instanceof VerificationError) return error;
    throw error;
  }
  throw new Error(`verify(${JSON.stringify(pattern)}) passed`);
}

/** What verify threw, which must be a VerifyPatternError: its field and message. */
function refusal(pattern: unknown): { field: string; message: string } {
  try {
    h.server.verify(pattern as RequestPattern);
  } catch (error) {
    if (error instanceof VerifyPatternError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error(`verify(${JSON.stringify(pattern)}) took the pattern`);
}

/** Two requests: a page of calls with the full-access key, and a new audience member. */
async function twoRequests(): Promise<{ webhook: string }> {
  expect((await get('/v1/calls/?page=1')).status).toBe(200);
  const member = { first_name: 'Grace', email: 'grace@example.com', custom_fields: { plan: 'pro' } };
  expect((await post(audiencePath(), member)).status).toBe(201);
  return { webhook: audiencePath() };
}

const CALLS = `GET /v1/calls/?page=1, answered 200, at ${AT}`;
const member = (webhook: string) => `POST ${webhook}, answered 201, at ${AT}`;

describe('mock.verify: what matches', () => {
  it('counts the requests a pattern matches, each field a subset, and returns what it found', async () => {
    const { webhook } = await twoRequests();
    const { server } = h;
    const result: VerifyResult = server.verify({
      method: 'post', // any letter case
      path: '/v1/outbound-campaigns/webhook/{token}/',
      headers: { 'Content-Type': { matches: '^application/json' } }, // names in any case, a subset
      key: null, // a webhook has no key
      body: { first_name: 'Grace', custom_fields: { plan: 'pro' } }, // a deep subset of the body
      times: 1,
    });
    expect(result).toMatchObject({
      ok: true,
      matched: true,
      count: 1,
      times: { atLeast: 1, atMost: 1 },
      nearMisses: [],
      unmatched: [],
      message: `Received 1 request matching POST /v1/outbound-campaigns/webhook/{token}/ with headers {"content-type":{"matches":"^application/json"}}, no key, body {"first_name":"Grace","custom_fields":{"plan":"pro"}}, as expected (exactly 1 request).`,
    });
    expect(result.requests.map((entry) => entry.path)).toEqual([webhook]);
    // The key by its well-known name, its value or its journal name; a query as a subset, numbers as text.
    for (const key of ['valid', server.keys.valid, 'Full access'])
      expect(server.verify({ path: '/v1/calls/', query: { page: 1 }, key }).count).toBe(1);
    expect(server.verify({ path: /^\/v1\/calls\/$/ }).count).toBe(1);
    expect(server.verify().count).toBe(2); // no pattern: any request, at least once
    expect(server.verify({ method: 'DELETE', times: 0 }).count).toBe(0);
    expect(server.verify({ times: { atLeast: 1, atMost: 2 } }).message).toBe(
      'Received 2 requests matching any method any path, as expected (from 1 to 2 requests).',
    );
  });

  it('matches arrays element by element, with their length, and a text body as a string', async () => {
    await post(audiencePath(), { email: 'ada@example.com', custom_fields: { tags: ['a', 'b'] } });
    await post(audiencePath(), 'not json', { 'content-type': 'application/json' });
    const { server } = h;
    expect(server.verify({ body: { custom_fields: { tags: ['a', 'b'] } } }).count).toBe(1);
    expect(server.verify({ body: 'not json' }).count).toBe(1);
    expect(failure({ body: { custom_fields: { tags: ['a'] } } }).result.nearMisses[0]?.differences).toEqual([
      { field: 'body', name: 'custom_fields.tags', expected: ['a'], received: ['a', 'b'] },
    ]);
  });
});

describe('mock.verify: the near-miss report', () => {
  it('a method: the closest requests, fewest differences first, each with how it differs', async () => {
    const { webhook } = await twoRequests();
    const error = failure({ method: 'DELETE', path: '/v1/calls/' });
    expect(error.message).toBe(
      [
        'Expected at least 1 request matching DELETE /v1/calls/, received 0.',
        'Closest requests that did not match, fewest differences first (2 of 2):',
        `1. ${CALLS}`,
        '   - method: expected "DELETE", received "GET"',
        `2. ${member(webhook)}`,
        '   - method: expected "DELETE", received "POST"',
        `   - path: expected "/v1/calls/", received "${webhook}"`,
      ].join('\n'),
    );
    expect(error.result).toMatchObject({
      ok: false,
      matched: false,
      count: 0,
      requests: [],
      pattern: 'DELETE /v1/calls/',
      nearMisses: [
        {
          request: { method: 'GET', path: '/v1/calls/', status: 200 },
          differences: [{ field: 'method', expected: 'DELETE', received: 'GET' }],
        },
        {
          request: { method: 'POST', path: webhook, status: 201 },
          differences: [
            { field: 'method', expected: 'DELETE', received: 'POST' },
            { field: 'path', expected: '/v1/calls/', received: webhook },
          ],
        },
      ],
    });
  });

  it('a path', async () => {
    const { webhook } = await twoRequests();
    expect(failure({ method: 'GET', path: '/v1/calls/{id}/' }).message).toBe(
      [
        'Expected at least 1 request matching GET /v1/calls/{id}/, received 0.',
        'Closest requests that did not match, fewest differences first (2 of 2):',
        `1. ${CALLS}`,
        '   - path: expected "/v1/calls/{id}/", received "/v1/calls/"',
        `2. ${member(webhook)}`,
        '   - method: expected "GET", received "POST"',
        `   - path: expected "/v1/calls/{id}/", received "${webhook}"`,
      ].join('\n'),
    );
  });

  it('a query parameter, with a different value or none', async () => {
    const { webhook } = await twoRequests();
    expect(failure({ path: '/v1/calls/', query: { page: 2, ordering: 'created_at' } }).message).toBe(
      [
        'Expected at least 1 request matching any method /v1/calls/ with query {"page":"2","ordering":"created_at"}, received 0.',
        'Closest requests that did not match, fewest differences first (2 of 2):',
        `1. ${CALLS}`,
        '   - query page: expected "2", received "1"',
        '   - query ordering: expected "created_at", received none',
        `2. ${member(webhook)}`,
        `   - path: expected "/v1/calls/", received "${webhook}"`,
        '   - query page: expected "2", received none',
        '   - query ordering: expected "created_at", received none',
      ].join('\n'),
    );
  });

  it('a header, by a regular expression', async () => {
    const { webhook } = await twoRequests();
    expect(failure({ method: 'POST', headers: { 'Content-Type': /^text\// } }).message).toBe(
      [
        'Expected at least 1 request matching POST any path with headers {"content-type":{"matches":"^text\\\\/"}}, received 0.',
        'Closest requests that did not match, fewest differences first (2 of 2):',
        `1. ${member(webhook)}`,
        '   - header content-type: expected a string matching /^text\\//, received "application/json"',
        `2. ${CALLS}`,
        '   - method: expected "POST", received "GET"',
        '   - header content-type: expected a string matching /^text\\//, received none',
      ].join('\n'),
    );
  });

  it('a key, by its well-known name or none', async () => {
    const { webhook } = await twoRequests();
    expect(failure({ path: '/v1/calls/', key: 'limited' }).message).toBe(
      [
        'Expected at least 1 request matching any method /v1/calls/ with key "limited" ("Users and teams only"), received 0.',
        'Closest requests that did not match, fewest differences first (2 of 2):',
        `1. ${CALLS}`,
        '   - key: expected "Users and teams only", received "Full access"',
        `2. ${member(webhook)}`,
        `   - path: expected "/v1/calls/", received "${webhook}"`,
        '   - key: expected "Users and teams only", received none',
      ].join('\n'),
    );
    expect(failure({ path: '/v1/calls/', key: null }).result.nearMisses[0]?.differences).toEqual([
      { field: 'key', expected: null, received: 'Full access' },
    ]);
    expect(failure({ path: '/v1/calls/', key: null }).message).toContain(
      '   - key: expected none, received "Full access"',
    );
  });

  it('a body, each place that differs, and a body where there is none', async () => {
    const { webhook } = await twoRequests();
    const error = failure({ body: { first_name: 'Ada', custom_fields: { plan: 'pro' }, tags: ['a'] } });
    expect(error.message).toBe(
      [
        'Expected at least 1 request matching any method any path with body {"first_name":"Ada","custom_fields":{"plan":"pro"},"tags":["a"]}, received 0.',
        'Closest requests that did not match, fewest differences first (2 of 2):',
        `1. ${member(webhook)}`,
        '   - body.first_name: expected "Ada", received "Grace"',
        '   - body.tags: expected ["a"], received none',
        `2. ${CALLS}`,
        '   - body: expected {"first_name":"Ada","custom_fields":{"plan":"pro"},"tags":["a"]}, received none',
      ].join('\n'),
    );
    expect(error.result.nearMisses[0]?.differences).toEqual([
      { field: 'body', name: 'first_name', expected: 'Ada', received: 'Grace' },
      { field: 'body', name: 'tags', expected: ['a'] },
    ]);
  });

  it('times: too few, with the requests that matched and the closest others', async () => {
    const { webhook } = await twoRequests();
    expect(failure({ method: 'POST', times: 2 }).message).toBe(
      [
        'Expected exactly 2 requests matching POST any path, received 1.',
        'Requests that matched:',
        `1. ${member(webhook)}`,
        'Closest requests that did not match, fewest differences first (1 of 1):',
        `1. ${CALLS}`,
        '   - method: expected "POST", received "GET"',
      ].join('\n'),
    );
  });

  it('times: too many, with the requests that matched (the first three, and how many more)', async () => {
    for (let page = 1; page <= 5; page++) await get(`/v1/calls/?page=${page}`);
    const error = failure({ path: '/v1/calls/', times: { atMost: 1 } });
    expect(error.message).toBe(
      [
        'Expected at most 1 request matching any method /v1/calls/, received 5.',
        'Requests that matched:',
        `1. GET /v1/calls/?page=1, answered 200, at ${AT}`,
        `2. GET /v1/calls/?page=2, answered 200, at ${AT}`,
        `3. GET /v1/calls/?page=3, answered 200, at ${AT}`,
        '… and 2 more.',
      ].join('\n'),
    );
    expect(error.result).toMatchObject({ count: 5, times: { atLeast: 0, atMost: 1 }, nearMisses: [] });
    expect(error.result.requests).toHaveLength(5);
    expect(failure({ path: '/v1/calls/', times: 0 }).message.split('\n')[0]).toBe(
      'Expected no request matching any method /v1/calls/, received 5.',
    );
  });

  it('an empty journal, and at most three near misses, the newest first among equals', async () => {
    expect(failure({ method: 'GET' }).message).toBe(
      [
        'Expected at least 1 request matching GET any path, received 0.',
        'No request reached the mock: the journal is empty.',
      ].join('\n'),
    );
    for (let page = 1; page <= 5; page++) await get(`/v1/users/?page=${page}`);
    const error = failure({ path: '/v1/teams/' });
    expect(error.result.nearMisses.map((miss) => miss.request.query.page)).toEqual(['5', '4', '3']);
    expect(error.message.split('\n')[1]).toBe(
      'Closest requests that did not match, fewest differences first (3 of 5):',
    );
  });
});

describe('mock.verify: patterns it refuses, saying how to fix them', () => {
  it.each<[string, unknown, string, string]>([
    [
      'not an object',
      'GET /v1/users/',
      '',
      `A request pattern is an object, e.g. { method: 'POST', path: '/v1/users/' }; received a string.`,
    ],
    [
      'an unknown field',
      { paht: '/v1/users/' },
      'paht',
      'Unknown pattern field "paht" (did you mean "path"?): a pattern has method, path, query, headers, key, body, times.',
    ],
    [
      'a method that is no method',
      { method: 'GET /v1/users/' },
      'method',
      'method must be an HTTP method such as "GET" or "POST" (any letter case); received "GET /v1/users/".',
    ],
    [
      'a relative path',
      { path: 'v1/users/' },
      'path',
      `path must begin with "/", as the journal's paths do (e.g. "/v1/calls/", or the template "/v1/calls/{id}/"); received "v1/users/".`,
    ],
    [
      'a path of another type',
      { path: 7 },
      'path',
      'path must be a path (e.g. "/v1/calls/{id}/"), a RegExp or { matches: "<regular expression>" }; received 7.',
    ],
    [
      'a bad regular expression',
      { query: { page: { matches: '(' } } },
      'query.page',
      'query.page.matches is not a regular expression JavaScript can read: Invalid regular expression: /(/: Unterminated group.',
    ],
    [
      'a matcher with more',
      { headers: { accept: { matches: 'json', mode: 'i' } } },
      'headers.accept',
      'headers.accept: a matcher is { matches: "<regular expression>", flags?: "<flags>" }, nothing else; received {"matches":"json","mode":"i"}.',
    ],
    [
      'a query that is no object',
      { query: 'page=2' },
      'query',
      `query must be an object of parameters, e.g. { page: '2' }; received "page=2".`,
    ],
    [
      'the Authorization header',
      { headers: { Authorization: 'Bearer svc_live_x' } },
      'headers.Authorization',
      `headers.Authorization: the journal redacts the Authorization header's value, so a pattern cannot match it; match the key instead, e.g. key: 'valid' (a well-known key's name, a key's value, or its keyName).`,
    ],
    [
      'an unknown key name',
      { key: 'vaild' },
      'key',
      `key: the mock has no key named "vaild" (did you mean "valid"?); give a well-known key's name (as in mock.keys), a key's value, or a key's name as the journal records it (keyName).`,
    ],
    ['an unknown key value', { key: 'svc_live_nope' }, 'key', 'key: the mock has no key with this value.'],
    [
      'a body that is not JSON',
      { body: { when: new Date(0) } },
      'body.when',
      'body.when must be JSON (a string, a finite number, a boolean, null, an array or an object); received a Date.',
    ],
    ['negative times', { times: -1 }, 'times', 'times must be a whole number ≥ 0; received -1.'],
    [
      'a misspelt range',
      { times: { atleast: 1 } },
      'times.atleast',
      'Unknown field "times.atleast" (did you mean "atLeast"?): times must be a whole number ≥ 0 or { atLeast, atMost } (either may be left out), e.g. 1 or { atLeast: 1 }.',
    ],
    [
      'an empty range',
      { times: {} },
      'times',
      'times must be a whole number ≥ 0 or { atLeast, atMost } (either may be left out), e.g. 1 or { atLeast: 1 }; received {}.',
    ],
    [
      'a range no count passes',
      { times: { atLeast: 3, atMost: 1 } },
      'times',
      'times.atLeast (3) is above times.atMost (1): no count can pass.',
    ],
  ])('%s', (_name, pattern, field, message) => {
    expect(refusal(pattern)).toEqual({ field, message });
  });

  it('reads nothing of the journal with journalLimit: 0, and says so', async () => {
    const server = (await import('../../../src/index.js')).createMockServer({ journalLimit: 0 });
    expect(() => server.verify()).toThrow(
      'verify reads the request journal, which journalLimit: 0 turns off: give journalLimit a number above 0 (the default keeps 10,000 requests).',
    );
    await server.close();
  });
});

describe('POST /__admin/verify (through the engine)', () => {
  const admin = (body: unknown) =>
    h.send({
      method: 'POST',
      path: '/__admin/verify',
      headers: { authorization: `Bearer ${h.server.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers 200 with the result, passed or failed, and 400 with how to fix a bad pattern', async () => {
    await get('/v1/calls/?page=1');
    const passed = await admin({ method: 'GET', path: '/v1/calls/', key: 'valid' });
    expect(passed.status).toBe(200);
    expect(passed.json).toMatchObject({ ok: true, matched: true, count: 1, unmatched: [] });
    const failed = await admin({ method: 'POST', path: '/v1/calls/' });
    expect(failed.status).toBe(200);
    expect(failed.json).toMatchObject({
      ok: false,
      matched: false,
      count: 0,
      times: { atLeast: 1 },
      nearMisses: [{ differences: [{ field: 'method', expected: 'POST', received: 'GET' }] }],
      message: [
        'Expected at least 1 request matching POST /v1/calls/, received 0.',
        'Closest requests that did not match, fewest differences first (1 of 1):',
        `1. ${CALLS}`,
        '   - method: expected "POST", received "GET"',
      ].join('\n'),
    });
    expect(failed.json.nearMisses[0].request.headers.authorization).toBe('Bearer [REDACTED]');
    const refused = await admin({ path: { matches: '^/v1/', mode: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      error: {
        detail:
          'path: a matcher is { matches: "<regular expression>", flags?: "<flags>" }, nothing else; received {"matches":"^/v1/","mode":"x"}.',
      },
    });
    // Admin requests are not journaled: verifying does not change what it verifies.
    expect((await admin({})).json.count).toBe(1);
  });
});

describe('mock.verify: a journal that let requests go', () => {
  it('says the oldest requests were not counted, and how to keep them', async () => {
    const server = createMockServer({ clock: 'frozen', journalLimit: 2 });
    const headers = { authorization: `Bearer ${server.keys.valid}` };
    for (const path of ['/v1/users/', '/v1/teams/', '/v1/calls/'])
      await server.handle({ method: 'GET', path, search: '', headers });
    let thrown: unknown;
    try {
      server.verify({ method: 'GET', path: '/v1/users/' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VerificationError);
    const { result } = thrown as VerificationError;
    expect(result.dropped).toBe(1);
    expect(result.message.split('\n').at(-1)).toBe(
      'The journal let go of 1 request, the oldest, to keep the newest 2: it was not counted. Raise journalLimit (--journal-limit) to keep more.',
    );
    // A pattern that passes says nothing of it.
    expect(server.verify({ method: 'GET', path: '/v1/calls/' }).message).not.toMatch(/let go/);
  });
});
