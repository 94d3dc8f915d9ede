import type { MockKeys, ServerSummary } from '@company-data/mock-server';
import { startMockCli as startCommand } from '../../../../scripts/lib/mock-cli.mjs';

/** The `company-data-mock` command in a child process, reached over a loopback socket. */
export interface MockCli {
  readonly summary: ServerSummary & { pid: number; adminToken: string; keys: MockKeys };
  /** Sends an admin API request and returns its JSON answer. */
  admin(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
  /** Stops the process and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `company-data-mock --port 0 --json` (from the mock server's source, so no build is needed) with
 * extra arguments, and waits for its JSON line.
 */
export async function startMockCli(args: readonly string[] = []): Promise<MockCli> {
  const cli = await startCommand<MockCli['summary']>({ args });
  const { summary } = cli;
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
      await cli.stop();
    },
  };
}
