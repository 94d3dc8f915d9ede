// One process: what the gate does when there is no Redis at all, and the options it refuses.
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { createMockServer } from '@company-data/mock-server';
import { CompanyData, ConfigurationError, type Logger } from '@company-data/sdk';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { defaultGateName, RedisRateGate } from '../src/index.js';

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const logger = Object.fromEntries(
    ['debug', 'info', 'warn', 'error'].map((level) => [
      level,
      (message: string) => lines.push({ level, message }),
    ]),
  ) as unknown as Logger;
  return { lines, logger };
}

/** A promise that says whether it has settled yet. */
function watch(promise: Promise<unknown>): { readonly settled: boolean } {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  return {
    get settled() {
      return settled;
    },
  };
}

/**
 * The gate's clock: its own timers (how long it waits for Redis) and its process gate's (a pause) are
 * `setTimeout`s on `Date.now`, faked here so that a test moves time by hand. Restored when the test ends.
 */
function fakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

/** A Redis that accepts connections and never answers, closed when the test ends. */
async function silentRedis(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });
  const { port } = server.address() as { port: number };
  return `redis://127.0.0.1:${port}`;
}

describe('RedisRateGate without Redis', () => {
  it('falls back to its own gate and quota, says so once, never fails a call', async () => {
    const mock = createMockServer({ sizes: { calls: 50 } });
    // Port 9 (discard) on loopback: nothing listens, so every connection is refused.
    const gate = new RedisRateGate({
      redis: 'redis://127.0.0.1:9',
      timeoutMs: 300,
      quota: { requests: 100, perSeconds: 1 },
    });
    const { lines, logger } = recordingLogger();
    const client = new CompanyData({
      apiKey: mock.keys.valid,
      baseURL: mock.baseURL,
      dispatcher: mock.dispatcher,
      gate,
      logger,
    });
    try {
      const calls = await client.calls.list({ page_size: 10 }).toArray();
      expect(calls).toHaveLength(50);
      expect(gate.shared).toBe(false);
      const warnings = lines.filter((line) => line.level === 'warn');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain(`company-data shared gate "${gate.name}": Redis unreachable`);
      // The name was derived from the key, which appears nowhere.
      expect(gate.name).toBe(defaultGateName(mock.keys.valid));
      expect(gate.name).toMatch(/^key-[0-9a-f]{16}$/);
      expect(JSON.stringify(lines)).not.toContain(mock.keys.valid);
    } finally {
      await client.close();
      await gate.close();
    }
  });

  it('waits for a Redis that never answers timeoutMs and no longer, then falls back', async () => {
    const redis = await silentRedis();
    fakeClock();
    const gate = new RedisRateGate({ redis, timeoutMs: 300, name: 'silent' });
    const { lines, logger } = recordingLogger();
    try {
      gate.attach({ apiKey: undefined, logger });
      const first = watch(gate.wait(undefined, () => new Error('aborted')));
      await vi.advanceTimersByTimeAsync(299);
      expect(first.settled).toBe(false);
      expect(lines).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(first.settled).toBe(true);
      expect(gate.shared).toBe(false);
      expect(lines).toEqual([
        {
          level: 'warn',
          message:
            'company-data shared gate "silent": Redis unreachable (no answer within 300 ms); this process keeps its own gate until Redis is back',
        },
      ]);
      // Fallen back, a request waits for Redis no more: it passes with no time passing.
      const next = watch(gate.wait(undefined, () => new Error('aborted')));
      await vi.advanceTimersByTimeAsync(0);
      expect(next.settled).toBe(true);
    } finally {
      await gate.close();
    }
  });

  it('a pause still holds this process while Redis is away', async () => {
    const gate = new RedisRateGate({ redis: 'redis://127.0.0.1:9', timeoutMs: 200, name: 'alone' });
    try {
      gate.attach({ apiKey: undefined, logger: recordingLogger().logger });
      await gate.wait(undefined, () => new Error('aborted'));
      expect(gate.shared).toBe(false);
      fakeClock();
      gate.pause(300);
      const held = watch(gate.wait(undefined, () => new Error('aborted')));
      await vi.advanceTimersByTimeAsync(299);
      expect(held.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(held.settled).toBe(true);
      expect(gate.name).toBe('alone');
    } finally {
      await gate.close();
    }
  });

  it('refuses an empty name, a timeout that is not positive, and a malformed quota', () => {
    expect(() => new RedisRateGate({ name: '' })).toThrow(ConfigurationError);
    expect(() => new RedisRateGate({ timeoutMs: 0 })).toThrow('`timeoutMs` must be a number above 0');
    expect(() => new RedisRateGate({ quota: { requests: 0, perSeconds: 1 } })).toThrow(ConfigurationError);
    expect(() => new RedisRateGate({ quota: { requests: 100, perSecond: 60 } as never })).toThrow(
      'Unknown quota field `perSecond` (did you mean `perSeconds`?): expected requests, perSeconds or marginMs',
    );
    const quota = { requests: 1, perSeconds: 1 };
    expect(() => new CompanyData({ gate: new RedisRateGate(), quota })).toThrow('pass the quota to the gate');
  });
});
