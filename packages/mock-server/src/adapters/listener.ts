import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BodyDelivery, MockEngine } from '../engine/engine.js';
import { serverError } from '../http/responses.js';
import type { MockRequest } from '../http/types.js';
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
 * Starts a node:http server answering every request through the engine.
 *
 * @param engine - the transport-free core.
 * @param options - port (0 = ephemeral), host and body limit.
 * @returns the running listener.
 */
export async function listen(
  engine: MockEngine,
  options: { port: number; host: string; maxBodyBytes: number },
): Promise<Listener> {
  const server = createServer((req, res) => {
    serve(engine, options.maxBodyBytes, req, res).catch((error: unknown) => {
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

async function serve(engine: MockEngine, maxBodyBytes: number, req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const hasBody =
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const collector = new BodyCollector(maxBodyBytes);
  const read = () => ({
    method: req.method ?? 'GET',
    path: mark < 0 ? url : url.slice(0, mark),
    search: mark < 0 ? '' : url.slice(mark + 1),
    headers: flatten(req.headers),
    body: collector.body(),
    bodyTooLarge: collector.tooLarge,
  });
  if (hasBody) {
    try {
      // Read to the end even past the limit (discarding), so the 413 reaches a client still sending.
      for await (const chunk of req) collector.push(chunk as Buffer);
    } catch {
      // The client went away mid-body: nobody to answer, but the journal still hears of it.
      engine.abandoned(read());
      return;
    }
  }
  const request: MockRequest = read();
  // The abort signal is only built if an injected delay asks for it: most requests never do.
  let abort: AbortController | undefined;
  const source = {
    get signal(): AbortSignal {
      if (!abort) {
        const controller = new AbortController();
        abort = controller;
        res.once('close', () => {
          if (!res.writableFinished) controller.abort(new Error('client went away'));
        });
      }
      return abort.signal;
    },
  };
  const result = await engine.handle(request, source);
  if (result.drop) {
    req.socket.destroy();
    return;
  }
  const { response, delivery } = result;
  const bytes = Buffer.from(response.body);
  res.writeHead(response.status, { ...response.headers, 'content-length': bytes.length });
  if (delivery === undefined) res.end(bytes);
  else await deliverSlowly(req, res, bytes, delivery, source.signal);
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

function flatten(headers: IncomingMessage['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
