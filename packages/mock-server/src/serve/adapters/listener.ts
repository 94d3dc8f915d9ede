import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_REQUEST_HEAD_BYTES } from '@company-data/contract';
import type { ClientAbort, RequestAnswerer } from '../engine/engine.js';
import type { BodyDelivery } from '../engine/fault-answers.js';
import { serverError } from '../http/responses.js';
import type { MockRequest, MockResponse, StreamedBody } from '../http/types.js';
import { wireForm } from '../http/wire.js';
import { BodyCollector } from './body-limit.js';
import { deliver } from './delivery.js';

/** A running node:http listener. */
export interface Listener {
  /** e.g. `http://127.0.0.1:4010`. */
  readonly origin: string;
  /** The bound port. */
  readonly port: number;
  /** Stops accepting and closes open connections; idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a node:http server handing every request to the engine (or to a server's sessions, which pass it to
 * the engine of its session).
 *
 * @param answerer - the engine, or a server's sessions.
 * @param options - port (0 = ephemeral), host and body limit.
 * @returns the running listener.
 */
export async function listen(
  answerer: RequestAnswerer,
  options: { port: number; host: string; maxBodyBytes: number },
): Promise<Listener> {
  // Node answers a larger request head 431 itself; the limit is the contract's (its OpenAPI lists the 431).
  const server = createServer({ maxHeaderSize: MAX_REQUEST_HEAD_BYTES }, (req, res) => {
    serve(answerer, options.maxBodyBytes, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(serverError(error).body);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    origin,
    port: address.port,
    close: () => {
      closing ??= stop(server);
      return closing;
    },
  };
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Reads one request, hands it to the answerer, and writes what comes back (or drops the connection). */
async function serve(
  answerer: RequestAnswerer,
  maxBodyBytes: number,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const method = req.method ?? 'GET';
  const path = mark < 0 ? url : url.slice(0, mark);
  const search = mark < 0 ? '' : url.slice(mark + 1);
  const headers = flatten(req.headers);
  let request: MockRequest;
  if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) {
    const collector = new BodyCollector(maxBodyBytes);
    const read = (): MockRequest => ({
      method,
      path,
      search,
      headers,
      body: collector.body(),
      bodyTooLarge: collector.tooLarge,
    });
    try {
      // Read to the end even past the limit (discarding), so the 413 reaches a client still sending.
      for await (const chunk of req) collector.push(chunk as Buffer);
    } catch {
      // The client went away mid-body: nobody to answer, but the journal still hears of it.
      answerer.abandoned(read());
      return;
    }
    request = read();
  } else {
    request = { method, path, search, headers, body: undefined, bodyTooLarge: false };
  }
  const source = new LazyAbort(res);
  const result = await answerer.handle(request, source);
  if (result.drop) {
    req.socket.destroy();
    return;
  }
  const { response, delivery, stream } = result;
  if (stream !== undefined) {
    streamOut(res, response, stream);
    return;
  }
  // Encoded once for a cached page; headers as a flat list, which node writes without another object.
  const wire = wireForm(response);
  res.writeHead(response.status, wire.headers as string[]);
  if (delivery === undefined) res.end(wire.bytes);
  else await deliverSlowly(req, res, wire.bytes, delivery, source.signal);
}

/**
 * The abort signal of a request, built only if an injected delay asks for it: most requests never do.
 */
class LazyAbort implements ClientAbort {
  readonly #res: ServerResponse;
  #controller: AbortController | undefined;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      const res = this.#res;
      res.once('close', () => {
        if (!res.writableFinished) controller.abort(new Error('client went away'));
      });
    }
    return this.#controller.signal;
  }
}

/** Writes a body as a body fault asks: dripped, and/or cut (the connection destroyed mid-body). */
async function deliverSlowly(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Buffer,
  delivery: BodyDelivery,
  signal: AbortSignal,
): Promise<void> {
  res.flushHeaders();
  const write = (piece: Uint8Array) =>
    new Promise<void>((resolve) => {
      // Resolved once handed to the socket, so a cut really sends what came before it.
      res.write(piece, () => resolve());
    });
  try {
    await deliver(bytes, delivery, write, signal);
  } catch {
    // The client went away mid-drip.
    req.socket.destroy();
    return;
  }
  if (delivery.cutAfterBytes === undefined) res.end();
  else req.socket.destroy();
}

/**
 * The most a streamed body may have waiting for a slow client, in bytes: past it, pieces are not taken
 * (the body's `write` says so) rather than held in memory without bound.
 */
const MOST_BEHIND_BYTES = 1024 * 1024;

/**
 * Writes a body as it comes (the admin API's events): the head at once, without a `Content-Length`, then
 * each piece; the body ends when the server ends it, or stops when the client leaves (or the server's
 * connections are closed, which is how a closing server ends it too).
 */
function streamOut(res: ServerResponse, response: MockResponse, body: StreamedBody): void {
  res.writeHead(response.status, response.headers);
  res.flushHeaders();
  let open = true;
  const stop = body.open(
    (piece) => {
      if (!open || res.writableLength > MOST_BEHIND_BYTES) return false;
      res.write(piece);
      return true;
    },
    () => {
      open = false;
      res.end();
    },
  );
  res.once('close', () => {
    if (!open) return;
    open = false;
    stop();
  });
}

/** The headers as the engine reads them: node's own object, unless a header came as a list (set-cookie). */
function flatten(headers: IncomingMessage['headers']): Readonly<Record<string, string | undefined>> {
  // Node already joins repeated headers into one string except set-cookie: a copy is rarely needed.
  let flat = true;
  for (const name in headers) {
    if (typeof headers[name] !== 'string') {
      flat = false;
      break;
    }
  }
  if (flat) return headers as Readonly<Record<string, string>>;
  const out: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
