/**
 * Runs `worker` over `items` with at most `concurrency` at a time, in order of start. Once `stopped()` is
 * true no new item starts; the ones not started are handed to `skip`.
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T) => Promise<void>,
  { stopped = () => false, skip = () => undefined }: { stopped?: () => boolean; skip?: (item: T) => void } = {},
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      if (stopped()) skip(item);
      else await worker(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
}
