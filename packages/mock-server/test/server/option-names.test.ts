// An option a call does not know is refused, not silently unused: a misspelt `seeed` would otherwise give the
// default seed and a test that passes for the wrong reason.
import { describe, expect, it } from 'vitest';
import { createMockServer, startMockServer } from '../../src/index.js';

const SERVER_OPTIONS =
  'seed, sizes, fixture, now, clock, quota, throttle, latency, faultRate, activity, onRequest, origin, maxBodyBytes, journalLimit, adminToken, onUnmatchedRequest, maxSessions, sessionIdleMs, state';

describe('option names', () => {
  it('refuses a misspelt option of createMockServer, naming the closest and every option', () => {
    expect(() => createMockServer({ seeed: 7 } as never)).toThrow(
      new RangeError(
        `createMockServer() has no option \`seeed\` (did you mean \`seed\`?); its options are ${SERVER_OPTIONS}`,
      ),
    );
    expect(() => createMockServer({ zzzz: 1 } as never)).toThrow(
      new RangeError(`createMockServer() has no option \`zzzz\`; its options are ${SERVER_OPTIONS}`),
    );
  });

  it('tells createMockServer, which starts no listener, that a port or host is startMockServer’s', () => {
    expect(() => createMockServer({ port: 4010 } as never)).toThrow(
      new RangeError(
        'createMockServer() has no option `port`: it answers in process, with no listener; startMockServer({ port }) serves over HTTP',
      ),
    );
  });

  it('refuses a misspelt option of startMockServer, which knows port and host besides', async () => {
    await expect(startMockServer({ prot: 0 } as never)).rejects.toThrow(
      new RangeError(
        `startMockServer() has no option \`prot\` (did you mean \`port\`?); its options are ${SERVER_OPTIONS}, port, host`,
      ),
    );
  });

  it("refuses a session's misspelt option, and one that is the server's", async () => {
    const server = createMockServer();
    expect(() => server.sessions.create({ coppy: true } as never)).toThrow(
      new RangeError(
        'sessions.create() has no option `coppy` (did you mean `copy`?); its options are seed, sizes, fixture, now, clock, quota, throttle, latency, faultRate, activity, journalLimit, adminToken, state, copy',
      ),
    );
    expect(() => server.sessions.create({ origin: 'http://elsewhere.test' } as never)).toThrow(
      new RangeError(
        "sessions.create() has no option `origin`: it is the server's, and a session takes the server's (origin, maxBodyBytes, onRequest, onUnmatchedRequest, maxSessions, sessionIdleMs)",
      ),
    );
    expect(server.sessions.size).toBe(0);
    // Known options, given as undefined too, are taken.
    const session = server.sessions.create({ seed: 3, clock: 'frozen', quota: undefined });
    expect(session.id).toBe('s1');
    await server.close();
  });
});
