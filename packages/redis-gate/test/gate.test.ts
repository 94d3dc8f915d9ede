// One process: what the gate does when there is no Redis at all, and the options it refuses.
import { createMockServer } from '@company-data/mock-server';
import { CompanyData, ConfigurationError, type Logger } from '@company-data/sdk';
import { describe, expect, it } from 'vitest';
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

describe('RedisRateGate without Redis', () => {
  it('falls back to its own gate and quota, says so once, never fails a call, waits at most timeoutMs', async () => {
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
      const started = performance.now();
      const calls = await client.calls.list({ page_size: 10 }).toArray();
      expect(calls).toHaveLength(50);
      expect(performance.now() - started).toBeLessThan(5_000);
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

  it('a pause still holds this process while Redis is away', async () => {
    const gate = new RedisRateGate({ redis: 'redis://127.0.0.1:9', timeoutMs: 200, name: 'alone' });
    try {
      gate.attach({ apiKey: undefined, logger: recordingLogger().logger });
      await gate.wait(undefined, () => new Error('aborted'));
      gate.pause(300);
      const started = performance.now();
      await gate.wait(undefined, () => new Error('aborted'));
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      expect(gate.name).toBe('alone');
    } finally {
      await gate.close();
    }
  });

  it('refuses an empty name, a timeout that is not positive, and a malformed quota', () => {
    expect(() => new RedisRateGate({ name: '' })).toThrow(ConfigurationError);
    expect(() => new RedisRateGate({ timeoutMs: 0 })).toThrow('`timeoutMs` must be a number above 0');
    expect(() => new RedisRateGate({ quota: { requests: 0, perSeconds: 1 } })).toThrow(ConfigurationError);
    const quota = { requests: 1, perSeconds: 1 };
    expect(() => new CompanyData({ gate: new RedisRateGate(), quota })).toThrow('pass the quota to the gate');
  });
});
