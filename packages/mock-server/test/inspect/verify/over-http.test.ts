import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer, VerificationError } from '../../../src/index.js';
import { type CliProcess, startCli } from '../../support/cli-process.js';

// Verification and unmatched requests over a real loopback socket: a listener in this process
// (startMockServer, reached with fetch), and the company-data-mock command in a child process, driven
// through its admin API as a harness in any language drives it.

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely.
type Loose = any;

const AT = '2026-06-01T12:00:00.000Z';
const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function api(root: string, method: string, path: string, key?: string): Promise<number> {
  const response = await request(`${root}${path}`, {
    method: method as 'GET',
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  });
  await response.body.dump();
  return response.statusCode;
}

async function admin(cli: CliProcess, method: string, path: string, body?: unknown) {
  const response = await request(`${cli.summary.adminURL}${path}`, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${cli.summary.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, json: (await response.body.json()) as Loose };
}

describe('a listener on loopback (startMockServer)', () => {
  it('verifies what came over the socket, near misses and unmatched requests included', async () => {
    const mock: MockServer = await startMockServer({ port: 0, clock: 'frozen' });
    stops.push(() => mock.close());
    expect(await api(mock.apiRoot, 'GET', '/v1/teams/?page_size=2', mock.keys.valid)).toBe(200);
    expect(await api(mock.apiRoot, 'GET', '/v1/team/', mock.keys.valid)).toBe(404);
    expect(
      mock.verify({ method: 'GET', path: '/v1/teams/', query: { page_size: '2' }, key: 'valid' }).count,
    ).toBe(1);
    const error = (() => {
      try {
        mock.verify({ path: '/v1/teams/', query: { page_size: '5' } });
      } catch (caught) {
        return caught as VerificationError;
      }
    })();
    expect(error).toBeInstanceOf(VerificationError);
    expect(error?.message).toBe(
      [
        'Expected at least 1 request matching any method /v1/teams/ with query {"page_size":"5"}, received 0.',
        'Closest requests that did not match, fewest differences first (2 of 2):',
        `1. GET /v1/teams/?page_size=2, answered 200, at ${AT}`,
        '   - query page_size: expected "5", received "2"',
        `2. GET /v1/team/, answered 404, at ${AT}`,
        '   - path: expected "/v1/teams/", received "/v1/team/"',
        '   - query page_size: expected "5", received none',
      ].join('\n'),
    );
    expect(mock.unmatched()).toEqual([
      {
        at: AT,
        method: 'GET',
        path: '/v1/team/',
        status: 404,
        reason: 'unknown_path',
        detail: 'No operation of the API has this path (did you mean /v1/teams/?).',
      },
    ]);
    // The admin API over the socket answers the same.
    const response = await fetch(`${mock.apiRoot}/__admin/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/v1/teams/', query: { page_size: '5' } }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Loose).message).toBe(error?.message);
  });
});

describe('company-data-mock --on-unmatched (a child process, its admin API)', () => {
  it('error: logs each unmatched request; /__admin/verify reports it once, /__admin/unmatched lists it', async () => {
    const cli = await startCli(['--freeze', '--on-unmatched=error']);
    stops.push(() => cli.stop());
    const { apiRoot, keys } = cli.summary;
    expect(await api(apiRoot, 'GET', '/v1/calls/?page=1', keys.valid)).toBe(200);
    expect(await api(apiRoot, 'GET', '/v1/user/', keys.valid)).toBe(404);
    const line =
      'company-data-mock: Unmatched request: GET /v1/user/, answered 404: No operation of the API has this path (did you mean /v1/users/?).';
    await cli.stderrUntil((lines) => lines.includes(line));

    const unmatched = {
      at: AT,
      method: 'GET',
      path: '/v1/user/',
      status: 404,
      reason: 'unknown_path',
      detail: 'No operation of the API has this path (did you mean /v1/users/?).',
    };
    expect(await admin(cli, 'GET', 'unmatched')).toEqual({ status: 200, json: { data: [unmatched] } });

    const first = await admin(cli, 'POST', 'verify', { method: 'GET', path: '/v1/calls/', key: 'valid' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ ok: false, matched: true, count: 1, unmatched: [unmatched] });
    expect(first.json.message).toBe(
      [
        'Received 1 request matching GET /v1/calls/ with key "valid" ("Full access"), as expected (at least 1 request).',
        'The mock could not match 1 request:',
        `1. GET /v1/user/, answered 404, at ${AT}: No operation of the API has this path (did you mean /v1/users/?).`,
      ].join('\n'),
    );
    const second = await admin(cli, 'POST', 'verify', { method: 'GET', path: '/v1/calls/' });
    expect(second.json).toMatchObject({ ok: true, matched: true, unmatched: [] });

    const missed = await admin(cli, 'POST', 'verify', { method: 'POST', path: '/v1/calls/', times: 1 });
    expect(missed.status).toBe(200);
    expect(missed.json).toMatchObject({
      ok: false,
      matched: false,
      count: 0,
      times: { atLeast: 1, atMost: 1 },
      nearMisses: [
        {
          request: { method: 'GET', path: '/v1/calls/', query: { page: '1' }, keyName: 'Full access' },
          differences: [{ field: 'method', expected: 'POST', received: 'GET' }],
        },
        { request: { path: '/v1/user/' } },
      ],
    });
    expect(missed.json.message.split('\n').slice(0, 4)).toEqual([
      'Expected exactly 1 request matching POST /v1/calls/, received 0.',
      'Closest requests that did not match, fewest differences first (2 of 2):',
      `1. GET /v1/calls/?page=1, answered 200, at ${AT}`,
      '   - method: expected "POST", received "GET"',
    ]);

    expect(await admin(cli, 'POST', 'verify', { path: '/v1/calls/', times: { atleast: 1 } })).toEqual({
      status: 400,
      json: {
        error: {
          detail:
            'Unknown field "times.atleast" (did you mean "atLeast"?): times must be a whole number ≥ 0 or { atLeast, atMost } (either may be left out), e.g. 1 or { atLeast: 1 }.',
        },
      },
    });
    expect(await admin(cli, 'DELETE', 'unmatched')).toEqual({ status: 200, json: { ok: true } });
    expect(await admin(cli, 'GET', 'unmatched')).toEqual({ status: 200, json: { data: [] } });
    expect(await cli.stop()).toBe(0);
  });

  it('error: stopping with an unmatched request nothing reported exits 1, naming it', async () => {
    const cli = await startCli(['--freeze', '--on-unmatched', 'error']);
    stops.push(() => cli.stop());
    expect(await api(cli.summary.apiRoot, 'GET', '/v1/users/')).toBe(401);
    await cli.stderrUntil((lines) =>
      lines.some((line) => line.includes('Unmatched request: GET /v1/users/')),
    );
    expect(await cli.stop()).toBe(1);
    expect(cli.stderr).toContain('company-data-mock: The mock could not match 1 request:');
    expect(cli.stderr).toContain(
      `1. GET /v1/users/, answered 401, at ${AT}: No API key: the request has no "Authorization: Bearer <key>" header.`,
    );
  });

  it('warn logs the line, ignore (the default) only lists; neither fails verify or the exit', async () => {
    const warn = await startCli(['--on-unmatched=warn']);
    const quiet = await startCli([]);
    stops.push(
      () => warn.stop(),
      () => quiet.stop(),
    );
    for (const cli of [warn, quiet]) {
      const token = '0b6f5a3e-0000-4000-8000-000000000000';
      expect(await api(cli.summary.apiRoot, 'POST', `/messaging-agent/webhook/${token}/`)).toBe(404);
      expect((await admin(cli, 'POST', 'verify', {})).json.ok).toBe(true);
      expect((await admin(cli, 'GET', 'unmatched')).json.data).toHaveLength(1);
    }
    await warn.stderrUntil((lines) =>
      lines.includes(
        'company-data-mock: Unmatched request: POST /messaging-agent/webhook/{token}/, answered 404: No live lead source has this webhook token (unknown, or deleted).',
      ),
    );
    expect(await warn.stop()).toBe(0);
    expect(await quiet.stop()).toBe(0);
    expect(quiet.stderr.filter((line) => line.includes('Unmatched'))).toEqual([]);
  });
});
