import type { Readable } from 'node:stream';

/** What ends a serving CLI process besides a signal. */
export interface LifetimeOptions {
  /** Stop when this stream ends (standard input, closed by the harness or with it). */
  readonly stdin?: Readable | undefined;
  /** Stop when the process with this pid is gone. */
  readonly parentPid?: number | undefined;
  /** How often the parent is checked, in ms (default 500). */
  readonly pollMs?: number | undefined;
  /** Whether a pid is alive (default: `process.kill(pid, 0)`). */
  readonly isAlive?: ((pid: number) => boolean) | undefined;
}

/**
 * Calls `stop` once, with the reason, when standard input ends or the parent process is gone, so a
 * harness in any language can tie the mock's life to its own, however it was started.
 *
 * @param options - what to watch.
 * @param stop - called at most once.
 * @returns a function that stops watching.
 */
export function watchLifetime(options: LifetimeOptions, stop: (reason: string) => void): () => void {
  let stopped = false;
  const once = (reason: string) => {
    if (stopped) return;
    stopped = true;
    dispose();
    stop(reason);
  };
  const { stdin, parentPid } = options;
  const onEnd = () => once('standard input closed');
  if (stdin) {
    stdin.on('end', onEnd);
    stdin.on('close', onEnd);
    stdin.on('error', onEnd);
    stdin.resume(); // read and discard: 'end' comes only to a flowing stream
  }
  const isAlive = options.isAlive ?? pidIsAlive;
  const timer =
    parentPid === undefined
      ? undefined
      : setInterval(() => {
          if (!isAlive(parentPid)) once(`process ${parentPid} is gone`);
        }, options.pollMs ?? 500);
  function dispose() {
    if (timer) clearInterval(timer);
    if (stdin) {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      stdin.off('error', onEnd);
      stdin.pause();
    }
  }
  return dispose;
}

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
