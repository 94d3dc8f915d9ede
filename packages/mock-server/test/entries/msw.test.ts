import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mswHandlers } from '../../src/entries/msw.js';
import { createMockServer } from '../../src/index.js';
import { mswAdapter } from '../support/adapters.js';
import { describeConformance } from '../support/conformance.js';

// One msw interceptor for the file, as a user would set it up; each test installs a fresh mock's handlers.
const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterAll(() => msw.close());

describeConformance(mswAdapter(msw));

describe('msw handlers', () => {
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
