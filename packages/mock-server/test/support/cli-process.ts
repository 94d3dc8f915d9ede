import { spawn } from 'node:child_process';
import { type MockCli, mockCliFromSource, startMockCli } from '../../../../scripts/lib/mock-cli.mjs';
import type { ServerSummary } from '../../src/index.js';

/** What `company-data-mock --json` prints. */
export type CliSummary = ServerSummary & { pid: number; version: string; adminToken: string };

/** A `company-data-mock` running in a child process, as a harness in any language would run it. */
export type CliProcess = MockCli<CliSummary>;

/**
 * Starts the CLI from source with `--port 0 --json --parent-pid <this process>` plus `args` and waits for its
 * JSON line.
 *
 * @param stdin - 'pipe' to keep a stdin pipe open (with --exit-on-stdin-close; `stop` then closes it),
 *   'ignore' otherwise (`stop` sends SIGTERM).
 */
export function startCli(
  args: readonly string[] = [],
  stdin: 'pipe' | 'ignore' = 'ignore',
): Promise<CliProcess> {
  // --parent-pid: a test that fails before it stops its process (a timeout) leaves no process behind once
  // the test worker ends. A test that gives its own --parent-pid overrides it (the last one wins).
  return startMockCli<CliSummary>({
    args: ['--parent-pid', String(process.pid), ...args],
    stopBy: stdin === 'pipe' ? 'stdin' : 'signal',
  });
}

/**
 * Runs the CLI from source to its end (for commands that exit by themselves: errors, --version).
 *
 * @returns exit code, stdout and stderr.
 */
export function runCliToEnd(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command = '', ...argv] = mockCliFromSource();
  return runToEnd(command, [...argv, ...args]);
}

/**
 * Runs a command to its end, its output collected.
 *
 * @param env - its environment (default: this process's).
 * @returns exit code, stdout and stderr.
 */
export function runToEnd(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * An admin API request to a running `company-data-mock`, with its admin token; its JSON answer (throws, with
 * the answer, on an error status).
 */
export async function adminRequest(
  cli: CliProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${cli.summary.adminURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${cli.summary.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
