// The Redis event bus of several nodes (realtime/bus.ts) against a real Redis: an event
// published on one node reaches the listeners of every node exactly once (its own included), a
// node-local event stays on its node. Runs with REDIS_URL set.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { redisBus, type EventBus, type LiveEvent } from '../realtime/bus.ts';

const { REDIS_URL } = process.env;
const buses: EventBus[] = [];

function node(channel: string) {
  const bus = redisBus(REDIS_URL!, { channel });
  buses.push(bus);
  const got: LiveEvent[] = [];
  bus.subscribe((e) => got.push(e));
  return { bus, got };
}

afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

const settle = () => new Promise((r) => setTimeout(r, 300));

describe.skipIf(!REDIS_URL)('Redis event bus', () => {
  it('delivers each event once to every node, the publishing node included; local events stay local', async () => {
    const channel = `iotc:test:${randomBytes(4).toString('hex')}`;
    const [a, b, c] = [node(channel), node(channel), node(channel)];
    await settle(); // the subscriptions are made
    const shared: LiveEvent = { type: 'invalidate', cache: 'alarm-policies' };
    a.bus.publish(shared);
    a.bus.publishLocal({ type: 'invalidate', cache: 'push-rules' });
    await expect.poll(() => [b.got.length, c.got.length], { timeout: 5000 }).toEqual([1, 1]);
    await settle(); // and nothing more comes: no echo, no copy of the local one
    expect(a.got).toEqual([shared, { type: 'invalidate', cache: 'push-rules' }]);
    expect(b.got).toEqual([shared]);
    expect(c.got).toEqual([shared]);
  });
});

describe('Redis event bus with Redis away', () => {
  it('still delivers to its own node, and closes at once instead of waiting for Redis (a node stopping while Redis is down)', async () => {
    // A port nothing listens on (a free one, taken and let go).
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const bus = redisBus(`redis://127.0.0.1:${port}`);
    const got: LiveEvent[] = [];
    bus.subscribe((e) => got.push(e));
    await settle(); // a connection attempt or two has failed
    bus.publish({ type: 'invalidate', cache: 'push-rules' });
    expect(got).toEqual([{ type: 'invalidate', cache: 'push-rules' }]);
    const closed = await Promise.race([bus.close().then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 3000))]);
    expect(closed).toBe(true);
  });
});
