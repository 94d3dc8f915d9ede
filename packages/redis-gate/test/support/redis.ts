import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../../scripts/lib/free-port.mjs';

/** A `redis-server` of the test's own, on 127.0.0.1, persisting nothing. */
export interface RedisServer {
  readonly url: string;
  readonly pid: number;
  /** Kills it (SIGKILL: as if the machine went away) and waits for it to exit. */
  kill(): Promise<void>;
  /** Stops it (SIGTERM) and waits for it to exit; removes its folder. Idempotent. */
  stop(): Promise<void>;
}

const STARTUP_MS = 10_000;

/** Starts `redis-server` on a free loopback port with a temporary directory, and waits until it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'company-data-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = once(child, 'exit');
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), STARTUP_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(
          `redis-server could not start (is it installed? node scripts/system-packages.mjs installs it): ${error.message}`,
        ),
      );
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited:\n${output}`));
    });
  });
  const pid = child.pid as number;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) process.kill(pid, signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    pid,
    kill: () => end('SIGKILL'),
    async stop() {
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
