/**
 * Child processes of the benchmark: spawned with the TypeScript loader and (unless asked for the built
 * packages) the workspace source condition, tracked so every one is killed when the parent exits
 * (normally, on error or on Ctrl-C).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const live = new Set<ChildProcess>();
let hooksInstalled = false;

function killAll(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  live.clear();
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** Node flags every child needs: run TypeScript through tsx and resolve workspace packages to their sources. */
export const TS_NODE_ARGS = ['--conditions=@company-data/source', '--import', 'tsx'] as const;

/**
 * Node flags of a child that measures the built packages: tsx still runs the benchmark's own TypeScript,
 * but without the source condition workspace packages resolve to their `dist` files, as for users.
 */
export const BUILT_NODE_ARGS = ['--import', 'tsx'] as const;

/**
 * The tsconfig tsx reads in a child that measures the built packages: the base one, without the root
 * tsconfig's `paths`, which map the workspace packages to their sources (for the examples) and which tsx
 * applies before any package `exports` condition.
 */
const BUILT_TSCONFIG = fileURLToPath(new URL('../../tsconfig.base.json', import.meta.url));

/** Options of {@link spawnTs}. */
export interface SpawnOptions {
  /** Extra Node flags, e.g. `--expose-gc`. */
  nodeArgs?: readonly string[];
  /** Arguments after the script. */
  args?: readonly string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Resolve workspace packages to their built `dist` files instead of their sources (see {@link BUILT_NODE_ARGS}). */
  built?: boolean;
}

/**
 * Spawns a TypeScript entry point as a child process with an IPC channel; its stdout and stderr go to the
 * parent's stderr so progress lines never mix with anything the parent prints on stdout.
 */
export function spawnTs(script: string, options: SpawnOptions = {}): ChildProcess {
  installExitHooks();
  const child = spawn(
    process.execPath,
    [
      ...(options.built ? BUILT_NODE_ARGS : TS_NODE_ARGS),
      ...(options.nodeArgs ?? []),
      script,
      ...(options.args ?? []),
    ],
    {
      cwd: process.cwd(),
      env: { ...process.env, TSX_TSCONFIG_PATH: options.built ? BUILT_TSCONFIG : undefined, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  child.stdout?.pipe(process.stderr);
  child.stderr?.pipe(process.stderr);
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Kills a child and waits for it to be gone (bounded by `timeoutMs`). */
export async function stopChild(child: ChildProcess, timeoutMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await gone;
  clearTimeout(timer);
}

/** A request sent over IPC to a child. */
interface IpcRequest {
  id: number;
  cmd: string;
  args?: unknown;
}

/** A reply from a child. */
export interface IpcReply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

let nextId = 1;

/**
 * Sends a command to a child over IPC and waits for its reply (bounded by `timeoutMs`). Rejects when the
 * child answers with an error, exits first, or does not answer in time.
 */
export function ipcCall<T>(
  child: ChildProcess,
  cmd: string,
  args?: unknown,
  timeoutMs = 120_000,
): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: unknown) => {
      const reply = message as IpcReply;
      if (reply?.id !== id) return;
      cleanup();
      if (reply.ok) resolve(reply.value as T);
      else reject(new Error(reply.error ?? `${cmd} failed`));
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`child exited (${signal ?? code}) before answering ${cmd}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no answer to ${cmd} within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    const request: IpcRequest = { id, cmd, ...(args === undefined ? {} : { args }) };
    child.send(request);
  });
}

/**
 * Serves IPC commands inside a child: each handler's return value (or thrown error) goes back to the parent.
 * The child exits when the parent goes away, so an interrupted run leaves nothing behind.
 */
export function serveIpc(handlers: Record<string, (args: unknown) => unknown>): void {
  if (!process.send) throw new Error('this script must be started by the benchmark with an IPC channel');
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (message: unknown) => {
    const request = message as IpcRequest;
    const handler = handlers[request.cmd];
    let reply: IpcReply;
    try {
      if (!handler) throw new Error(`unknown command ${request.cmd}`);
      reply = { id: request.id, ok: true, value: await handler(request.args) };
    } catch (error) {
      reply = { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    process.send?.(reply);
  });
}
