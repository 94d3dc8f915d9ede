import { request } from 'undici';
import type { MockServer } from '../../src/index.js';

/** A request as the engine tests and the conformance suite write it, independent of the way in. */
export interface TestRequest {
  method?: string;
  /** Path relative to the origin, with the query, e.g. `/v1/users/?page=2`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Gives up on the request. */
  signal?: AbortSignal;
}

/** What the suite reads back. */
export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely and validate with the contract schemas.
  json: any;
}

/** Sends a request through one way in. */
export type Send = (request: TestRequest) => Promise<TestResponse>;

/** A server and the way the suite reaches it. */
export interface Harness {
  server: MockServer;
  send: Send;
  /** Tears down what the harness started. */
  close(): Promise<void>;
}

/** Reads a response's text as JSON when it is JSON (`json` is undefined otherwise). */
export function parse(status: number, headers: Record<string, string>, text: string): TestResponse {
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Sends with undici.request, through a dispatcher or (none given) over the network. */
export function undiciSend(server: MockServer, viaDispatcher: boolean): Send {
  return async ({ method = 'GET', path, headers, body, signal }) => {
    const response = await request(`${server.apiRoot}${path}`, {
      method: method as 'GET',
      headers,
      body,
      signal,
      ...(viaDispatcher ? { dispatcher: server.dispatcher } : {}),
    });
    return parse(response.statusCode, flatten(response.headers), await response.body.text());
  };
}

/** Sends with the global fetch (what msw's setupServer intercepts). */
export function fetchSend(server: MockServer): Send {
  return async ({ method = 'GET', path, headers, body, signal }) => {
    const response = await fetch(`${server.apiRoot}${path}`, {
      method,
      headers,
      body: body as string | undefined,
      signal,
    });
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    return parse(response.status, out, await response.text());
  };
}
