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

/** A response whose body comes as it is written (the admin API's events), read piece by piece. */
export interface TestStream {
  status: number;
  headers: Record<string, string>;
  /** The body read so far, once `done` says it holds what is awaited (or the body ended). */
  readUntil(done: (text: string) => boolean): Promise<string>;
  /** Whether the body ended (read to its end). */
  ended(): Promise<boolean>;
  /** Leaves: the client stops reading and goes away. */
  cancel(): Promise<void>;
}

/** Opens a GET whose body comes as it is written. */
export type OpenStream = (path: string, headers: Record<string, string>) => Promise<TestStream>;

/** A server and the way the suite reaches it. */
export interface Harness {
  server: MockServer;
  send: Send;
  stream: OpenStream;
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

/** A stream read from pieces of text, however the way in hands them over. */
function testStream(
  status: number,
  headers: Record<string, string>,
  next: () => Promise<string | undefined>,
  cancel: () => Promise<void>,
): TestStream {
  let text = '';
  let over = false;
  const read = async (done: (text: string) => boolean) => {
    while (!over && !done(text)) {
      const piece = await next();
      if (piece === undefined) over = true;
      else text += piece;
    }
    return text;
  };
  return {
    status,
    headers,
    readUntil: read,
    ended: async () => {
      await read(() => false);
      return over;
    },
    cancel,
  };
}

/** Opens a stream with undici.request, through a dispatcher or (none given) over the network. */
export function undiciStream(server: MockServer, viaDispatcher: boolean): OpenStream {
  return async (path, headers) => {
    const controller = new AbortController();
    const response = await request(`${server.apiRoot}${path}`, {
      headers,
      signal: controller.signal,
      ...(viaDispatcher ? { dispatcher: server.dispatcher } : {}),
    });
    const pieces = response.body[Symbol.asyncIterator]();
    return testStream(
      response.statusCode,
      flatten(response.headers),
      async () => {
        const piece = await pieces.next();
        return piece.done ? undefined : Buffer.from(piece.value as Uint8Array).toString('utf8');
      },
      async () => controller.abort(),
    );
  };
}

/** Opens a stream with the global fetch (what msw's setupServer intercepts). */
export function fetchStream(server: MockServer): OpenStream {
  return async (path, headers) => {
    const response = await fetch(`${server.apiRoot}${path}`, { headers });
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    return testStream(
      response.status,
      out,
      async () => {
        const piece = await reader.read();
        return piece.done ? undefined : decoder.decode(piece.value, { stream: true });
      },
      () => reader.cancel(),
    );
  };
}
