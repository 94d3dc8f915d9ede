import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatRequestJson, formatRequestText, type RequestEvent } from '../../../src/index.js';
import { type EngineHarness, engineHarness, useEngine } from '../../support/engine.js';

// Faults, latency and fault rates, the journal, request events and reset, run once against
// server.handle() with a frozen clock; injected delays and latency wait on fake timers. What a client of
// each way in sees of a drop, a cut or a drip, and of giving up during a delay, is the conformance suite's.

const MINUTE = 60_000;

const { h, auth, get, post, audiencePath, leadPath } = useEngine();

/** Fakes the timers an injected delay or a latency profile waits on (the server's clock is frozen anyway). */
const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
afterEach(() => {
  vi.useRealTimers();
});

/** Settles a request that waits on fake timers, by running them. */
async function withTimers<T>(pending: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return pending;
}

/** A promise that says whether it has settled yet. */
function watch<T>(promise: Promise<T>): { readonly promise: Promise<T>; readonly settled: boolean } {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  return {
    promise,
    get settled() {
      return settled;
    },
  };
}

describe('engine: faults, latency, the journal and request events', () => {
  describe('faults', () => {
    it('answers an injected status for the next matching requests only', async () => {
      h.server.injectFault({ path: '/v1/teams/', status: 503, times: 2, headers: { 'Retry-After': '1' } });
      const first = await get('/v1/teams/');
      expect(first.status).toBe(503);
      expect(first.headers['retry-after']).toBe('1');
      expect(first.json).toEqual({ error: { detail: 'Injected fault.' } });
      expect((await get('/v1/users/')).status).toBe(200);
      expect((await get('/v1/teams/')).status).toBe(503);
      expect((await get('/v1/teams/')).status).toBe(200);
      expect(h.server.journal().map((entry) => entry.outcome)).toEqual([
        'fault_injected',
        'served',
        'fault_injected',
        'served',
      ]);
    });

    it('matches by method and pattern, with a custom body', async () => {
      h.server.injectFault({ method: 'post', path: /webhook/, status: 500, body: 'boom' });
      expect((await get('/v1/teams/')).status).toBe(200);
      const response = await post(leadPath(), { phone_number: '415-555-0107' });
      expect(response.status).toBe(500);
      expect(response.text).toBe('boom');
      h.server.injectFault({ status: 502, body: { custom: true } });
      expect((await get('/v1/teams/')).json).toEqual({ custom: true });
    });

    it('delays, then answers the real response', async () => {
      fakeTimers();
      h.server.injectFault({ path: '/v1/teams/', delayMs: 5, headers: { 'X-Delayed': 'yes' } });
      const pending = watch(get('/v1/teams/'));
      await vi.advanceTimersByTimeAsync(4);
      expect(pending.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(pending.settled).toBe(true);
      const response = await pending.promise;
      expect(response.status).toBe(200);
      expect(response.headers['x-delayed']).toBe('yes');
    });

    // Each adapter's part, telling the engine its client went away during a delay, is the conformance suite's.
    it('ends an injected delay at once for a client already gone, and journals it with the fault', async () => {
      fakeTimers();
      h.server.injectFault({ path: '/v1/teams/', delayMs: 60_000 });
      const gone = AbortSignal.abort(new Error('client went away'));
      const pending = watch(h.call({ path: '/v1/teams/', headers: auth(), signal: gone }));
      await vi.advanceTimersByTimeAsync(0);
      expect(pending.settled).toBe(true);
      expect(await pending.promise).toEqual({ dropped: true });
      expect(vi.getTimerCount()).toBe(0);
      expect(h.server.journal()).toEqual([
        expect.objectContaining({ status: null, outcome: 'client_aborted', fault: { delayMs: 60_000 } }),
      ]);
    });

    it('drops the connection', async () => {
      h.server.injectFault({ path: '/v1/teams/', drop: true });
      // What a client then sees is each adapter's part (the conformance suite).
      expect(await h.call({ path: '/v1/teams/', headers: auth() })).toEqual({ dropped: true });
      expect(h.server.journal()[0]).toMatchObject({ status: null, outcome: 'fault_injected' });
      expect((await get('/v1/teams/')).status).toBe(200);
    });

    it('refuses invalid faults', () => {
      expect(() => h.server.injectFault({ times: 0 })).toThrow(RangeError);
      expect(() => h.server.injectFault({ status: 42 })).toThrow(RangeError);
      expect(() => h.server.injectFault({ delayMs: -1 })).toThrow(RangeError);
      expect(() => h.server.injectFault({ drip: { bytes: 0, everyMs: 10 } })).toThrow(RangeError);
      expect(() => h.server.injectFault({ cutAfterBytes: -1 })).toThrow(RangeError);
    });
  });

  describe('body faults', () => {
    // The engine says how to write the body; each adapter writing it so (late, or cut) is the conformance
    // suite's part, and the drip's real-time pace is body-delivery.realtime.test.ts's.
    it('drips a body: the whole answer, late', async () => {
      const whole = (await get('/v1/teams/')).text;
      const drip = { bytes: Math.ceil(whole.length / 3), everyMs: 40 };
      h.server.injectFault({ path: '/v1/teams/', drip });
      const dripped = await get('/v1/teams/');
      expect(dripped.status).toBe(200);
      expect(dripped.text).toBe(whole);
      expect(dripped.delivery).toEqual({ drip });
      expect(h.server.journal()[1]).toMatchObject({ status: 200, outcome: 'fault_injected' });
    });

    it('cuts a body after some bytes, always at least one byte short of the whole', async () => {
      h.server.injectFault({ path: '/v1/teams/', cutAfterBytes: 10 });
      const cut = await get('/v1/teams/');
      expect(cut.status).toBe(200);
      expect(cut.delivery).toEqual({ cutAfterBytes: 10 });
      expect(h.server.journal()[0]).toMatchObject({
        status: 200,
        outcome: 'fault_injected',
        fault: { cutAfterBytes: 10 },
      });
      const whole = await get('/v1/teams/');
      expect(whole.status).toBe(200);
      expect(whole.delivery).toBeUndefined();
      h.server.injectFault({ path: '/v1/teams/', cutAfterBytes: 10_000_000 });
      expect((await get('/v1/teams/')).delivery).toEqual({
        cutAfterBytes: Buffer.byteLength(whole.text) - 1,
      });
    });

    it('answers a 200 whose JSON is truncated, after processing the request', async () => {
      const whole = (await get('/v1/teams/')).text;
      h.server.injectFault({ path: '/v1/teams/', malformedJson: true });
      const broken = await get('/v1/teams/');
      expect(broken.status).toBe(200);
      expect(broken.headers['content-type']).toMatch(/^application\/json/);
      expect(whole.startsWith(broken.text)).toBe(true);
      expect(broken.text.length).toBeLessThan(whole.length);
      expect(() => JSON.parse(broken.text)).toThrow(SyntaxError);
      h.server.injectFault({ method: 'POST', malformedJson: true });
      expect((await post(audiencePath(), { phone: '415-555-0150' })).status).toBe(200);
      expect(
        h.server.members(h.server.tokens.audience).some((member) => member.phone === '+14155550150'),
      ).toBe(true);
    });

    it("answers a proxy's HTML error page", async () => {
      h.server.injectFault({ path: '/v1/teams/', htmlPage: true });
      const page = await get('/v1/teams/');
      expect(page.status).toBe(502);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toMatch(/<title>502 Bad Gateway<\/title>/);
      h.server.injectFault({ path: '/v1/teams/', htmlPage: true, status: 504 });
      expect((await get('/v1/teams/')).text).toMatch(/504 Gateway Timeout/);
    });
  });

  describe('latency and fault rates', () => {
    it('waits as the latency profile says, per route, and journals the wait', async () => {
      fakeTimers();
      h.server.setLatency([{ path: '/v1/teams/', latency: { fixedMs: 40 } }]);
      const teams = watch(get('/v1/teams/'));
      await vi.advanceTimersByTimeAsync(39);
      expect(teams.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await teams.promise).status).toBe(200);
      expect((await get('/v1/users/')).status).toBe(200);
      expect(h.server.journal().map((entry) => entry.latencyMs)).toEqual([40, 0]);
      h.server.setLatency(false);
      await get('/v1/teams/');
      expect(h.server.journal()[2]?.latencyMs).toBe(0);
    });

    it('fails a seeded share of requests with the mix, up to the cap; the same seed repeats it', async () => {
      fakeTimers();
      const run = async () => {
        h.server.clearJournal();
        h.server.setLatency({ minMs: 0, maxMs: 3 });
        h.server.setFaultRate({ rate: 0.5, mix: [{ status: 503 }, { status: 500, weight: 2 }], max: 6 });
        for (let index = 0; index < 20; index++) await withTimers(get('/v1/teams/'));
        return h.server.journal().map((entry) => [entry.status, entry.latencyMs, entry.fault]);
      };
      const first = await run();
      const faulted = first.filter(([, , fault]) => fault !== null);
      expect(faulted).toHaveLength(6);
      expect(faulted.every(([, , fault]) => (fault as { fromRate?: boolean }).fromRate === true)).toBe(true);
      expect(new Set(faulted.map(([status]) => status))).toEqual(new Set([500, 503]));
      expect(await run()).toEqual(first);
      h.server.reseed({ seed: 99 });
      expect(await run()).not.toEqual(first);
    });

    it('lets an armed next-N fault win, without shifting the rate', async () => {
      const run = async (armed: boolean) => {
        h.server.clearJournal();
        h.server.setFaultRate({ rate: 0.5, mix: [{ status: 503 }] });
        if (armed) h.server.injectFault({ status: 409 });
        for (let index = 0; index < 8; index++) await get('/v1/teams/');
        return h.server.journal().map((entry) => entry.status);
      };
      const plain = await run(false);
      const withArmed = await run(true);
      expect(withArmed[0]).toBe(409);
      expect(withArmed.slice(1)).toEqual(plain.slice(1));
      expect(h.server.journal()[0]?.fault).toEqual({ status: 409 });
    });

    it('takes both from the options, and reset starts their streams again', async () => {
      fakeTimers();
      const options = {
        latency: { medianMs: 2, p99Ms: 8 },
        faultRate: { rate: 0.3 },
      } as const;
      const sequence = async (harness: EngineHarness) => {
        const outcomes: string[] = [];
        for (let index = 0; index < 15; index++) {
          const answer = await withTimers(
            harness.call({
              path: '/v1/users/',
              headers: { authorization: `Bearer ${harness.server.keys.valid}` },
            }),
          );
          // What a client would see: a drop or a cut body fails the request.
          outcomes.push(
            answer.dropped || answer.delivery?.cutAfterBytes !== undefined ? 'failed' : String(answer.status),
          );
        }
        const journal = harness.server.journal().map((entry) => [entry.latencyMs, entry.fault]);
        return { outcomes, journal };
      };
      const first = engineHarness({ ...options, seed: 5 });
      const a = await sequence(first);
      expect(a.journal.some(([, fault]) => fault !== null)).toBe(true);
      expect(a.journal.some(([latencyMs]) => (latencyMs as number) > 0)).toBe(true);
      first.server.reset();
      expect(await sequence(first)).toEqual(a);
      await first.close();
      const second = engineHarness({ ...options, seed: 5 });
      expect(await sequence(second)).toEqual(a);
      await second.close();
    });

    it('refuses bad profiles and rates', () => {
      expect(() => h.server.setLatency({ minMs: 9, maxMs: 1 })).toThrow(RangeError);
      expect(() => h.server.setLatency({ medianMs: 10, p99Ms: 5 })).toThrow(RangeError);
      expect(() => h.server.setFaultRate({ rate: 2 })).toThrow(RangeError);
      expect(() => h.server.setFaultRate({ rate: 0.1, mix: [] })).toThrow(RangeError);
      expect(() => h.server.setFaultRate({ rate: 0.1, max: 0 })).toThrow(RangeError);
    });
  });

  describe('request events', () => {
    it('reports every request to onRequest, safe to log, with the real time it took', async () => {
      // durationMs is real time (performance.now), frozen here: it moves only when the test advances it.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const events: RequestEvent[] = [];
      const logged = engineHarness({ onRequest: (event) => events.push(event) });
      try {
        const key = { authorization: `Bearer ${logged.server.keys.valid}` };
        await logged.send({ path: '/v1/calls/?page_size=2', headers: key });
        await logged.send({
          method: 'POST',
          path: `/messaging-agent/webhook/${logged.server.tokens.lead}/`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ phone_number: '415-555-0100' }),
        });
        logged.server.injectFault({ path: '/v1/teams/', status: 503 });
        await logged.send({ path: '/v1/teams/', headers: key });
        await logged.send({ path: '/openapi.json' });
        await logged.send({
          path: '/__admin/clock',
          headers: { authorization: `Bearer ${logged.server.adminToken}` },
        });
        expect(events.map(({ durationMs, ...event }) => event)).toEqual([
          {
            at: '2026-06-01T12:00:00.000Z',
            method: 'GET',
            path: '/v1/calls/',
            query: 'page_size=2',
            status: 200,
            outcome: 'served',
            keyName: 'Full access',
            fault: null,
            latencyMs: 0,
            detail: null,
          },
          expect.objectContaining({
            path: '/messaging-agent/webhook/{token}/',
            status: 200,
            outcome: 'lead_queued',
          }),
          expect.objectContaining({
            path: '/v1/teams/',
            status: 503,
            outcome: 'fault_injected',
            fault: { status: 503 },
            detail: 'Injected fault.',
          }),
          expect.objectContaining({
            path: '/openapi.json',
            status: 200,
            outcome: 'openapi',
            keyName: null,
          }),
          expect.objectContaining({ path: '/__admin/clock', status: 200, outcome: 'admin' }),
        ]);
        expect(events.map((event) => event.durationMs)).toEqual([0, 0, 0, 0, 0]);
        // A wait is in the duration, the latency profile's (also latencyMs) or an injected delay's (not latencyMs).
        logged.server.setLatency([{ path: '/v1/teams/', latency: { fixedMs: 40 } }]);
        const slow = logged.send({ path: '/v1/teams/', headers: key });
        await vi.advanceTimersByTimeAsync(40);
        expect((await slow).status).toBe(200);
        logged.server.injectFault({ path: '/v1/users/', delayMs: 25 });
        const delayed = logged.send({ path: '/v1/users/', headers: key });
        await vi.advanceTimersByTimeAsync(25);
        expect((await delayed).status).toBe(200);
        expect(events.slice(5)).toMatchObject([
          { path: '/v1/teams/', latencyMs: 40, durationMs: 40 },
          { path: '/v1/users/', latencyMs: 0, durationMs: 25 },
        ]);
        // The log lines show it to 0.1 ms.
        expect(formatRequestText(events[5] as RequestEvent)).toMatch(/ 200 served 40\.0ms latency=40ms key=/);
        const uneven = { ...(events[6] as RequestEvent), durationMs: 25.06 };
        expect(formatRequestText(uneven)).toMatch(/ 200 served 25\.1ms key=/);
        expect(JSON.parse(formatRequestJson(uneven))).toMatchObject({ durationMs: 25.1 });
        const text = events.map((event) => formatRequestText(event)).join('\n');
        expect(text).not.toContain(logged.server.keys.valid);
        expect(text).not.toContain(logged.server.tokens.lead);
      } finally {
        await logged.close();
      }
    });
  });

  describe('journal and reset', () => {
    it('records the fault a request met', async () => {
      h.server.injectFault({ path: '/v1/teams/', status: 503, headers: { 'Retry-After': '2' } });
      await get('/v1/teams/');
      await get('/v1/teams/');
      expect(h.server.journal().map((entry) => [entry.status, entry.outcome, entry.fault])).toEqual([
        [503, 'fault_injected', { status: 503, headers: { 'Retry-After': '2' } }],
        [200, 'served', null],
      ]);
    });

    it('records what the client sent, with the key redacted', async () => {
      await get('/v1/users/?page=2&page_size=5');
      await post(audiencePath(), { email: 'journal@example.com' }, { 'x-trace': 'abc' });
      const [list, webhook] = h.server.journal();
      expect(list).toMatchObject({
        method: 'GET',
        path: '/v1/users/',
        query: { page: '2', page_size: '5' },
        status: 200,
        outcome: 'served',
        keyName: 'Full access',
        at: '2026-06-01T12:00:00.000Z',
      });
      expect(list?.headers.authorization).toBe('Bearer [REDACTED]');
      expect(JSON.stringify(list)).not.toContain(h.server.keys.valid);
      expect(webhook).toMatchObject({
        method: 'POST',
        status: 201,
        outcome: 'member_created',
        body: { email: 'journal@example.com' },
        keyName: null,
      });
      expect(webhook?.headers['x-trace']).toBe('abc');
    });

    it('records refusals with their outcome', async () => {
      await get('/v1/users/', 'svc_live_nope');
      await get('/v1/calls/', h.server.keys.limited);
      await get('/v1/users/?page=0');
      await get('/v1/nothing/');
      expect(h.server.journal().map((entry) => entry.outcome)).toEqual([
        'unauthorized',
        'forbidden',
        'invalid_request',
        'not_found',
      ]);
    });

    it('reset restores data, keys, clock and throttle, and forgets faults and the journal', async () => {
      const key = h.server.createKey();
      h.server.revokeKey(h.server.keys.valid);
      h.server.clock.advance(MINUTE);
      h.server.setQuota({ requests: 1, perSeconds: 60 });
      h.server.injectFault({ status: 500, times: 5 });
      await post(audiencePath(), { email: 'gone@example.com' });
      h.server.reset();
      expect(h.server.clock.now().toISOString()).toBe('2026-06-01T12:00:00.000Z');
      expect(h.server.members(h.server.tokens.audience)).toHaveLength(0);
      expect(h.server.journal()).toHaveLength(0);
      expect((await get('/v1/users/', key)).status).toBe(401);
      expect((await get('/v1/users/')).status).toBe(200);
      expect((await get('/v1/users/')).status).toBe(200);
    });
  });
});
