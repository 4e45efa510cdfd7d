// The per-device token bucket: a burst goes through at once, then the sustained rate; each
// device has its own bucket; refusals say when to try again and reach the intake log at most
// once a second with the count of the ones in between.
import { describe, expect, it } from 'vitest';
import { deviceRateLimiter } from './device-rate.ts';

describe('device rate limiter', () => {
  it('admits a burst, then the rate, and refuses the excess with the wait', () => {
    const limiter = deviceRateLimiter({ rate: 2, burst: 5 });
    const t0 = 1_000_000;
    for (let i = 0; i < 5; i++) expect(limiter.take('A', t0)).toBeNull();
    const refused = limiter.take('A', t0);
    expect(refused).toMatchObject({ retryAfterMs: 500 });
    expect(refused!.logReason).toBe('over the device rate limit of 2 messages/s (burst 5): message refused');
    // Half a second later one token has come back, not two.
    expect(limiter.take('A', t0 + 500)).toBeNull();
    expect(limiter.take('A', t0 + 500)).not.toBeNull();
    // Sustained at the rate: every message admitted.
    for (let s = 1; s <= 20; s++) expect(limiter.take('A', t0 + 500 + s * 500)).toBeNull();
  });

  it('keeps each device to its own bucket', () => {
    const limiter = deviceRateLimiter({ rate: 1, burst: 1 });
    expect(limiter.take('A', 0)).toBeNull();
    expect(limiter.take('A', 0)).not.toBeNull();
    expect(limiter.take('B', 0)).toBeNull();
  });

  it('writes one intake-log line a second, counting the refusals in between', () => {
    const limiter = deviceRateLimiter({ rate: 1, burst: 1 });
    limiter.take('A', 0);
    expect(limiter.take('A', 10)!.logReason).toContain('message refused');
    for (let i = 0; i < 7; i++) expect(limiter.take('A', 20 + i)!.logReason).toBeNull();
    // One second on the token is back: admitted; the next refusal is logged with the 7 before it.
    expect(limiter.take('A', 1010)).toBeNull();
    expect(limiter.take('A', 1011)!.logReason).toContain('(7 more refused since the last entry)');
  });

  it('forgets buckets that have refilled, without changing what they admit', () => {
    const limiter = deviceRateLimiter({ rate: 10, burst: 10 });
    for (let i = 0; i < 9_999; i++) limiter.take(`D${i}`, 0);
    expect(limiter.size()).toBe(9_999);
    // Ten seconds on every bucket is full again; the sweep on the 10,000th take drops them.
    expect(limiter.take('LATE', 10_000)).toBeNull();
    expect(limiter.size()).toBe(1);
    for (let i = 0; i < 10; i++) expect(limiter.take('D1', 10_000)).toBeNull();
    expect(limiter.take('D1', 10_000)).not.toBeNull();
  });

  it('refuses a rate or burst that is not positive', () => {
    expect(() => deviceRateLimiter({ rate: 0, burst: 5 })).toThrow();
    expect(() => deviceRateLimiter({ rate: 5, burst: 0 })).toThrow();
  });
});
