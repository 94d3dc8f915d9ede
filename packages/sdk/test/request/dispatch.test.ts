import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchRequest, requestTarget } from '../../src/request/dispatch.js';
import { until } from '../support/turns.js';

// The dispatch's own byte handling, over a real loopback socket: what the mock cannot be asked to do (a
// byte order mark, a body held back mid-way). The SDK's behaviour over this path is tested against the mock.

describe('requestTarget', () => {
  // Every printable ASCII character, and a few beyond, in paths and queries: the split must be the parser's.
  const piece = fc.string({
    unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@AZ[\\]^_`az{|}~é€'.split('')),
    maxLength: 12,
  });

  it('splits a URL into the origin and path that `new URL()` gives', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'http://127.0.0.1:4010',
          'https://api.example.com',
          'http://[::1]:8080',
          'HTTP://Example.COM:80',
        ),
        piece,
        piece,
        (origin, path, query) => {
          const url = `${origin}/v1/${path}?${query}`;
          // Twice: the first call may learn the origin, the second splits by it.
          for (let time = 0; time < 2; time++) {
            const parsed = new URL(url);
            expect(requestTarget(url)).toEqual({
              origin: parsed.origin,
              path: `${parsed.pathname}${parsed.search}`,
            });
          }
        },
      ),
    );
  });
});

describe('dispatchRequest', () => {
  let server: Server;
  let origin: string;
  let held: (() => void) | undefined;
  const agent = new Agent();

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/bom') {
        response.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"ok":true}')]));
      } else {
        // Half the body, then nothing until the test lets it go.
        response.writeHead(200, { 'content-length': '4' });
        response.write('{"a"');
        held = () => response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    held?.();
    await agent.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a body as undici’s text() does: a UTF-8 byte order mark is not part of it', async () => {
    const response = await dispatchRequest(
      agent,
      { url: `${origin}/bom`, method: 'GET', headers: {} },
      new AbortController().signal,
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ ok: true });
  });

  it('ends with the abort reason when aborted mid-body, and at once when aborted before', async () => {
    const controller = new AbortController();
    const pending = dispatchRequest(
      agent,
      { url: `${origin}/held`, method: 'GET', headers: {} },
      controller.signal,
    );
    await until(() => held !== undefined);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(
      dispatchRequest(agent, { url: `${origin}/held`, method: 'GET', headers: {} }, controller.signal),
    ).rejects.toBe(reason);
  });
});
