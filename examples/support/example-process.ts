// Runs an example script as a user would: a child process, TypeScript through tsx, the workspace packages
// from their sources, in the environment of a fresh shell. Shared by the tests of the examples.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: the examples run from there, as the README's commands do. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** How the examples run from a clone: TypeScript through tsx, workspace packages from their sources. */
export const TSX = ['--conditions=@company-data/source', '--import', 'tsx'];

/** What a finished process left. */
export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a fresh shell: no COMPANY_DATA_* variable from ours leaks into the example. */
export function envWith(variables: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('COMPANY_DATA_')),
  );
  return { ...env, NO_COLOR: '1', ...variables };
}

/** Starts `node <args>` from the repository's root with stdout and stderr piped. */
export function spawnNode(args: readonly string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { cwd: ROOT, env: envWith(env), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Starts `examples/<script>` with tsx. */
export function spawnExample(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): ChildProcess {
  return spawnNode([...TSX, join('examples', script), ...args], env);
}

/**
 * Collects a process's output until it ends; it is killed after `timeoutMs`.
 *
 * @param onStderr - called with all of stderr so far on each new chunk (to act when a line shows up).
 */
export async function finish(
  child: ChildProcess,
  timeoutMs: number,
  onStderr?: (stderr: string) => void,
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
    onStderr?.(stderr);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

/** The non-empty lines of a text. */
export const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');
