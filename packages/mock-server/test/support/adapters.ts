import type { SetupServer } from 'msw/node';
import { errors } from 'undici';
import { mswHandlers } from '../../src/entries/msw.js';
import { createMockServer, type MockServerOptions, startMockServer } from '../../src/index.js';
import { fetchSend, fetchStream, type Harness, undiciSend, undiciStream } from './send.js';

/** One way in to the mock server, as the conformance suite drives it. */
export interface Adapter {
  readonly name: string;
  /** Starts a server reached this way, with a `send` for it. */
  start(options?: MockServerOptions): Promise<Harness>;
  /** What a request sent this way rejects with when the server drops the connection or cuts a body. */
  readonly connectionError: abstract new (
    ...args: never[]
  ) => Error;
  /** Failures the adapter reported as its own since the last call (msw's unhandled exceptions). */
  takeFailures?(): unknown[];
  /**
   * Whether a client that stops reading a streamed body (the admin API's events) reaches the server at once.
   * msw's fetch interceptor tees each mocked response for its response events, and a tee's source is
   * cancelled only when both branches are: the branch nobody reads lets go when it is collected (here 13 to
   * 19 s later), so a watcher through msw is let go late.
   */
  readonly seesClientLeave: boolean;
}

/** The in-process undici dispatcher, driven with undici's `request`. */
export const dispatcherAdapter: Adapter = {
  name: 'in-process undici dispatcher',
  start: async (options) => {
    const server = createMockServer(options);
    return {
      server,
      send: undiciSend(server, true),
      stream: undiciStream(server, true),
      close: () => server.close(),
    };
  },
  connectionError: errors.SocketError,
  seesClientLeave: true,
};

/** The node:http listener on a loopback port, driven with undici's `request` over a socket. */
export const listenerAdapter: Adapter = {
  name: 'node:http listener on loopback',
  start: async (options) => {
    const server = await startMockServer({ ...options, port: 0 });
    return {
      server,
      send: undiciSend(server, false),
      stream: undiciStream(server, false),
      close: () => server.close(),
    };
  },
  connectionError: errors.SocketError,
  seesClientLeave: true,
};

/**
 * The msw handlers in a user's own `setupServer`, driven with the global fetch. Each harness installs a
 * fresh server's handlers, so harnesses of this adapter run one at a time.
 *
 * @param msw - the file's interceptor, already listening.
 */
export function mswAdapter(msw: SetupServer): Adapter {
  const failures: unknown[] = [];
  msw.events.on('unhandledException', ({ error }) => {
    failures.push(error);
  });
  return {
    name: 'msw handlers in setupServer, global fetch',
    start: async (options) => {
      const server = createMockServer(options);
      msw.resetHandlers(...mswHandlers(server));
      return { server, send: fetchSend(server), stream: fetchStream(server), close: () => server.close() };
    },
    // fetch reports a lost connection, or a body cut short, as a TypeError.
    connectionError: TypeError,
    takeFailures: () => failures.splice(0),
    seesClientLeave: false,
  };
}
