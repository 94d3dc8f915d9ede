/** Parent-side handle on a server hosted in its own child process (see `server-host.ts`). */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ipcCall, spawnTs, stopChild } from './children.js';
import type { ProfileSummary } from './profile.js';
import type { StartArgs, Started } from './server-host.js';

const HOST = fileURLToPath(new URL('./server-host.ts', import.meta.url));

/** A running server in a child process. */
export interface HostedServer extends Started {
  /** The kind of server. */
  kind: StartArgs['kind'];
  /** The child process. */
  child: ChildProcess;
  /** Sends a command to the host. */
  call<T>(cmd: string, args?: unknown, timeoutMs?: number): Promise<T>;
  /** Starts a CPU profile inside the server process. */
  profileStart(): Promise<void>;
  /** Stops the server's CPU profile and summarises it. */
  profileStop(): Promise<ProfileSummary>;
  /** CPU time used by the server process so far, and a wall-clock reading, in microseconds. */
  cpu(): Promise<{ cpuMicros: number; wallMicros: number }>;
  /** Closes the server and ends the child process. */
  close(): Promise<void>;
}

/**
 * Starts a server of the given kind in a fresh child process and waits until it listens.
 *
 * @param args - kind and options of the server.
 * @param nodeArgs - extra Node flags for the child (e.g. a larger heap for a million calls).
 */
export async function startHosted(args: StartArgs, nodeArgs: readonly string[] = []): Promise<HostedServer> {
  const child = spawnTs(HOST, { nodeArgs });
  try {
    const started = await ipcCall<Started>(child, 'start', args, 300_000);
    return {
      ...started,
      kind: args.kind,
      child,
      call: (cmd, callArgs, timeoutMs) => ipcCall(child, cmd, callArgs, timeoutMs),
      profileStart: async () => {
        await ipcCall(child, 'profileStart');
      },
      profileStop: () => ipcCall<ProfileSummary>(child, 'profileStop'),
      cpu: () => ipcCall(child, 'cpu'),
      close: async () => {
        await ipcCall(child, 'close', undefined, 10_000).catch(() => undefined);
        await stopChild(child);
      },
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
