import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockServer, type MockServer } from '../../src/index.js';

// The quota's old names ({ limit, windowSeconds }, `throttle`, setThrottle, setKeyThrottle, the admin API's
// POST throttle and keys/throttle, a fixture key's `throttle`) still work until the next minor release,
// each warning once per process with its new name.

async function status(server: MockServer, key: string, path = '/v1/teams/'): Promise<number> {
  const result = await server.handle({
    method: 'GET',
    path,
    search: '',
    headers: { authorization: `Bearer ${key}` },
  });
  return result.drop ? 0 : result.response.status;
}

async function admin(server: MockServer, path: string, body: unknown): Promise<number> {
  const result = await server.handle({
    method: 'POST',
    path: `/__admin/${path}`,
    search: '',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify(body)),
  });
  return result.drop ? 0 : result.response.status;
}

/** The deprecation warnings emitted while `run` runs, as their texts. */
async function warningsOf(run: () => unknown): Promise<string[]> {
  const emitted: string[] = [];
  const spy = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => {
    emitted.push(String(warning));
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return emitted;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the quota’s old names', () => {
  it('accepts the option throttle with { limit, windowSeconds }, warning once with the new names', async () => {
    let server: MockServer | undefined;
    const warnings = await warningsOf(() => {
      server = createMockServer({ clock: 'frozen', throttle: { limit: 1, windowSeconds: 60 } });
      createMockServer({ clock: 'frozen', throttle: { limit: 1, windowSeconds: 60 } });
    });
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toMatch(/the option throttle is deprecated; use quota/);
    expect(warnings.join('\n')).toMatch(
      /\{ limit, windowSeconds \}.* is deprecated; use \{ requests, perSeconds \}/,
    );
    const mock = server as MockServer;
    expect(await status(mock, mock.keys.valid)).toBe(200);
    expect(await status(mock, mock.keys.valid)).toBe(429);
  });

  it('keeps setThrottle, setKeyThrottle and createKey({ throttle }) working, each warning once', async () => {
    const server = createMockServer({ clock: 'frozen' });
    let own = '';
    const warnings = await warningsOf(() => {
      server.setThrottle({ requests: 1, perSeconds: 60 });
      server.setThrottle({ requests: 1, perSeconds: 60 });
      server.setKeyThrottle(server.keys.limited, false);
      own = server.createKey({ throttle: { requests: 2, perSeconds: 60 } });
    });
    expect(warnings.map((text) => /: (.*) is deprecated; use (\S+)/.exec(text)?.slice(1))).toEqual([
      ['setThrottle', 'setQuota'],
      ['setKeyThrottle', 'setKeyQuota'],
      ["createKey's option throttle", 'quota'],
    ]);
    expect(await status(server, server.keys.valid)).toBe(200);
    expect(await status(server, server.keys.valid)).toBe(429);
    expect(await status(server, server.keys.limited)).toBe(200);
    expect(await status(server, server.keys.limited)).toBe(200);
    expect(await status(server, own)).toBe(200);
    expect(await status(server, own)).toBe(200);
    expect(await status(server, own)).toBe(429);
    expect(server.apiKeys().find((key) => key.name === 'API key')).toMatchObject({
      quota: { requests: 2, perSeconds: 60 },
      throttle: { limit: 2, windowSeconds: 60 },
    });
  });

  it('keeps the admin API’s POST throttle and keys/throttle, old bodies included', async () => {
    const server = createMockServer({ clock: 'frozen' });
    const warnings = await warningsOf(async () => {
      expect(await admin(server, 'throttle', { limit: 1, windowSeconds: 60 })).toBe(200);
      expect(
        await admin(server, 'keys/throttle', {
          value: server.keys.limited,
          throttle: { limit: 3, windowSeconds: 9 },
        }),
      ).toBe(200);
    });
    expect(warnings.join('\n')).toMatch(/POST \/__admin\/throttle is deprecated; use POST \/__admin\/quota/);
    expect(warnings.join('\n')).toMatch(
      /POST \/__admin\/keys\/throttle is deprecated; use POST \/__admin\/keys\/quota/,
    );
    expect(await status(server, server.keys.valid)).toBe(200);
    expect(await status(server, server.keys.valid)).toBe(429);
    for (let i = 0; i < 3; i++) expect(await status(server, server.keys.limited)).toBe(200);
    expect(await status(server, server.keys.limited)).toBe(429);
  });

  it('reads a fixture key’s throttle: { limit, window_seconds }', async () => {
    let server: MockServer | undefined;
    const warnings = await warningsOf(() => {
      server = createMockServer({
        clock: 'frozen',
        fixture: {
          companies: [
            { name: 'Acme', keys: [{ value: 'svc_live_old', throttle: { limit: 1, window_seconds: 30 } }] },
          ],
        },
      });
    });
    expect(warnings.join('\n')).toMatch(
      /throttle: \{ limit, window_seconds \} is deprecated; use quota: \{ requests, per_seconds \}/,
    );
    const mock = server as MockServer;
    expect(mock.apiKeys().find((key) => key.prefix.startsWith('svc_live_old'))?.quota).toEqual({
      requests: 1,
      perSeconds: 30,
    });
    expect(await status(mock, 'svc_live_old', '/v1/users/')).toBe(200);
    expect(await status(mock, 'svc_live_old', '/v1/users/')).toBe(429);
  });
});
