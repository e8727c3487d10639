/**
 * Runs `fn` over `items` with at most `limit` calls in flight (a browser opens about six
 * connections per origin anyway), in order of the items. `isCancelled` stops starting new calls.
 * The first error is rethrown after the calls in flight have finished.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  isCancelled: () => boolean = () => false,
): Promise<R[]> {
  const results: R[] = [];
  const state: { failed: boolean; error: unknown } = { failed: false, error: undefined };
  // One iterator shared by the workers: each takes the next item when it is free.
  const queue = items.entries();
  const worker = async (): Promise<void> => {
    for (const [i, item] of queue) {
      if (state.failed || isCancelled()) return;
      try {
        results[i] = await fn(item, i);
      } catch (error) {
        if (!state.failed) Object.assign(state, { failed: true, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (state.failed) throw state.error;
  return results;
}
