/**
 * Child-process entry that hosts one HTTP server for the benchmark, so load generators and clients in the
 * parent never share an event loop (or a core) with the server they measure. Commands arrive over IPC:
 * `start` (kind and options), `startBeside` (a second mock in the same process, e.g. to compare two mocks that share
 * its JIT and its cores), `injectFault`, `setActivity`, `setFaultRate`, `members`, `conversations`, `journalLength`,
 * `clearJournal`, `pagesRead`, `createKey`, `keyTraffic`, `profileStart`, `profileStop`, `close`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockServer, type MockServer, startMockServer } from '@company-data/mock-server';
import { mswHandlers } from '@company-data/mock-server/msw';
import { serveIpc } from './children.js';
import { type ProfileSummary, startProfile } from './profile.js';

/** Which server to host. */
export type ServerKind = 'bare' | 'mock' | 'msw-naive';

/** Arguments of the `start` command. */
export interface StartArgs {
  /** The kind of server. */
  kind: ServerKind;
  /** For `bare`: the response body, base64. */
  bodyBase64?: string;
  /** For `mock` and `msw-naive`: plain (IPC-serialisable) mock options. */
  mockOptions?: {
    seed?: number;
    sizes?: Record<string, number>;
    quota?: false;
    activity?: Parameters<MockServer['setActivity']>[0];
    adminToken?: string;
  };
}

/** What `start` answers. */
export interface Started {
  /** `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** `http://127.0.0.1:<port>`. */
  apiRoot: string;
  /** The mock's keys (empty for `bare`). */
  keys: Record<string, string>;
  /** The mock's webhook tokens (empty for `bare`). */
  tokens: Record<string, string>;
  /** Milliseconds spent building the server (data generation included). */
  buildMs: number;
}

let mock: MockServer | undefined;
/** Mocks started beside the first (`startBeside`), closed with it. */
const beside: MockServer[] = [];
let server: Server | undefined;
let stopProfile: (() => Promise<ProfileSummary>) | undefined;

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const created = createServer(handler);
  server = created;
  return new Promise((resolve) =>
    created.listen(0, '127.0.0.1', () => resolve((created.address() as AddressInfo).port)),
  );
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** A bare node:http server answering every request with the same pre-serialised bytes: the practical limit. */
async function startBare(body: Buffer): Promise<Started> {
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
  const port = await listen((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  const apiRoot = `http://127.0.0.1:${port}`;
  return { baseURL: `${apiRoot}/v1`, apiRoot, keys: {}, tokens: {}, buildMs: 0 };
}

/**
 * The way most msw users serve handlers over HTTP: turn each node:http request into a Fetch `Request`,
 * ask msw's `getResponse` for the answer, copy it back. The baseline the mock's own listener must beat.
 */
async function startNaiveMsw(options: StartArgs['mockOptions']): Promise<Started> {
  const { getResponse } = await import('msw');
  const begin = performance.now();
  const inProcess = createMockServer(options);
  const handlers = mswHandlers(inProcess);
  const buildMs = performance.now() - begin;
  const port = await listen(async (req, res) => {
    try {
      const method = req.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
      const request = new Request(new URL(req.url ?? '/', inProcess.apiRoot), {
        method,
        headers: toHeaders(req),
        ...(body ? { body } : {}),
      });
      const response = await getResponse(handlers, request);
      if (!response) {
        res.writeHead(404).end();
        return;
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(bytes);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  const apiRoot = `http://127.0.0.1:${port}`;
  mock = inProcess as unknown as MockServer;
  return {
    baseURL: `${apiRoot}/v1`,
    apiRoot,
    keys: { ...inProcess.keys },
    tokens: { ...inProcess.tokens },
    buildMs,
  };
}

/** The mock server's own standalone listener. */
async function startOwnListener(options: StartArgs['mockOptions']): Promise<Started> {
  const begin = performance.now();
  mock = await startMockServer({ ...options, port: 0, host: '127.0.0.1' });
  const buildMs = performance.now() - begin;
  return {
    baseURL: mock.baseURL,
    apiRoot: mock.apiRoot,
    keys: { ...mock.keys },
    tokens: { ...mock.tokens },
    buildMs,
  };
}

function requireMock(): MockServer {
  if (!mock) throw new Error('no mock server in this host');
  return mock;
}

serveIpc({
  start: (args) => {
    const { kind, bodyBase64, mockOptions } = args as StartArgs;
    if (kind === 'bare') return startBare(Buffer.from(bodyBase64 ?? '', 'base64'));
    if (kind === 'msw-naive') return startNaiveMsw(mockOptions);
    return startOwnListener(mockOptions);
  },
  // Another mock listening in this process, with the same options as `start` takes: only the other commands'
  // first mock is driven by them.
  startBeside: async (options) => {
    const other = await startMockServer({
      ...(options as StartArgs['mockOptions']),
      port: 0,
      host: '127.0.0.1',
    });
    beside.push(other);
    return {
      baseURL: other.baseURL,
      apiRoot: other.apiRoot,
      keys: { ...other.keys },
      tokens: {},
      buildMs: 0,
    };
  },
  injectFault: (fault) => {
    requireMock().injectFault(fault as Parameters<MockServer['injectFault']>[0]);
    return true;
  },
  // Returns the activity in force (as `server.activity()`).
  setActivity: (activity) => {
    const hosted = requireMock();
    hosted.setActivity(activity as Parameters<MockServer['setActivity']>[0]);
    return hosted.activity();
  },
  setFaultRate: (rates) => {
    requireMock().setFaultRate(rates as Parameters<MockServer['setFaultRate']>[0]);
    return true;
  },
  members: (token) => requireMock().members(token as string),
  conversations: () => requireMock().conversations(),
  journalLength: () => requireMock().journal().length,
  clearJournal: () => {
    requireMock().clearJournal();
    return true;
  },
  // The `page` of every GET of a list path (e.g. `/v1/calls/`) in the journal, in the order they arrived.
  pagesRead: (path) =>
    requireMock()
      .journal()
      .filter((entry) => entry.method === 'GET' && entry.path === path)
      .map((entry) => Number(entry.query.page ?? 1)),
  // A key of its own (e.g. with a quota), and what the journal holds of its requests: arrival and status.
  createKey: (options) => requireMock().createKey(options as Parameters<MockServer['createKey']>[0]),
  keyTraffic: (name) =>
    requireMock()
      .journal()
      .filter((entry) => entry.keyName === name)
      .map((entry) => ({ atMs: Date.parse(entry.at), status: entry.status })),
  memory: () => process.memoryUsage(),
  cpu: () => {
    const { user, system } = process.cpuUsage();
    return { cpuMicros: user + system, wallMicros: Number(process.hrtime.bigint() / 1000n) };
  },
  profileStart: async () => {
    stopProfile = await startProfile();
    return true;
  },
  profileStop: async () => {
    const stop = stopProfile;
    stopProfile = undefined;
    if (!stop) throw new Error('profiler not started');
    return stop();
  },
  close: async () => {
    await Promise.all(beside.map((other) => other.close()));
    await mock?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    setImmediate(() => process.exit(0));
    return true;
  },
});
