// Runs an example script as a user would: a child process, the workspace packages from their sources, in the
// environment of a fresh shell. Shared by the tests of the examples.
//
// The script runs compiled into one file with the sources it imports (scripts/lib/source-bundle.mjs, esbuild,
// the compiler tsx uses too), not through tsx's hooks: the same code, about 0.6 CPU-seconds less a process,
// and these tests start some forty. How a reader starts an example, tsx and `with-mock.mjs`, has tests of its
// own (examples.test.ts, `npx tsx examples/<file>` and `with-mock.mjs`), and check:packages runs the guides'
// `with-mock.mjs` commands as written.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceBundle } from '../../scripts/lib/source-bundle.mjs';

/** The repository's root: the examples run from there, as the README's commands do. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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

/** Starts `examples/<script>`, compiled with the sources it imports (see above). */
export function spawnExample(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): ChildProcess {
  return spawnNode([sourceBundle(join(ROOT, 'examples', script)), ...args], env);
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
