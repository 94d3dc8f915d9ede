import { Readable, Writable } from 'node:stream';
import { errors, request, stream, Headers as UndiciHeaders, fetch as undiciFetch } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../../src/index.js';

describe('in-process dispatcher details', () => {
  let server: MockServer;
  beforeEach(() => {
    server = createMockServer();
  });
  afterEach(() => server.close());

  const audienceURL = () => `${server.baseURL}/outbound-campaigns/webhook/${server.tokens.audience}/`;

  it('reads streaming request bodies', async () => {
    const body = Readable.from([Buffer.from('{"email":'), '"stream@example.com"}']);
    const response = await request(audienceURL(), {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.statusCode).toBe(201);
    expect(((await response.body.json()) as { email: string }).email).toBe('stream@example.com');
  });

  it('stops reading a streaming body past the limit and answers 413', async () => {
    const small = createMockServer({ maxBodyBytes: 10 });
    async function* chunks() {
      for (let i = 0; i < 100; i++) yield Buffer.from('{"email":"x@example.com"}');
    }
    const response = await request(`${small.baseURL}/outbound-campaigns/webhook/${small.tokens.audience}/`, {
      method: 'POST',
      dispatcher: small.dispatcher,
      headers: { 'content-type': 'application/json' },
      body: Readable.from(chunks()),
    });
    expect(response.statusCode).toBe(413);
    await response.body.dump();
  });

  it('works with undici fetch, Blob and array-of-pairs headers', async () => {
    const response = await undiciFetch(audienceURL(), {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: [['content-type', 'application/json']],
      body: new Blob([JSON.stringify({ email: 'fetch@example.com' })]),
    });
    expect(response.status).toBe(201);
    const list = await undiciFetch(`${server.baseURL}/teams/`, {
      dispatcher: server.dispatcher,
      headers: new UndiciHeaders({ authorization: `Bearer ${server.keys.valid}` }),
    });
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(4);
  });

  it('accepts flat header arrays and ArrayBuffer bodies through dispatch', async () => {
    const chunks: Buffer[] = [];
    const status = await new Promise<number>((resolve, reject) => {
      let code = 0;
      server.dispatcher.dispatch(
        {
          origin: server.apiRoot,
          path: `/v1/outbound-campaigns/webhook/${server.tokens.audience}/`,
          method: 'POST',
          headers: ['content-type', 'application/json', 'x-multi', 'a'],
          body: new TextEncoder().encode('{"email":"raw@example.com"}').buffer as unknown as Buffer,
        },
        {
          onRequestStart: () => {},
          onResponseStart: (_controller, statusCode) => {
            code = statusCode;
          },
          onResponseData: (_controller, chunk) => {
            chunks.push(chunk);
          },
          onResponseEnd: () => resolve(code),
          onResponseError: (_controller, error) => reject(error),
        },
      );
    });
    expect(status).toBe(201);
    expect(JSON.parse(Buffer.concat(chunks).toString()).email).toBe('raw@example.com');
  });

  it('streams large responses in pieces, honouring backpressure', async () => {
    const big = 'x'.repeat(300 * 1024);
    server.injectFault({ path: '/v1/teams/', status: 200, body: big });
    let received = 0;
    let pieces = 0;
    await stream(
      `${server.baseURL}/teams/`,
      { dispatcher: server.dispatcher, method: 'GET' },
      () =>
        new Writable({
          highWaterMark: 1024,
          write(chunk: Buffer, _encoding, callback) {
            received += chunk.length;
            pieces++;
            setImmediate(callback);
          },
        }),
    );
    expect(received).toBe(big.length);
    expect(pieces).toBeGreaterThan(1);
  });

  it('keeps a custom field named __proto__ on both webhooks, as an own field (never dropped silently)', async () => {
    const body =
      '{"email":"proto@example.com","phone_number":"+14155550199","custom_fields":{"__proto__":"kept","tier":"gold"}}';
    const post = async (path: string) => {
      const response = await request(`${server.apiRoot}${path}`, {
        method: 'POST',
        dispatcher: server.dispatcher,
        headers: { 'content-type': 'application/json' },
        body,
      });
      return (await response.body.text()) as string;
    };
    const member = await post(`/v1/outbound-campaigns/webhook/${server.tokens.audience}/`);
    expect(member).toContain('"custom_fields":{"__proto__":"kept","tier":"gold"}');
    const stored = server.members(server.tokens.audience).at(-1)?.custom_fields as Record<string, unknown>;
    expect(Object.keys(stored)).toEqual(['__proto__', 'tier']);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    await post(`/messaging-agent/webhook/${server.tokens.lead}/`);
    expect(JSON.stringify(server.leads().at(-1))).toContain('"__proto__":"kept"');
  });

  it('aborts an already aborted request at once', async () => {
    await expect(
      request(`${server.baseURL}/teams/`, { dispatcher: server.dispatcher, signal: AbortSignal.abort() }),
    ).rejects.toThrow();
  });

  it('refuses other origins', async () => {
    await expect(
      request('http://elsewhere.example/v1/teams/', { dispatcher: server.dispatcher }),
    ).rejects.toThrow(/only answers http:\/\/company-data\.mock/);
  });

  it('refuses body types it cannot read', async () => {
    const outcome = await new Promise<unknown>((resolve) => {
      server.dispatcher.dispatch(
        { origin: server.apiRoot, path: '/v1/teams/', method: 'POST', body: 42 as unknown as string },
        {
          onRequestStart: () => {},
          onResponseError: (_controller, error) => resolve(error),
          onResponseEnd: () => resolve('ended'),
        },
      );
    });
    expect(outcome).toBeInstanceOf(errors.InvalidArgumentError);
  });

  it('uses a custom origin and can be closed twice', async () => {
    const custom = createMockServer({ origin: 'https://api.test.example:8443/' });
    expect(custom.baseURL).toBe('https://api.test.example:8443/v1');
    const response = await request(`${custom.baseURL}/teams/`, {
      dispatcher: custom.dispatcher,
      headers: { authorization: `Bearer ${custom.keys.valid}` },
    });
    expect(response.statusCode).toBe(200);
    await response.body.dump();
    await custom.close();
    await custom.close();
    expect(() => createMockServer({ origin: 'ftp://x' })).toThrow(RangeError);
  });
});
