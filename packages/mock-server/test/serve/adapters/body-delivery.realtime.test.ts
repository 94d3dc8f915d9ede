import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatcherAdapter, listenerAdapter, mswAdapter } from '../../support/adapters.js';

// Real time on purpose: a drip's pace is real milliseconds between the pieces of a body (FaultAction.drip),
// which each way in waits out itself; neither the mock's frozen clock nor fake timers can show that a
// client really receives the body late. Bounded: two 40 ms gaps for each way in. Everything else about body
// faults is tested without waiting (test/serve/engine/, and the conformance suite with a 1 ms drip).

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterAll(() => msw.close());

describe.each([dispatcherAdapter, listenerAdapter, mswAdapter(msw)])('a dripped body ($name)', (adapter) => {
  it('arrives whole, no sooner than its pieces are paced', async () => {
    const h = await adapter.start({ clock: 'frozen' });
    try {
      const headers = { authorization: `Bearer ${h.server.keys.valid}` };
      const whole = (await h.send({ path: '/v1/teams/', headers })).text;
      h.server.injectFault({ path: '/v1/teams/', drip: { bytes: Math.ceil(whole.length / 3), everyMs: 40 } });
      const startedAt = performance.now();
      const dripped = await h.send({ path: '/v1/teams/', headers });
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(70);
      expect(dripped.status).toBe(200);
      expect(dripped.text).toBe(whole);
    } finally {
      await h.close();
    }
    expect(adapter.takeFailures?.() ?? []).toEqual([]);
  });
});
