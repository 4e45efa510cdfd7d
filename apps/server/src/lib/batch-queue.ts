// Work handed over one item at a time and done in batches, one batch at a time, in the order it
// came: what arrives while a batch runs makes up the next one. A batch that fails is logged by
// `onError` and the next one still runs.
export function batchQueue<T>(run: (batch: T[]) => Promise<void>, onError: (err: unknown, size: number) => void) {
  let queue: T[] = [];
  let running: Promise<void> | null = null;

  async function drain() {
    while (queue.length) {
      const batch = queue;
      queue = [];
      try {
        await run(batch);
      } catch (err) {
        onError(err, batch.length);
      }
    }
  }

  return {
    push(items: readonly T[]) {
      if (items.length === 0) return;
      queue.push(...items);
      running ??= drain().finally(() => (running = null));
    },
    /** The batch running now, if any. */
    get running(): Promise<void> | null {
      return running;
    },
    /** Resolves when everything pushed so far is done. */
    async settled() {
      while (running) await running;
    },
  };
}
