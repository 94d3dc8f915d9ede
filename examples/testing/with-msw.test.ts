// Code that calls the API with `fetch` instead of the SDK is tested with msw: the mock server's handlers
// go into your own `setupServer`, next to handlers for the other services your code talks to. (The SDK
// sends through undici, which msw does not intercept: give the SDK `dispatcher: mock.dispatcher`, as in
// my-app.test.ts. Both can share one mock, and its state.)
import { createMockServer } from '@company-data/mock-server';
import { mswHandlers } from '@company-data/mock-server/msw';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { forwardLead } from './my-app.js';

const mock = createMockServer();
const msw = setupServer();
const leadWebhook = `${mock.apiRoot}/messaging-agent/webhook/${mock.tokens.lead}/`;

beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
// Every test starts from the mock's initial data and with only its handlers.
afterEach(() => {
  mock.reset();
  msw.resetHandlers();
});
afterAll(async () => {
  msw.close();
  await mock.close();
});

it('forwards a lead, and a repeat within 15 minutes joins the same conversation', async () => {
  msw.use(...mswHandlers(mock));
  await expect(forwardLead(leadWebhook, '(415) 555-0100', 'Grace Hopper')).resolves.toBe(true);
  mock.clock.advance(10 * 60 * 1000);
  await expect(forwardLead(leadWebhook, '415-555-0100', 'Grace Hopper')).resolves.toBe(true);
  const [conversation, ...others] = mock.conversations();
  expect(others).toEqual([]);
  expect(conversation?.phone).toBe('+14155550100');
  expect(conversation?.leads.map((lead) => lead.deduplicated)).toEqual([false, true]);
});

it('reports a lead the API refused', async () => {
  msw.use(...mswHandlers(mock));
  const deleted = `${mock.apiRoot}/messaging-agent/webhook/${mock.tokens.deletedLead}/`;
  await expect(forwardLead(deleted, '415-555-0100', 'Grace Hopper')).resolves.toBe(false);
  expect(mock.journal().map((entry) => entry.status)).toEqual([404]);
});

it('lets your own handlers override the mock for one test', async () => {
  msw.use(
    http.post(leadWebhook, () => HttpResponse.json({ error: 'Overloaded' }, { status: 503 })),
    ...mswHandlers(mock),
  );
  await expect(forwardLead(leadWebhook, '415-555-0100', 'Grace Hopper')).resolves.toBe(false);
  expect(mock.leads()).toEqual([]);
});
