/**
 * msw request handlers for a mock server, for your own `setupServer` (Node) or `setupWorker`: the mock
 * answers code that calls the API with `fetch` (or any client msw intercepts), with the same behaviour
 * and state as its other ways in. msw is an optional peer dependency (version 2.11 or later of msw 2):
 * install it to use this entry point; the rest of the package never loads it.
 *
 * @module @company-data/mock-server/msw
 * @group Entry points
 */
import type { RequestHandler } from 'msw';
import { createHandlers } from '../serve/adapters/msw-handlers.js';
import type { MockServer } from '../server/mock-server.js';

/**
 * The handlers answering `server`'s origin, to spread into `setupServer(...)` next to your own (yours
 * first to override the mock for a test).
 *
 * @param server - a mock server, usually from `createMockServer()`.
 * @returns the handlers: one catch-all handler for the server's origin.
 * @example
 * ```ts
 * import { createMockServer } from '@company-data/mock-server';
 * import { mswHandlers } from '@company-data/mock-server/msw';
 * import { setupServer } from 'msw/node';
 *
 * const mock = createMockServer();
 * const msw = setupServer(...mswHandlers(mock));
 * msw.listen();
 * ```
 */
export function mswHandlers(
  server: Pick<MockServer, 'apiRoot' | 'maxBodyBytes' | 'handle'>,
): RequestHandler[] {
  return createHandlers(server);
}
