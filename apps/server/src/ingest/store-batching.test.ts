// Group commit on the real database: reports that arrive one per turn of the event loop, as
// MQTT messages read from many sockets do, are written together, not one transaction each,
// and every one of them is stored and answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices, orgs } from '../db/schema.ts';
import { testApp, type TestApp } from '../test/harness.ts';
import { readingStore } from './store.ts';
import { storedReadings, type Reading } from './stored-readings.ts';

let t: TestApp;
let db: Db;
let orgId: string;
let deviceRefs: string[];

beforeAll(async () => {
  t = await testApp();
  db = t.app.database.db;
  orgId = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  const rows = await db
    .insert(devices)
    .values(Array.from({ length: 50 }, (_, i) => ({ orgId, deviceId: `BATCH${String(i).padStart(4, '0')}`, name: `batch ${i}`, secretHash: 'x' })))
    .returning({ id: devices.id });
  deviceRefs = rows.map((r) => r.id);
});
afterAll(async () => t.close());

const reading = (deviceRef: string, time: Date): Reading => ({
  orgId,
  deviceRef,
  time,
  lat: 31.2,
  lon: 121.4,
  positioning: 'GPS',
  network: '4G',
  speed: 40,
  course: 90,
  acc: true,
  raw: { '3': { temp: 50 } },
  sensors: { temperature: 5 },
});

describe('reading store', () => {
  it('writes reports arriving one per event-loop turn together and answers each', async () => {
    let transactions = 0;
    const counted = new Proxy(db, {
      get(target, key, receiver) {
        if (key === 'transaction') {
          return (...args: Parameters<Db['transaction']>) => {
            transactions++;
            return target.transaction(...args);
          };
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const stored: number[] = [];
    const events = storedReadings();
    events.stored.subscribe((e) => stored.push(e.states.length));
    const store = readingStore(counted, { events });
    const time = new Date(Date.now() - 60_000);
    // One submission per macrotask, like one MQTT message per socket read.
    const answers = await Promise.all(
      deviceRefs.map((ref) => new Promise<number>((resolve, reject) => setImmediate(() => store.submit([reading(ref, time)]).then(resolve, reject)))),
    );
    await store.flushed();

    expect(answers).toEqual(deviceRefs.map(() => 1));
    expect(transactions).toBeLessThanOrEqual(2);
    expect(stored.reduce((a, b) => a + b, 0)).toBe(50);
    expect(await countAt(time)).toBe(50);
  });
});

async function countAt(time: Date): Promise<number> {
  const res = (await db.execute(sql`select count(*)::int as n from telemetry where time = ${time.toISOString()}::timestamptz`)) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0]!.n);
}
