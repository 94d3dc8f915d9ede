/**
 * The headers of a stream of server-sent events: never cached, and never held back by a proxy that buffers
 * (nginx reads `X-Accel-Buffering`).
 */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
});

/** A comment line of the stream: it shows a client, and any proxy between, that the stream is alive. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * One server-sent event: its name and its data as one line of JSON (JSON.stringify escapes every line break,
 * so no data line is ever split).
 *
 * @param name - the event's name (`event:`).
 * @param data - its data, written as JSON.
 */
export function eventText(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
