// Live rows collected between flushes: the newest row of each id wins, and every `flush` hands
// the collected batch to the listeners at once (a screen flushes on a timer, so a flood of
// pushed rows does not re-render it per message). Device states and alarms use it alike.
export class LiveBuffer<T extends { id: string }> {
  private pending = new Map<string, T>();
  private readonly listeners = new Set<(batch: ReadonlyMap<string, T>) => void>();

  push(rows: readonly T[]): void {
    for (const r of rows) this.pending.set(r.id, r);
  }

  get size(): number {
    return this.pending.size;
  }

  flush(): void {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    for (const l of this.listeners) l(batch);
  }

  subscribe(listener: (batch: ReadonlyMap<string, T>) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
