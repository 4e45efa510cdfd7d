// Failed device sign-ins per client address (MQTT connect, HTTP intake). Each failure used to
// cost a row in the intake log, unbounded: one client sending wrong credentials wrote megabytes
// a second. Past `max` failures in a minute an address is refused at once: no database lookup,
// no log row, until the minute is over. Counted in this process (each node bounds its own
// writes); fixed one-minute windows, at most MAX_ADDRESSES remembered.

export const AUTH_FAILURE_WINDOW_MS = 60_000;
const MAX_ADDRESSES = 100_000;

export interface AuthFailureLimiter {
  /** Whether this address is refused now; with the milliseconds until it may try again. */
  blocked(address: string | undefined, now?: number): { retryAfterMs: number } | null;
  /** Counts a failed sign-in from this address. */
  failed(address: string | undefined, now?: number): void;
}

export function authFailureLimiter(max: number): AuthFailureLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (address: string, now: number) => {
    const w = windows.get(address);
    return w && now - w.start < AUTH_FAILURE_WINDOW_MS ? w : undefined;
  };
  return {
    blocked(address, now = Date.now()) {
      if (!address) return null;
      const w = current(address, now);
      return w && w.count >= max ? { retryAfterMs: w.start + AUTH_FAILURE_WINDOW_MS - now } : null;
    },
    failed(address, now = Date.now()) {
      if (!address) return;
      const w = current(address, now);
      if (w) {
        w.count++;
        return;
      }
      if (windows.size >= MAX_ADDRESSES) {
        for (const [a, x] of windows) if (now - x.start >= AUTH_FAILURE_WINDOW_MS) windows.delete(a);
        // Still full of live windows: the oldest entries go first (a Map keeps insertion order).
        for (const a of windows.keys()) {
          if (windows.size < MAX_ADDRESSES) break;
          windows.delete(a);
        }
      }
      windows.delete(address);
      windows.set(address, { start: now, count: 1 });
    },
  };
}
