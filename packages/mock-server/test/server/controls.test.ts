import { Readable } from 'node:stream';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createMockServer, startMockServer } from '../../src/index.js';

describe('controls', () => {
  it('validates keys, throttles and lead failures', () => {
    const server = createMockServer();
    expect(() => server.createKey({ value: server.keys.valid })).toThrow(/already exists/);
    expect(() => server.createKey({ value: 'has space' })).toThrow(/no spaces/);
    expect(() => server.createKey({ company: 'Nobody Inc' })).toThrow(/Unknown company/);
    expect(server.createKey({ company: 'Globex Contact Center' })).toMatch(/^svc_live_/);
    expect(() => server.revokeKey('svc_live_unknown')).toThrow(/Unknown API key/);
    expect(() => server.setQuota({ requests: 0, perSeconds: 1 })).toThrow(RangeError);
    expect(() => server.setQuota({ requests: 1, perSeconds: 0 })).toThrow(RangeError);
    expect(() => server.injectLeadFailure(0)).toThrow(RangeError);
    expect(() => server.members('nope')).toThrow(/No audience/);
  });

  it('keeps the most recent journal entries up to the limit, or none', async () => {
    const limited = createMockServer({ journalLimit: 3, quota: false });
    for (let page = 1; page <= 5; page++) {
      const response = await request(`${limited.baseURL}/teams/?page=${page}`, {
        dispatcher: limited.dispatcher,
      });
      await response.body.dump();
    }
    expect(limited.journal().map((entry) => entry.query.page)).toEqual(['3', '4', '5']);
    const silent = createMockServer({ journalLimit: 0 });
    await (await request(`${silent.baseURL}/teams/`, { dispatcher: silent.dispatcher })).body.dump();
    expect(silent.journal()).toEqual([]);
  });
});

describe('listener details', () => {
  it('binds any interface and reports a loopback address', async () => {
    const server = await startMockServer({ host: '0.0.0.0' });
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    await server.close();
    await server.close();
  });

  it('answers a chunked body above the limit with 413', async () => {
    const server = await startMockServer({ maxBodyBytes: 16 });
    async function* chunks() {
      for (let i = 0; i < 20; i++) yield Buffer.from('{"email":"a@b.co"}');
    }
    const response = await request(
      `${server.baseURL}/outbound-campaigns/webhook/${server.tokens.audience}/`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Readable.from(chunks()),
      },
    );
    expect(response.statusCode).toBe(413);
    await response.body.dump();
    await server.close();
  });

  it('fails to start on a port in use', async () => {
    const first = await startMockServer();
    const port = Number(new URL(first.apiRoot).port);
    // The CLI's message, naming the option to change.
    const error = await startMockServer({ port }).then(undefined, (caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'EADDRINUSE',
      message: `port ${port} on 127.0.0.1 is already in use (another company-data-mock?). Stop that process, or choose another port: { port: <n> }, or { port: 0 } for any free one.`,
    });
    await first.close();
  });
});
