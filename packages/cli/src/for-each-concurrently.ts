/**
 * Runs `task` for every item with at most `limit` running at once. After the first failure no new task
 * starts; the ones running are awaited (so nothing is left half-done), then the first error is thrown.
 *
 * @param items - what to work on.
 * @param limit - the most tasks at once (at least 1).
 * @param task - the work for one item.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
