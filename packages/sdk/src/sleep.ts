/**
 * Waits `ms` milliseconds. The SDK calls it for every wait (rate-limit pauses and retry backoff), so tests
 * can pass one that advances a fake clock instead of letting real time pass.
 *
 * @param ms - how long to wait.
 * @param signal - when it aborts, the wait may end early (the SDK also stops waiting on its own).
 * @returns a promise resolved once the wait is over.
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real-time {@link Sleep}: a timer, cleared when the signal aborts. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * Settles like `promise`, or rejects with `onAbort()` as soon as `signal` aborts, whichever comes first.
 * The SDK wraps every wait in it so an injected sleep that ignores signals still cannot hold a call.
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
