// Whether a process is still there, for the checks that a stopped command leaves nothing behind.
import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is a running process. An exited child that nobody has reaped yet (a zombie: its parent was
 * killed, and the machine's first process may reap it late) counts as gone: it runs nothing and holds no port.
 *
 * @param {number} pid
 * @returns {boolean}
 */
export function isRunning(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
  try {
    // Linux: the state is the field after the command's name in parentheses; Z is a zombie.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/**
 * Resolves once `pid` is no longer running; rejects after `withinMs`.
 *
 * @param {number} pid
 * @param {string} what - the process, for the message.
 * @param {number} [withinMs]
 * @returns {Promise<void>}
 */
export async function gone(pid, what, withinMs = 5_000) {
  const deadline = Date.now() + withinMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) throw new Error(`${what} (pid ${pid}) still runs ${withinMs / 1000} s later`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
