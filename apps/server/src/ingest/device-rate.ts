// Per-device token bucket of the intake: a device may send `rate` messages (an MQTT message or
// an HTTP call, each carrying one report or a batch) a second, with bursts up to `burst`. One
// message costs one token whatever it carries, so a device emptying its buffer after a dead zone
// (batches of up to 1,000 reports) is not punished. Pure: the caller gives the time, and keeps
// the refusal in the intake log. Counted per process: a device is connected to one node at a time.

export interface DeviceRateOptions {
  /** Messages per second a device may send, sustained. */
  rate: number;
  /** Messages a device may send at once after a quiet spell. */
  burst: number;
}

/** What a refused message gets: when to try again and whether to write it to the intake log now. */
export interface RateRefusal {
  retryAfterMs: number;
  /** The intake-log line (set on the first refusal of a second; the others are only counted). */
  logReason: string | null;
}

export interface DeviceRateLimiter {
  /** Takes one message of the device at `now` (ms): null when admitted, else the refusal. */
  take(deviceId: string, now: number): RateRefusal | null;
  /** Devices with a bucket kept in memory (full buckets are dropped: forgetting them loses nothing). */
  size(): number;
}

interface Bucket {
  tokens: number;
  at: number;
  /** When a refusal was last written to the intake log, and how many were not written since. */
  loggedAt: number;
  unlogged: number;
}

/** At most one intake-log line per device and this many ms, so a flooding device cannot flood the log. */
const LOG_EVERY_MS = 1000;

export function deviceRateLimiter(opts: DeviceRateOptions): DeviceRateLimiter {
  if (!(opts.rate > 0) || !(opts.burst >= 1)) throw new Error('device rate and burst must be positive');
  const perMs = opts.rate / 1000;
  const fullAfterMs = opts.burst / perMs;
  const buckets = new Map<string, Bucket>();
  let takes = 0;

  /** Drops buckets that have refilled completely: a new one starts full, so this is lossless. */
  function sweep(now: number) {
    for (const [id, b] of buckets) if (now - b.at >= fullAfterMs && now - b.loggedAt >= LOG_EVERY_MS) buckets.delete(id);
  }

  return {
    take(deviceId, now) {
      if (++takes % 10_000 === 0) sweep(now);
      let b = buckets.get(deviceId);
      if (!b) {
        b = { tokens: opts.burst, at: now, loggedAt: -Infinity, unlogged: 0 };
        buckets.set(deviceId, b);
      } else {
        b.tokens = Math.min(opts.burst, b.tokens + Math.max(0, now - b.at) * perMs);
        b.at = Math.max(b.at, now);
      }
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return null;
      }
      const retryAfterMs = Math.ceil((1 - b.tokens) / perMs);
      if (now - b.loggedAt < LOG_EVERY_MS) {
        b.unlogged++;
        return { retryAfterMs, logReason: null };
      }
      const more = b.unlogged ? ` (${b.unlogged} more refused since the last entry)` : '';
      b.loggedAt = now;
      b.unlogged = 0;
      return { retryAfterMs, logReason: `over the device rate limit of ${opts.rate} messages/s (burst ${opts.burst}): message refused${more}` };
    },
    size: () => buckets.size,
  };
}
