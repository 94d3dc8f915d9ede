import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMockServer,
  type MockServer,
  type MockServerOptions,
  UNMATCHED_LIMIT,
  type UnmatchedRequest,
  UnmatchedRequestError,
  VerificationError,
} from '../../../src/index.js';
import { toMockRequest } from '../../support/engine.js';

// The requests the mock cannot match (an unknown path or method, a missing or bad key, an unknown webhook
// token): why each went unmatched, that its answer is the API's as before, and what onUnmatchedRequest
// makes of it. Through server.handle() with a frozen clock.

const AT = '2026-06-01T12:00:00.000Z';
const opened: MockServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of opened.splice(0)) await server.close().catch(() => {});
});

function server(options: MockServerOptions = {}): MockServer {
  const created = createMockServer({ clock: 'frozen', ...options });
  opened.push(created);
  return created;
}

/** Sends a request through the engine; its status, headers and body as written. */
async function send(
  mock: MockServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const result = await mock.handle(toMockRequest(mock, { method, path, headers, body }));
  if (result.drop) throw new Error('dropped');
  return result.response;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const json = { 'content-type': 'application/json' };

describe('mock.unmatched(): why each request went unmatched', () => {
  it('lists unknown paths, methods, missing and bad keys and unknown webhook tokens, with why', async () => {
    const mock = server();
    const { valid, expired, revoked } = mock.keys;
    await send(mock, 'GET', '/v1/user/', bearer(valid));
    await send(mock, 'GET', '/v1/calls/42/transcrpt/', bearer(valid));
    await send(mock, 'GET', '/v1/users', bearer(valid));
    await send(mock, 'DELETE', '/v1/users/', bearer(valid));
    await send(mock, 'GET', '/v1/users/');
    await send(mock, 'GET', '/v1/users/', { authorization: 'Basic dXNlcg==' });
    await send(mock, 'GET', '/v1/users/', bearer('svc_live_unknown'));
    await send(mock, 'GET', '/v1/users/', bearer(revoked));
    await send(mock, 'GET', '/v1/users/', bearer(expired));
    await send(mock, 'POST', '/v1/outbound-campaigns/webhook/not-a-token/', json, '{"email":"a@b.co"}');
    await send(mock, 'POST', `/messaging-agent/webhook/${mock.tokens.deletedLead}/`, json, '{}');
    const at = (request: Omit<UnmatchedRequest, 'at'>): UnmatchedRequest => ({ at: AT, ...request });
    expect(mock.unmatched()).toEqual([
      at({
        method: 'GET',
        path: '/v1/user/',
        status: 404,
        reason: 'unknown_path',
        detail: 'No operation of the API has this path (did you mean /v1/users/?).',
      }),
      at({
        method: 'GET',
        path: '/v1/calls/42/transcrpt/',
        status: 404,
        reason: 'unknown_path',
        detail: 'No operation of the API has this path (did you mean /v1/calls/42/transcript/?).',
      }),
      at({
        method: 'GET',
        path: '/v1/users',
        status: 404,
        reason: 'missing_slash',
        detail: 'No operation of the API has this path: its paths end with a slash (/v1/users/).',
      }),
      at({
        method: 'DELETE',
        path: '/v1/users/',
        status: 405,
        reason: 'method_not_allowed',
        detail: 'This path takes GET, HEAD, not DELETE.',
      }),
      at({
        method: 'GET',
        path: '/v1/users/',
        status: 401,
        reason: 'missing_key',
        detail: 'No API key: the request has no "Authorization: Bearer <key>" header.',
      }),
      at({
        method: 'GET',
        path: '/v1/users/',
        status: 401,
        reason: 'missing_key',
        detail: 'No API key: the request has no "Authorization: Bearer <key>" header.',
      }),
      at({
        method: 'GET',
        path: '/v1/users/',
        status: 401,
        reason: 'invalid_key',
        detail: 'The mock knows no such API key, or it is revoked.',
      }),
      at({
        method: 'GET',
        path: '/v1/users/',
        status: 401,
        reason: 'invalid_key',
        detail: 'The mock knows no such API key, or it is revoked.',
      }),
      at({
        method: 'GET',
        path: '/v1/users/',
        status: 401,
        reason: 'expired_key',
        detail: 'The API key has expired.',
      }),
      at({
        method: 'POST',
        path: '/v1/outbound-campaigns/webhook/not-a-token/',
        status: 404,
        reason: 'unknown_webhook_token',
        detail: 'No audience has this webhook token.',
      }),
      at({
        method: 'POST',
        path: `/messaging-agent/webhook/${mock.tokens.deletedLead}/`,
        status: 404,
        reason: 'unknown_webhook_token',
        detail: 'No live lead source has this webhook token (unknown, or deleted).',
      }),
    ]);
    // They are journaled as before.
    expect(mock.journal()).toHaveLength(11);
  });

  it('leaves out every request the API answered as a matched one: 400, 403, a record 404, 429, admin', async () => {
    const mock = server();
    const { valid, noPermissions, throttled } = mock.keys;
    await send(mock, 'GET', '/v1/users/?page=0', bearer(valid));
    await send(mock, 'GET', '/v1/users/', bearer(noPermissions));
    await send(mock, 'GET', '/v1/users/00000000-0000-4000-8000-000000000000/', bearer(valid));
    for (let sent = 0; sent < 6; sent++) await send(mock, 'GET', '/v1/teams/', bearer(throttled));
    await send(mock, 'POST', `/v1/outbound-campaigns/webhook/${mock.tokens.audience}/`, json, '{}');
    await send(mock, 'GET', '/__admin/nothing-here', bearer(mock.adminToken));
    await send(mock, 'GET', '/openapi.json');
    expect(mock.journal().map((entry) => entry.status)).toEqual([
      400, 403, 404, 200, 200, 200, 200, 200, 429, 400,
    ]);
    expect(mock.unmatched()).toEqual([]);
  });

  it('answers each unmatched request exactly as before, whatever the option', async () => {
    const requests: [string, string, Record<string, string>][] = [
      ['GET', '/v1/user/', {}],
      ['GET', '/v1/users', {}],
      ['PUT', '/v1/users/', {}],
      ['GET', '/v1/users/', {}],
      ['GET', '/v1/users/', bearer('svc_live_unknown')],
      ['POST', '/messaging-agent/webhook/nope/', json],
    ];
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const plain = server();
    const strict = server({ onUnmatchedRequest: 'error' });
    for (const [method, path, headers] of requests)
      expect(await send(strict, method, path, headers, '{}')).toEqual(
        await send(plain, method, path, headers, '{}'),
      );
    expect(strict.unmatched()).toHaveLength(requests.length);
    strict.clearUnmatched();
  });

  it('keeps the newest 1,000 (UNMATCHED_LIMIT); clearUnmatched and reset forget them', async () => {
    expect(UNMATCHED_LIMIT).toBe(1_000);
    const mock = server();
    for (let sent = 0; sent <= 1_000; sent++) await send(mock, 'GET', `/nowhere/${sent}/`);
    const kept = mock.unmatched();
    expect(kept).toHaveLength(1_000);
    expect(kept[0]?.path).toBe('/nowhere/1/');
    mock.clearUnmatched();
    expect(mock.unmatched()).toEqual([]);
    await send(mock, 'GET', '/nowhere/');
    mock.reset();
    expect(mock.unmatched()).toEqual([]);
  });
});

describe('onUnmatchedRequest', () => {
  const line =
    'Unmatched request: GET /v1/user/, answered 404: No operation of the API has this path (did you mean /v1/users/?).';

  it("'ignore' (the default): nothing more, as before", async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const mock = server();
    await send(mock, 'GET', '/v1/user/');
    expect(mock.verify({ path: '/v1/user/' }).ok).toBe(true);
    await expect(mock.close()).resolves.toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it("'warn': a line on stderr, tokens of webhook paths hidden; the test goes on", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const mock = server({ onUnmatchedRequest: 'warn' });
    await send(mock, 'GET', '/v1/user/');
    await send(
      mock,
      'POST',
      '/v1/outbound-campaigns/webhook/0b6f5a3e-0000-4000-8000-000000000000/',
      json,
      '{}',
    );
    expect(warn.mock.calls).toEqual([
      [line],
      [
        'Unmatched request: POST /v1/outbound-campaigns/webhook/{token}/, answered 404: No audience has this webhook token.',
      ],
    ]);
    expect(mock.verify({ path: '/v1/user/' }).ok).toBe(true);
    await expect(mock.close()).resolves.toBeUndefined();
  });

  it("'error': the line, then the next verify throws listing the request, once", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const mock = server({ onUnmatchedRequest: 'error' });
    await send(mock, 'GET', '/v1/teams/', bearer(mock.keys.valid));
    await send(mock, 'GET', '/v1/user/');
    expect(error.mock.calls).toEqual([[line]]);
    let thrown: unknown;
    try {
      mock.verify({ path: '/v1/teams/' }); // the pattern passes: the unmatched request fails it
    } catch (caught) {
      thrown = caught;
    }
    expect(thrown).toBeInstanceOf(VerificationError);
    const { result, message } = thrown as VerificationError;
    expect(result).toMatchObject({ ok: false, matched: true, count: 1 });
    expect(result.unmatched).toEqual([
      {
        at: AT,
        method: 'GET',
        path: '/v1/user/',
        status: 404,
        reason: 'unknown_path',
        detail: 'No operation of the API has this path (did you mean /v1/users/?).',
      },
    ]);
    expect(message).toBe(
      [
        'Received 1 request matching any method /v1/teams/, as expected (at least 1 request).',
        'The mock could not match 1 request:',
        `1. GET /v1/user/, answered 404, at ${AT}: No operation of the API has this path (did you mean /v1/users/?).`,
      ].join('\n'),
    );
    // Reported once: the next verify passes, close resolves; the list itself stays.
    expect(mock.verify({ path: '/v1/teams/' }).ok).toBe(true);
    await expect(mock.close()).resolves.toBeUndefined();
    expect(mock.unmatched()).toHaveLength(1);
  });

  it("'error' with no verify: close closes, then rejects with an UnmatchedRequestError; the next close resolves", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const mock = server({ onUnmatchedRequest: 'error' });
    await send(mock, 'GET', '/v1/user/');
    await send(mock, 'GET', '/v1/users/');
    const closing = await mock.close().catch((caught: unknown) => caught);
    expect(closing).toBeInstanceOf(UnmatchedRequestError);
    expect((closing as UnmatchedRequestError).message).toBe(
      [
        'The mock could not match 2 requests:',
        `1. GET /v1/user/, answered 404, at ${AT}: No operation of the API has this path (did you mean /v1/users/?).`,
        `2. GET /v1/users/, answered 401, at ${AT}: No API key: the request has no "Authorization: Bearer <key>" header.`,
      ].join('\n'),
    );
    expect((closing as UnmatchedRequestError).requests.map((request) => request.reason)).toEqual([
      'unknown_path',
      'missing_key',
    ]);
    await expect(mock.close()).resolves.toBeUndefined();
  });

  it("'error': a bad pattern reports nothing; reset keeps what is to report, clearUnmatched forgets it", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const mock = server({ onUnmatchedRequest: 'error' });
    await send(mock, 'GET', '/v1/user/');
    expect(() => mock.verify({ paht: '/' } as never)).toThrow('Unknown pattern field "paht"');
    expect(() => mock.verify()).toThrow('The mock could not match 1 request:');
    await send(mock, 'GET', '/v1/user/');
    mock.clearUnmatched();
    expect(mock.verify().ok).toBe(true);
    // A reset between tests must not swallow a failure: the list empties, the report waits.
    await send(mock, 'GET', '/v1/users');
    mock.reset();
    expect(mock.unmatched()).toEqual([]);
    const closing = await mock.close().catch((caught: unknown) => caught);
    expect((closing as UnmatchedRequestError).requests.map((request) => request.path)).toEqual(['/v1/users']);
  });

  it('a function: called with each request; what it throws fails the test as error does, as the cause', async () => {
    const seen: UnmatchedRequest[] = [];
    const mock = server({ onUnmatchedRequest: (request) => seen.push(request) });
    await send(mock, 'GET', '/v1/user/');
    expect(seen).toEqual(mock.unmatched());
    expect(mock.verify().ok).toBe(true);
    const refusing = server({
      onUnmatchedRequest: (request) => {
        throw new Error(`no ${request.path}, please`);
      },
    });
    const answer = await send(refusing, 'GET', '/v1/user/');
    expect(answer.status).toBe(404); // the request is answered all the same
    const closing = (await refusing.close().catch((caught: unknown) => caught)) as UnmatchedRequestError;
    expect(closing).toBeInstanceOf(UnmatchedRequestError);
    expect((closing.cause as Error).message).toBe('no /v1/user/, please');
  });

  it('refuses a value it does not know, saying which it takes', () => {
    expect(() => createMockServer({ onUnmatchedRequest: 'eror' as never })).toThrow(
      new RangeError(
        `onUnmatchedRequest must be 'ignore', 'warn', 'error' or a function; received "eror" (did you mean 'error'?)`,
      ),
    );
  });
});
