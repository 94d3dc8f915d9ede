import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createMockServer,
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from '../../../src/index.js';

/**
 * The listener writes cached pages from a precomputed wire form and hands node's own header object to the
 * engine. These tests hold it to the bytes the straightforward adapter writes: a node:http server that
 * reads the request, asks `handle()` and writes `writeHead(status, { ...headers, 'content-length' })` and
 * `end(Buffer.from(body))`, as the listener did before.
 */

const OPTIONS: MockServerOptions = {
  seed: 7,
  clock: 'frozen',
  quota: false,
  maxBodyBytes: 512,
  adminToken: 'admin-token-for-both',
};

function straightforward(mock: MockServer): Promise<Server> {
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers))
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const size = chunks.reduce((n, chunk) => n + chunk.length, 0);
    const hasBody =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    const result = await mock.handle({
      method: req.method ?? 'GET',
      path: mark < 0 ? url : url.slice(0, mark),
      search: mark < 0 ? '' : url.slice(mark + 1),
      headers,
      body: hasBody && size > 0 && size <= mock.maxBodyBytes ? Buffer.concat(chunks) : undefined,
      bodyTooLarge: size > mock.maxBodyBytes,
    });
    if (result.drop) {
      req.socket.destroy();
      return;
    }
    const bytes = Buffer.from(result.response.body);
    res.writeHead(result.response.status, { ...result.response.headers, 'content-length': bytes.length });
    res.end(bytes);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Sends raw request bytes on a fresh connection and reads the whole answer (the request says `Connection: close`). */
function exchange(port: number, head: string, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer in 5 s')));
    socket.end(`${head}\r\nconnection: close\r\n\r\n${body}`);
  });
}

/** The answer without its `Date` line, the one header that depends on when it was sent. */
const undated = (raw: string) => raw.replace(/\r\nDate: [^\r]*/, '');

describe('the listener writes the same bytes as the straightforward adapter', () => {
  let own: MockServer;
  let twin: MockServer;
  let reference: Server;
  let ports: [number, number];

  beforeAll(async () => {
    own = await startMockServer(OPTIONS);
    twin = createMockServer(OPTIONS);
    reference = await straightforward(twin);
    ports = [Number(new URL(own.apiRoot).port), (reference.address() as AddressInfo).port];
  });

  afterAll(async () => {
    await own.close();
    await twin.close();
    await new Promise<void>((resolve) => reference.close(() => resolve()));
  });

  it('for pages, details, errors, webhooks, faults and odd headers; and journals them alike', async () => {
    const key = `authorization: Bearer ${own.keys.valid}`;
    const token = own.tokens.audience;
    const member = JSON.stringify({ phone_number: '+14155550100', first_name: 'Ada' });
    const firstCall = JSON.parse(
      (
        await own
          .handle({
            method: 'GET',
            path: '/v1/calls/',
            search: 'page_size=1',
            headers: { authorization: `Bearer ${own.keys.valid}` },
          })
          .then((r) => (r.drop ? { body: '' } : r.response))
      ).body,
    ).data[0].id;
    own.clearJournal();
    const exchanges: [string, string?][] = [
      [`GET /v1/calls/?page_size=25 HTTP/1.1\r\nhost: x\r\n${key}`],
      [`GET /v1/calls/?page_size=25 HTTP/1.1\r\nhost: x\r\n${key}`],
      [
        `GET /v1/calls/?ordering=created_at&page=2&page_size=3&source=voice_agent HTTP/1.1\r\nhost: x\r\n${key}`,
      ],
      [`HEAD /v1/users/?is_active=true HTTP/1.1\r\nhost: x\r\n${key}`],
      [`GET /v1/calls/${firstCall.toUpperCase()}/ HTTP/1.1\r\nhost: x\r\n${key}`],
      [`GET /v1/calls/${firstCall}/transcript/ HTTP/1.1\r\nhost: x\r\n${key}`],
      [`GET /v1/calls/00000000-0000-4000-8000-000000000000/ HTTP/1.1\r\nhost: x\r\n${key}`],
      [`GET /v1/calls/?page=0 HTTP/1.1\r\nhost: x\r\n${key}`],
      ['GET /v1/teams/ HTTP/1.1\r\nhost: x\r\nauthorization: Bearer svc_live_unknown'],
      ['GET /v1/teams/ HTTP/1.1\r\nhost: x'],
      [`GET /v1/teams HTTP/1.1\r\nhost: x\r\n${key}`],
      [`DELETE /v1/teams/ HTTP/1.1\r\nhost: x\r\n${key}`],
      [
        `GET /v1/teams/ HTTP/1.1\r\nhost: x\r\n${key}\r\nx-twice: one\r\nx-twice: two\r\nset-cookie: a=1\r\nset-cookie: b=2`,
      ],
      [
        `POST /v1/outbound-campaigns/webhook/${token}/ HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${member.length}`,
        member,
      ],
      [
        `POST /v1/outbound-campaigns/webhook/${token}/ HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${member.length}`,
        member,
      ],
      [
        `POST /v1/outbound-campaigns/webhook/${token}/ HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 600`,
        'x'.repeat(600),
      ],
      ['GET /__admin/clock HTTP/1.1\r\nhost: x\r\nauthorization: Bearer admin-token-for-both'],
    ];
    for (const [head, body] of exchanges) {
      const [mine, theirs] = await Promise.all(ports.map((port) => exchange(port, head, body)));
      expect(undated(mine as string), head).toBe(undated(theirs as string));
    }
    // Faults: a decorated real answer (its own content-length ignored in favour of the real one), a malformed one, an HTML page.
    for (const fault of [
      { path: '/v1/calls/', headers: { 'Retry-After': '3', 'X-Extra': 'yes' } },
      { path: '/v1/calls/', malformedJson: true },
      { path: '/v1/calls/', htmlPage: true, status: 503 },
      { path: '/v1/calls/', status: 500, body: 'plain failure' },
    ]) {
      own.injectFault(fault);
      twin.injectFault(fault);
      const head = `GET /v1/calls/?page_size=25 HTTP/1.1\r\nhost: x\r\n${key}`;
      const [mine, theirs] = await Promise.all(ports.map((port) => exchange(port, head)));
      expect(undated(mine as string), JSON.stringify(fault)).toBe(undated(theirs as string));
    }
    const journal = (server: MockServer) =>
      server.journal().map((entry) => ({ ...entry, headers: { ...entry.headers, host: 'x' } }));
    expect(journal(own)).toEqual(journal(twin));
    expect(own.journal().length).toBe(exchanges.length - 1 + 4);
  });

  it('writes a cached page from one encoded buffer, not one per request', async () => {
    const ends = vi.spyOn(ServerResponse.prototype, 'end');
    try {
      const head = `GET /v1/teams/?page_size=2 HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${own.keys.valid}`;
      const first = await exchange(ports[0], head);
      expect(undated(await exchange(ports[0], head))).toBe(undated(first));
      const written = ends.mock.calls.map(([chunk]) => chunk).filter((chunk) => Buffer.isBuffer(chunk));
      expect(written).toHaveLength(2);
      expect(written[1]).toBe(written[0]);
    } finally {
      ends.mockRestore();
    }
  });
});
