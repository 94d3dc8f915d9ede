import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerSummary } from '../../src/index.js';

/** What `company-data-mock --json` prints. */
export type CliSummary = ServerSummary & { pid: number; version: string; adminToken: string };

/** A `company-data-mock` running in a child process, as a harness in any language would run it. */
export interface CliProcess {
  readonly child: ChildProcess;
  /** The JSON line it printed (only with `--json`). */
  readonly summary: CliSummary;
  /** Everything written to stderr so far, line by line. */
  readonly stderr: string[];
  /** Resolves with the exit code once it exits. */
  readonly exited: Promise<number | null>;
  /** Sends SIGTERM (if still running) and waits for the exit. */
  stop(): Promise<number | null>;
  /**
   * Resolves once the lines written to stderr satisfy `done` (checked now and on each new chunk).
   *
   * @param within - rejects after this many ms, naming what it waited for.
   */
  stderrUntil(done: (lines: readonly string[]) => boolean, within?: number): Promise<void>;
}

const BIN = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));

/** The command that runs the CLI from source (no build needed). */
export function cliCommand(args: readonly string[]): [string, string[]] {
  return [process.execPath, ['--conditions=@company-data/source', '--import', 'tsx', BIN, ...args]];
}

/**
 * Starts the CLI with `--port 0 --json --parent-pid <this process>` plus `args` and waits for its JSON line.
 *
 * @param stdin - 'pipe' to keep a stdin pipe open (for --exit-on-stdin-close), 'ignore' otherwise.
 */
export async function startCli(
  args: readonly string[] = [],
  stdin: 'pipe' | 'ignore' = 'ignore',
): Promise<CliProcess> {
  // --parent-pid: a test that fails before it stops its process (a timeout) leaves no process behind once
  // the test worker ends. A test that gives its own --parent-pid overrides it (the last one wins).
  const [command, argv] = cliCommand(['--port', '0', '--json', '--parent-pid', String(process.pid), ...args]);
  const child = spawn(command, argv, { stdio: [stdin, 'pipe', 'pipe'] });
  const stderr: string[] = [];
  const waiters = new Set<() => void>();
  let partial = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    stderr.push(...lines);
    for (const check of waiters) check();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const summary = await new Promise<CliSummary>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(stdout.slice(0, newline)));
    });
    void exited.then((code) =>
      reject(new Error(`company-data-mock exited early with ${code}: ${stderr.join('\n')}`)),
    );
  });
  return {
    child,
    summary,
    stderr,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    stderrUntil: (done, within = 5_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!done(stderr)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`stderr did not show what was awaited within ${within} ms:\n${stderr.join('\n')}`),
          );
        }, within);
        waiters.add(check);
        check();
      }),
  };
}

/**
 * Runs the CLI to its end (for commands that exit by themselves: errors, --version).
 *
 * @returns exit code, stdout and stderr.
 */
export function runCliToEnd(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, argv] = cliCommand(args);
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
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
