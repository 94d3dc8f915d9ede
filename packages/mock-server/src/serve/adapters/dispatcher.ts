import { STATUS_CODES } from 'node:http';
import { Agent, type Dispatcher, errors } from 'undici';
import type { RequestAnswerer } from '../engine/engine.js';
import type { BodyDelivery } from '../engine/fault-answers.js';
import type { MockRequest, MockResponse, StreamedBody } from '../http/types.js';
import { BodyCollector } from './body-limit.js';
import { deliver } from './delivery.js';

/** Response bodies are handed to undici in pieces of this size, honouring pause/resume. */
const CHUNK_BYTES = 64 * 1024;

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

/**
 * An undici dispatcher answering in-process through the engine: no socket, same behaviour as the
 * listener. Built as an interceptor composed onto an (unused) Agent, so undici hands it handlers in
 * the current callback style whatever the caller uses (`request`, `fetch`, a Pool API...).
 *
 * @param answerer - the engine, or a server's sessions (which pass each request to its session's engine).
 * @param origin - the only origin it answers, e.g. `http://company-data.mock`.
 * @param maxBodyBytes - request bodies above this are answered 413.
 * @returns the dispatcher.
 */
export function createInProcessDispatcher(
  answerer: RequestAnswerer,
  origin: string,
  maxBodyBytes: number,
): Dispatcher {
  const expected = new URL(origin).origin;
  const agent = new Agent();
  return agent.compose(() => (options: Dispatcher.DispatchOptions, handler: Handler): boolean => {
    void drive(answerer, expected, maxBodyBytes, options, handler);
    return true;
  });
}

class InProcessController implements Controller {
  // Created on first use only: most requests never need a signal.
  #abort: AbortController | undefined;
  #aborted = false;
  #paused = false;
  #resumed: (() => void) | undefined;
  #onAbort: ((reason: Error) => void) | undefined;
  #reason: Error | null = null;

  get aborted(): boolean {
    return this.#aborted;
  }

  get paused(): boolean {
    return this.#paused;
  }

  get reason(): Error | null {
    return this.#reason;
  }

  get signal(): AbortSignal {
    if (!this.#abort) {
      this.#abort = new AbortController();
      if (this.#aborted) this.#abort.abort(this.#reason);
    }
    return this.#abort.signal;
  }

  onAbort(listener: (reason: Error) => void): void {
    this.#onAbort = listener;
  }

  abort(reason: Error): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#abort?.abort(reason);
    this.#onAbort?.(reason);
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    const resumed = this.#resumed;
    this.#resumed = undefined;
    resumed?.();
  }

  /** Waits until the consumer resumes (or aborts). */
  whenFlowing(): Promise<void> | undefined {
    if (!this.#paused || this.aborted) return undefined;
    return new Promise((resolve) => {
      this.#resumed = resolve;
      this.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }
}

async function drive(
  answerer: RequestAnswerer,
  origin: string,
  maxBodyBytes: number,
  options: Dispatcher.DispatchOptions,
  handler: Handler,
): Promise<void> {
  const controller = new InProcessController();
  let finished = false;
  const fail = (error: Error) => {
    if (finished) return;
    finished = true;
    handler.onResponseError?.(controller, error);
  };
  controller.onAbort(fail);
  try {
    handler.onRequestStart?.(controller, {});
    if (controller.aborted) return;
    const request = await readRequest(options, origin, maxBodyBytes);
    if (controller.aborted) {
      answerer.abandoned(request);
      return;
    }
    const result = await answerer.handle(request, controller);
    // A real socket answers in a later macrotask. Without this turn a tight `for await` over many pages
    // never returns to the event loop, and undici's per-response cleanup (queued with setImmediate)
    // piles up: iterating a million calls grew the heap by ~580 MB.
    await nextMacrotask();
    if (controller.aborted) return;
    if (result.drop) {
      fail(new errors.SocketError('other side closed'));
      return;
    }
    if (result.stream !== undefined) {
      if (!(await writeStreamed(result.response, result.stream, handler, controller))) return;
    } else if (result.delivery !== undefined) {
      if (!(await writeFaulty(result.response, result.delivery, handler, controller))) return;
      // A cut body: the connection is gone before the body is whole, as a socket reports it.
      if (result.delivery.cutAfterBytes !== undefined) {
        fail(new errors.SocketError('other side closed'));
        return;
      }
    } else if (!(await writeResponse(result.response, request.method, handler, controller))) return;
    // Finished before the end is told, so nothing the consumer does on the end can report an error.
    finished = true;
    handler.onResponseEnd?.(controller, {});
  } catch (error) {
    fail(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The dispatched request as the engine reads it, its body collected. */
async function readRequest(
  options: Dispatcher.DispatchOptions,
  origin: string,
  maxBodyBytes: number,
): Promise<MockRequest> {
  const requestOrigin = options.origin === undefined ? '' : new URL(String(options.origin)).origin;
  if (requestOrigin !== origin) {
    throw new errors.InvalidArgumentError(
      `This mock dispatcher only answers ${origin}, not ${requestOrigin || 'no origin'}`,
    );
  }
  const rawPath = options.path ?? '/';
  const mark = rawPath.indexOf('?');
  const collector = new BodyCollector(maxBodyBytes);
  await readBody(options.body, collector);
  return {
    method: (options.method ?? 'GET').toUpperCase(),
    path: mark < 0 ? rawPath : rawPath.slice(0, mark),
    search: mark < 0 ? '' : rawPath.slice(mark + 1),
    headers: normalizeHeaders(options.headers),
    body: collector.body(),
    bodyTooLarge: collector.tooLarge,
  };
}

/**
 * Hands the response's head and body to undici in pieces, honouring pause and resume (the end is the
 * caller's to tell).
 *
 * @returns true when it was delivered whole, false when the consumer aborted on the way.
 */
async function writeResponse(
  response: MockResponse,
  method: string,
  handler: Handler,
  controller: InProcessController,
): Promise<boolean> {
  const encoded = Buffer.from(response.body);
  const bytes = method === 'HEAD' ? encoded.subarray(0, 0) : encoded;
  handler.onResponseStart?.(
    controller,
    response.status,
    { ...response.headers, 'content-length': String(encoded.length) },
    STATUS_CODES[response.status] ?? '',
  );
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
    await controller.whenFlowing();
    if (controller.aborted) return false;
    handler.onResponseData?.(controller, bytes.subarray(offset, offset + CHUNK_BYTES));
  }
  await controller.whenFlowing();
  return !controller.aborted;
}

/**
 * Hands a response to undici as a body fault asks: the head with the whole body's length, then the
 * body dripped and/or cut (the end, or the error, is the caller's to tell).
 *
 * @returns false when the consumer aborted on the way.
 */
async function writeFaulty(
  response: MockResponse,
  delivery: BodyDelivery,
  handler: Handler,
  controller: InProcessController,
): Promise<boolean> {
  const encoded = Buffer.from(response.body);
  handler.onResponseStart?.(
    controller,
    response.status,
    { ...response.headers, 'content-length': String(encoded.length) },
    STATUS_CODES[response.status] ?? '',
  );
  try {
    await deliver(
      encoded,
      delivery,
      async (piece) => {
        await controller.whenFlowing();
        if (!controller.aborted)
          handler.onResponseData?.(controller, Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
      },
      controller.signal,
    );
  } catch {
    return false;
  }
  await controller.whenFlowing();
  return !controller.aborted;
}

/**
 * Hands undici a body written as it comes (the admin API's events): the head without a length, then each
 * piece, until the server ends the body or the consumer aborts (which stops it). A piece is not taken while
 * the consumer is paused.
 *
 * @returns true when the server ended the body, false when the consumer aborted first.
 */
function writeStreamed(
  response: MockResponse,
  body: StreamedBody,
  handler: Handler,
  controller: InProcessController,
): Promise<boolean> {
  handler.onResponseStart?.(
    controller,
    response.status,
    { ...response.headers },
    STATUS_CODES[response.status] ?? '',
  );
  if (controller.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    let open = true;
    const stop = body.open(
      (piece) => {
        if (!open || controller.paused) return false;
        handler.onResponseData?.(controller, Buffer.from(piece));
        return true;
      },
      () => {
        if (!open) return;
        open = false;
        resolve(!controller.aborted);
      },
    );
    controller.signal.addEventListener(
      'abort',
      () => {
        if (!open) return;
        open = false;
        stop();
        resolve(false);
      },
      { once: true },
    );
  });
}

function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function readBody(body: Dispatcher.DispatchOptions['body'], collector: BodyCollector): Promise<void> {
  if (body === undefined || body === null) return;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    collector.push(body);
    return;
  }
  const source = body as unknown;
  if (source instanceof ArrayBuffer) {
    collector.push(new Uint8Array(source));
    return;
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    collector.push(new Uint8Array(await source.arrayBuffer()));
    return;
  }
  if (isIterable(source)) {
    for await (const chunk of source) {
      if (!collector.push(typeof chunk === 'string' ? chunk : new Uint8Array(chunk as ArrayBufferLike)))
        break;
    }
    return;
  }
  throw new errors.InvalidArgumentError('Unsupported request body type for the mock dispatcher');
}

function isIterable(value: unknown): value is AsyncIterable<unknown> | Iterable<unknown> {
  return (
    typeof value === 'object' && value !== null && (Symbol.asyncIterator in value || Symbol.iterator in value)
  );
}

function normalizeHeaders(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: unknown, value: unknown) => {
    if (value === undefined || value === null) return;
    const key = String(name).toLowerCase();
    const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
  };
  if (!headers) return out;
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) {
      for (const pair of headers as unknown as [unknown, unknown][]) add(pair[0], pair[1]);
    } else {
      for (let i = 0; i + 1 < headers.length; i += 2) add(headers[i], headers[i + 1]);
    }
    return out;
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of headers as Iterable<[string, string | string[] | undefined]>)
      add(name, value);
    return out;
  }
  for (const [name, value] of Object.entries(headers)) add(name, value);
  return out;
}
