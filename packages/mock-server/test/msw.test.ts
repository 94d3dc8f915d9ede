import { getResponse, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { mswHandlers } from '../src/msw.js';
import { describeBehaviour } from './support/behaviour.js';
import { fetchSend } from './support/send.js';

// One msw interceptor for the file, as a user would set it up; each test installs a fresh mock's handlers.
const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterAll(() => msw.close());

describeBehaviour('msw handlers in setupServer, global fetch', async (options) => {
  const server = createMockServer(options);
  msw.resetHandlers(...mswHandlers(server));
  return { server, send: fetchSend(server), close: () => server.close() };
});

describe('msw handlers', () => {
  it('end quietly when the client aborts during an injected delay', async () => {
    const server = createMockServer();
    server.injectFault({ path: '/v1/teams/', delayMs: 10_000 });
    const controller = new AbortController();
    const request = new Request(`${server.baseURL}/teams/`, {
      headers: { authorization: `Bearer ${server.keys.valid}` },
      signal: controller.signal,
    });
    const answer = getResponse(mswHandlers(server), request);
    controller.abort(new Error('client gave up'));
    // A network-error response, not an exception msw would report as an unhandled handler failure.
    expect((await answer)?.type).toBe('error');
    await server.close();
  });

  it('compose with the user’s own handlers', async () => {
    const server = createMockServer();
    msw.resetHandlers(
      http.get(`${server.baseURL}/teams/`, () => HttpResponse.json({ overridden: true })),
      ...mswHandlers(server),
    );
    const teams = await fetch(`${server.baseURL}/teams/`, {
      headers: { authorization: `Bearer ${server.keys.valid}` },
    });
    expect(await teams.json()).toEqual({ overridden: true });
    const users = await fetch(`${server.baseURL}/users/`, {
      headers: { authorization: `Bearer ${server.keys.valid}` },
    });
    expect(users.status).toBe(200);
    await server.close();
  });
});
