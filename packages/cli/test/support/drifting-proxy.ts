import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockServer } from '@company-data/mock-server';

// biome-ignore lint/suspicious/noExplicitAny: drifts poke at JSON bodies loosely.
type Json = any;

/** One answer passing through the proxy. */
export interface Passing {
  /** The path, e.g. `/v1/calls/`. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly status: number;
  /** The parsed JSON body; a drift changes it in place. */
  json: Json;
  /** Asks the real mock for another path and query, with the same key (for drifts that mix pages). */
  readonly upstream: (pathAndQuery: string) => Promise<Json>;
}

/** How a drifting server differs from the real mock: one change to the answers passing through. */
export type Drift = (passing: Passing) => void | Promise<void>;

/**
 * A server that drifts from the contract in exactly one way: a node:http proxy in front of the real mock
 * server that applies `drift` to every JSON answer. Everything else is the mock's own behaviour.
 */
export async function startDriftingProxy(
  mock: MockServer,
  drift: Drift,
): Promise<{ baseURL: string; close(): Promise<void> }> {
  const origin = new URL(mock.baseURL).origin;
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const authorization = request.headers.authorization;
    const headers: Record<string, string> = {};
    if (authorization) headers.authorization = authorization;
    if (request.headers['content-type']) headers['content-type'] = request.headers['content-type'];
    const real = await fetch(`${origin}${request.url}`, {
      method: request.method,
      headers,
      body: body || undefined,
    });
    const text = await real.text();
    const url = new URL(request.url ?? '/', origin);
    const passing: Passing = {
      path: url.pathname,
      query: url.searchParams,
      status: real.status,
      json: text ? JSON.parse(text) : undefined,
      upstream: async (pathAndQuery) => (await fetch(`${origin}${pathAndQuery}`, { headers })).json(),
    };
    await drift(passing);
    const out: Record<string, string> = { 'content-type': 'application/json' };
    const retryAfter = real.headers.get('retry-after');
    if (retryAfter) out['retry-after'] = retryAfter;
    response.writeHead(real.status, out).end(JSON.stringify(passing.json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}
