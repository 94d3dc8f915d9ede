import { HttpResponse, http, type RequestHandler } from 'msw';
import type { MockEngine } from '../engine/engine.js';
import type { BodyDelivery } from '../engine/fault-answers.js';
import type { StreamedBody } from '../http/types.js';
import { BodyCollector } from './body-limit.js';
import { deliver } from './delivery.js';

/** What the msw adapter needs from a server: where it answers, its body limit, and what answers a request. */
export interface MswTarget extends Pick<MockEngine, 'handle'> {
  /** The origin the handlers answer. */
  readonly apiRoot: string;
  /** Largest accepted request body in bytes. */
  readonly maxBodyBytes: number;
}

/**
 * msw request handlers for a user's own `setupServer`/`setupWorker`: one catch-all handler for the
 * server's origin, answering through the same engine as the listener and the dispatcher.
 *
 * @param target - the server.
 * @returns the handlers, composable with the user's own.
 */
export function createHandlers(target: MswTarget): RequestHandler[] {
  const prefix = `${target.apiRoot}/`;
  return [
    // A predicate rather than a path pattern: msw's pattern matching throws (500) on malformed
    // percent-encoding, which the API answers with 404 like any unknown id.
    http.all(
      ({ request }) => request.url.startsWith(prefix),
      async ({ request }) => {
        const url = new URL(request.url);
        const collector = new BodyCollector(target.maxBodyBytes);
        if (request.body) {
          const reader = request.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            // Past the limit, keep reading and discarding: cancelling the stream can stall the sender.
            collector.push(value);
          }
        }
        const headers: Record<string, string> = {};
        request.headers.forEach((value, name) => {
          headers[name] = value;
        });
        const result = await target.handle(
          {
            method: request.method.toUpperCase(),
            path: url.pathname,
            search: url.search.slice(1),
            headers,
            body: collector.body(),
            bodyTooLarge: collector.tooLarge,
          },
          request,
        );
        // A drop, or a client that gave up during an injected delay: a network error either way.
        if (result.drop) return HttpResponse.error();
        const { response, delivery, stream } = result;
        if (stream !== undefined)
          return new HttpResponse(request.method === 'HEAD' ? null : streamedBody(stream, request.signal), {
            status: response.status,
            headers: response.headers,
          });
        // As the listener answers: Content-Length is the whole body's (also under a body fault), and HEAD
        // gets the GET's headers without its body.
        const answerHeaders = {
          ...response.headers,
          'content-length': String(Buffer.byteLength(response.body)),
        };
        const body =
          request.method === 'HEAD' || response.body === ''
            ? null
            : delivery === undefined
              ? response.body
              : faultyStream(response.body, delivery, request.signal);
        return new HttpResponse(body, { status: response.status, headers: answerHeaders });
      },
    ),
  ];
}

/**
 * A body written as it comes (the admin API's events), as a stream the client reads piece by piece; it stops
 * when the client cancels it or aborts its request. A piece is not taken while the client is behind.
 */
function streamedBody(body: StreamedBody, signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let open = true;
  let stop: () => void = () => undefined;
  const leave = () => {
    if (!open) return;
    open = false;
    stop();
  };
  return new ReadableStream(
    {
      start(controller) {
        stop = body.open(
          (piece) => {
            if (!open || (controller.desiredSize ?? 1) <= 0) return false;
            controller.enqueue(encoder.encode(piece));
            return true;
          },
          () => {
            if (!open) return;
            open = false;
            controller.close();
          },
        );
        if (signal.aborted) leave();
        else signal.addEventListener('abort', leave, { once: true });
      },
      cancel: leave,
    },
    MOST_QUEUED,
  );
}

/** The most bytes a streamed body queues for a client that does not read them yet. */
const MOST_QUEUED: QueuingStrategy<Uint8Array> = {
  highWaterMark: 1024 * 1024,
  size: (chunk) => chunk.byteLength,
};

/**
 * A body fault as msw can express it: a stream that drips, and that errors where a socket would be cut
 * (the reader of the body, e.g. `response.text()`, rejects with a `TypeError`, as fetch's does on a
 * lost connection). The headers' `Content-Length` is not enforced by msw.
 */
function faultyStream(text: string, delivery: BodyDelivery, signal: AbortSignal): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    async start(controller) {
      try {
        await deliver(bytes, delivery, (piece) => controller.enqueue(piece), signal);
      } catch (error) {
        controller.error(error);
        return;
      }
      if (delivery.cutAfterBytes === undefined) controller.close();
      else controller.error(new TypeError('terminated: the mock cut the connection mid-body'));
    },
  });
}
