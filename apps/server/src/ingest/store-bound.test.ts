// The reading store's bound: past `maxWaiting` readings waiting for a write, a submission is
// refused at once (the intake answers 503, MQTT does not acknowledge) and none of it is stored,
// while what was already waiting is stored; the refusal is counted for the operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { isUnavailable, type UnavailableError } from '../db/availability.ts';
import { devices, orgs } from '../db/schema.ts';
import { testApp, type TestApp } from '../test/harness.ts';
import { readingStore } from './store.ts';
import type { Reading } from './stored-readings.ts';

let t: TestApp;
let db: Db;
let orgId: string;
let deviceRef: string;

beforeAll(async () => {
  t = await testApp();
  db = t.app.database.db;
  orgId = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  const [row] = await db.insert(devices).values({ orgId, deviceId: 'BOUND0001', name: 'bound', secretHash: 'x' }).returning({ id: devices.id });
  deviceRef = row!.id;
});
afterAll(async () => t.close());

const base = Date.parse('2026-11-20T00:00:00Z');
const readings = (from: number, n: number): Reading[] =>
  Array.from({ length: n }, (_, i) => ({
    orgId,
    deviceRef,
    time: new Date(base + (from + i) * 1000),
    lat: null,
    lon: null,
    positioning: null,
    network: null,
    speed: null,
    course: null,
    acc: null,
    raw: { '3': { temp: 50 } },
    sensors: { temperature: 5 },
  }));

describe('reading store bound', () => {
  it('refuses a submission that would pass the bound, stores the rest, and counts the refusal', async () => {
    const store = readingStore(db, { maxWaiting: 10 });
    // Both in one turn: nothing is written before the third arrives.
    const first = store.submit(readings(0, 6));
    const second = store.submit(readings(6, 4));
    const third = store.submit(readings(10, 3)).catch((err: unknown) => err);
    const refused = await third;
    expect(isUnavailable(refused)).toBe(true);
    expect((refused as UnavailableError).reason).toBe('backlog');
    expect(await first).toBe(6);
    expect(await second).toBe(4);
    await store.flushed();
    expect(store.stats()).toMatchObject({ waiting: 0, writing: 0, refusedBusy: 3, failedBatches: 0 });
    // Once written, there is room again.
    expect(await store.submit(readings(10, 3))).toBe(3);
    const n = (await db.execute(sql`select count(*)::int as n from telemetry where device_ref = ${deviceRef}`)) as unknown as { rows: { n: number }[] };
    expect(Number(n.rows[0]!.n)).toBe(13);
  });
});
