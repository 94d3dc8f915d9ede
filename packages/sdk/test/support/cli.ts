import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { MockKeys, ServerSummary } from '@company-data/mock-server';

/** The `company-data-mock` command in a child process, reached over a loopback socket. */
export interface MockCli {
  readonly summary: ServerSummary & { pid: number; adminToken: string; keys: MockKeys };
  /** Sends an admin API request and returns its JSON answer. */
  admin(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
  /** Stops the process and waits for it to exit. */
  stop(): Promise<void>;
}

const packageDir = dirname(createRequire(import.meta.url).resolve('@company-data/mock-server/package.json'));

/**
 * Starts `company-data-mock --port 0 --json` (from the mock server's source, so no build is needed) with
 * extra arguments, and waits for its JSON line.
 */
export async function startMockCli(args: readonly string[] = []): Promise<MockCli> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--conditions=@company-data/source',
      '--import',
      'tsx',
      join(packageDir, 'src/bin.ts'),
      '--port',
      '0',
      '--json',
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const summary = await new Promise<MockCli['summary']>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(stdout.slice(0, newline)));
    });
    void exited.then(() => reject(new Error('company-data-mock exited before printing its address')));
  });
  return {
    summary,
    async admin(method, path, body) {
      const response = await fetch(`${summary.adminURL}${path}`, {
        method,
        headers: { authorization: `Bearer ${summary.adminToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return response.json();
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
