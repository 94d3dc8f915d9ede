// Waiting in the tests without real time: in turns of the event loop (I/O runs between them, no timer), each
// wait bounded by a number of turns, so a condition that never comes fails the test at once with its name,
// not at the test's own timeout. A busy machine takes the same turns, only slower: no bound here is in ms.

/** The most turns {@link until} waits by default: far more than any condition of these tests takes. */
export const MAX_TURNS = 10_000;

/** One turn of the event loop: pending I/O and callbacks run, no timer is waited for. */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Turns of the event loop, for anything still under way to show.
 *
 * @param count - how many.
 */
export async function turns(count: number): Promise<void> {
  for (let done = 0; done < count; done++) await turn();
}

/**
 * Waits, a turn at a time, until `ready()` holds.
 *
 * @param ready - the condition; its source names it in the failure.
 * @param maxTurns - the most turns to wait.
 * @throws when `ready()` still fails after `maxTurns` turns.
 */
export async function until(ready: () => boolean, maxTurns = MAX_TURNS): Promise<void> {
  for (let done = 0; done < maxTurns; done++) {
    if (ready()) return;
    await turn();
  }
  if (!ready()) throw new Error(`not ready after ${maxTurns} turns of the event loop: ${String(ready)}`);
}
