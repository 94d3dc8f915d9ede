/**
 * Waits real milliseconds, or rejects with the signal's reason as soon as it aborts (a client that went
 * away must not keep a timer, or a socket, alive).
 *
 * @param ms - how long.
 * @param signal - ends the wait early.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
