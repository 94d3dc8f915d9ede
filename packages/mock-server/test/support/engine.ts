import { afterEach, beforeEach } from 'vitest';
import {
  type BodyDelivery,
  createMockServer,
  type EngineResult,
  type MockRequest,
  type MockServer,
  type MockServerOptions,
} from '../../src/index.js';
import { parse, type TestRequest, type TestResponse } from './send.js';

/** A response the engine answered, with how its body must be written (`undefined`: whole, at once). */
export type EngineResponse = TestResponse & { readonly delivery: BodyDelivery | undefined };

/** What the engine answered: a response to write, or a connection to drop. */
export type EngineAnswer = (EngineResponse & { readonly dropped: false }) | { readonly dropped: true };

/** A server reached through `server.handle()` only: no adapter, no transport. */
export interface EngineHarness {
  readonly server: MockServer;
  /** Hands a request to the engine and returns what it answered, drop included. */
  call(request: TestRequest & { bodyTooLarge?: boolean }): Promise<EngineAnswer>;
  /** As `call`, for a request that must be answered: a drop throws, as it fails a client's request. */
  send(request: TestRequest): Promise<EngineResponse>;
  close(): Promise<void>;
}

/**
 * Builds the request an adapter would hand the engine: the path split from its query and left
 * percent-encoded, the method upper-case, header names lower-case, the body as bytes. A body above the
 * server's `maxBodyBytes` is withheld and flagged `bodyTooLarge`, as every adapter does (the conformance
 * suite proves each one does it at the limit).
 *
 * @param server - the server whose body limit applies.
 * @param request - the request as a test writes it.
 */
export function toMockRequest(
  server: MockServer,
  { method = 'GET', path, headers = {}, body, bodyTooLarge }: TestRequest & { bodyTooLarge?: boolean },
): MockRequest {
  const mark = path.indexOf('?');
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lowered[name.toLowerCase()] = value;
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const tooLarge = bodyTooLarge === true || (bytes !== undefined && bytes.byteLength > server.maxBodyBytes);
  return {
    method: method.toUpperCase(),
    path: mark < 0 ? path : path.slice(0, mark),
    search: mark < 0 ? '' : path.slice(mark + 1),
    headers: lowered,
    body: tooLarge || bytes === undefined || bytes.byteLength === 0 ? undefined : bytes,
    bodyTooLarge: tooLarge,
  };
}

/** Reads an engine result as a client would see a response written whole. */
export function readResult(result: EngineResult): EngineAnswer {
  if (result.drop) return { dropped: true };
  const { response, delivery } = result;
  return { ...parse(response.status, { ...response.headers }, response.body), dropped: false, delivery };
}

/**
 * Creates an in-process server for engine tests. Frozen by default: these tests check each time rule to
 * the millisecond (pass `clock: 'running'`, with fake timers faking `Date`, for the running clock).
 *
 * @param options - the server's options.
 */
export function engineHarness(options: MockServerOptions = {}): EngineHarness {
  const server = createMockServer({ clock: 'frozen', ...options });
  const call: EngineHarness['call'] = async (request) => {
    const controller = request.signal === undefined ? undefined : { signal: request.signal };
    return readResult(await server.handle(toMockRequest(server, request), controller));
  };
  return {
    server,
    call,
    send: async (request) => {
      const answer = await call(request);
      if (answer.dropped) throw new Error(`The engine dropped ${request.method ?? 'GET'} ${request.path}`);
      return answer;
    },
    close: () => server.close(),
  };
}

/** The harness of the current test and the requests the engine tests write most. */
export interface EngineSuite {
  /** The current test's harness (a fresh frozen server per test). */
  readonly h: EngineHarness;
  /** The full-access key's Authorization header. */
  auth(): Record<string, string>;
  /** GET with the full-access key, or with `key`. */
  get(path: string, key?: string): Promise<EngineResponse>;
  /** POST a JSON body (a string is sent as-is). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<EngineResponse>;
  /** The id of the first record of a list. */
  firstId(list: string): Promise<string>;
  /** The primary audience's webhook path. */
  audiencePath(): string;
  /** A lead source's webhook path (the primary one by default). */
  leadPath(token?: string): string;
}

/**
 * Gives each test of the calling file a fresh server reached through `server.handle()` only, closed
 * after it.
 *
 * @param options - the servers' options (frozen clock unless they say otherwise).
 */
export function useEngine(options: MockServerOptions = {}): EngineSuite {
  let current: EngineHarness | undefined;
  beforeEach(() => {
    current = engineHarness(options);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const harness = (): EngineHarness => {
    if (current === undefined) throw new Error('useEngine: no test is running');
    return current;
  };
  const h: EngineHarness = {
    get server() {
      return harness().server;
    },
    call: (request) => harness().call(request),
    send: (request) => harness().send(request),
    close: () => harness().close(),
  };
  const auth = () => ({ authorization: `Bearer ${h.server.keys.valid}` });
  const get = (path: string, key?: string) =>
    h.send({ path, headers: key === undefined ? auth() : { authorization: `Bearer ${key}` } });
  return {
    h,
    auth,
    get,
    post: (path, body, headers = {}) =>
      h.send({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    firstId: async (list) => (await get(`${list}?page_size=1`)).json.data[0].id,
    audiencePath: () => `/v1/outbound-campaigns/webhook/${h.server.tokens.audience}/`,
    leadPath: (token = h.server.tokens.lead) => `/messaging-agent/webhook/${token}/`,
  };
}
