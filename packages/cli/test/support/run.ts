import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import type { MockServer } from '@company-data/mock-server';
import { sourceBundle } from '../../../../scripts/lib/source-bundle.mjs';
import { runCli } from '../../src/command/run.js';

/** What a run of `company-data` printed, and its exit code. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment that points the command at a mock server with its valid key. */
export function envFor(
  mock: Pick<MockServer, 'baseURL' | 'keys'> | { baseURL: string; keys: { valid: string } },
) {
  return { COMPANY_DATA_BASE_URL: mock.baseURL, COMPANY_DATA_API_KEY: mock.keys.valid };
}

/**
 * Runs `company-data` in this process (so coverage sees it) over a real socket. `clockOf` puts the SDK's
 * waits on a mock server's clock: a 429's wait then takes no real time.
 */
export async function runInProcess(
  argv: readonly string[],
  options: {
    env: Record<string, string | undefined>;
    cwd: string;
    tty?: boolean;
    clockOf?: MockServer;
    signal?: AbortSignal;
    /** Told of each write to stderr, as it happens (to act on a line). */
    onStderr?: (text: string) => void;
  },
): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        options.onStderr?.(text);
        return true;
      },
      isTTY: options.tty,
      columns: 100,
    },
    env: options.env,
    cwd: options.cwd,
    signal: options.signal,
    sleep: options.clockOf && (async (ms) => options.clockOf?.clock.advance(ms)),
    now: options.clockOf && (() => options.clockOf?.clock.nowMs() ?? 0),
  });
  return { code, stdout, stderr };
}

const BIN = fileURLToPath(new URL('../../src/entries/bin.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The command as a user runs it: a child process, compiled from the sources into one file as the published
 * command is (scripts/lib/source-bundle.mjs), so no build is needed. It runs in `cwd` (default: the package's
 * folder). `detached` puts it in a process group of its own, so a test signals the group
 * (`process.kill(-pid, …)`) as a terminal or a container does.
 */
export function spawnCli(argv: readonly string[], options: ChildOptions) {
  return spawn(process.execPath, [sourceBundle(BIN), ...argv], {
    cwd: options.cwd ?? PACKAGE_DIR,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
    uid: options.user?.uid,
    gid: options.user?.gid,
  });
}

/**
 * How a child runs: its environment over this process's, its folder (default: the package's), whether in a
 * process group of its own, and the user it runs as (default this one's).
 */
export interface ChildOptions {
  readonly env: Record<string, string | undefined>;
  readonly cwd?: string | undefined;
  readonly detached?: boolean | undefined;
  readonly user?: { readonly uid: number; readonly gid: number } | undefined;
}

/** Runs the command in a child process to its end. */
export async function runChild(argv: readonly string[], options: ChildOptions): Promise<Ran> {
  const child = spawnCli(argv, options);
  const [stdout, stderr, [code]] = await Promise.all([
    text(child.stdout),
    text(child.stderr),
    once(child, 'close'),
  ]);
  return { code: code as number | null, stdout, stderr };
}
