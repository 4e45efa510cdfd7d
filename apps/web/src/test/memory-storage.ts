// An in-memory Web Storage for unit tests of browser-storage code under Node.
export class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
}

/** Gives `window.sessionStorage` and `window.localStorage` fresh empty stores. */
export function installStorage(): { session: MemoryStorage; local: MemoryStorage } {
  const session = new MemoryStorage();
  const local = new MemoryStorage();
  (globalThis as unknown as { window: unknown }).window = { sessionStorage: session, localStorage: local };
  return { session, local };
}
