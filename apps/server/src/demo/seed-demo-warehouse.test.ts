// The demo's warehouse records: a week of movements at every demo warehouse, some approved, some
// pending, one rejected, the last day's read against the stored readings, no stock below zero,
// and put in only once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvinceAmount, RecordPage, StockAnswer } from '@iotc/shared/warehouse';
import { WAREHOUSE_API } from '@iotc/shared/warehouse';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { demoDevices, seedDemoFleet } from './seed-demo.ts';
import { seedDemoWarehouse } from './seed-demo-warehouse.ts';
import { backfill } from '../sim/demo.ts';

let t: TestApp;
let token: string;
let stored: number;
const NOW = Date.now();

beforeAll(async () => {
  t = await testApp();
  await seedDemoFleet(t.app.database.db);
  const rooms = (await demoDevices(t.app.database.db)).filter((d) => d.kind === 'coldroom');
  const past = backfill(rooms, { hours: 24, stepMs: 600_000, now: NOW });
  for (const [i, d] of rooms.entries()) await t.app.intake.ingest(d, past[i]!.reports, 'mqtt');
  await t.app.readings.flushed();
  stored = await seedDemoWarehouse(t.app.database.db, NOW);
  token = await login(t.app, 'demo', DEMO_PASSWORD);
}, 120_000);
afterAll(async () => t?.close());

describe('the demo warehouse records', () => {
  it('holds a few dozen records of the past week: approved, pending and one rejected', async () => {
    expect(stored).toBeGreaterThanOrEqual(30);
    const page = (await call<RecordPage>(t.app, { method: 'GET', url: `${WAREHOUSE_API.records}?size=100`, token })).body.data!;
    expect(page.counts.all).toBe(stored);
    expect(page.counts.approved).toBeGreaterThan(0);
    expect(page.counts.pending).toBeGreaterThan(0);
    expect(page.counts.rejected).toBe(1);
    expect(page.rows.every((r) => Date.parse(r.time) <= NOW && Date.parse(r.time) > NOW - 7 * 86_400_000)).toBe(true);
    expect(new Set(page.rows.map((r) => r.warehouseCode)).size).toBeGreaterThanOrEqual(3);
    // Records of the last day in rooms carry the temperature at hand-over.
    const recent = page.rows.filter((r) => r.roomId && Date.parse(r.time) > NOW - 20 * 3_600_000);
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((r) => r.temperature !== null && !r.noReading)).toBe(true);
  });

  it('leaves no stock below zero, and shows stock per province', async () => {
    const stock = (await call<StockAnswer>(t.app, { method: 'GET', url: WAREHOUSE_API.stock, token })).body.data!.rows;
    expect(stock.length).toBeGreaterThan(0);
    expect(stock.every((s) => s.quantity > 0)).toBe(true);
    const provinces = (await call<ProvinceAmount[]>(t.app, { method: 'GET', url: WAREHOUSE_API.provinces, token })).body.data!;
    expect(provinces.filter((p) => p.warehouses > 0 && p.quantity > 0).length).toBeGreaterThanOrEqual(3);
  });

  it('is put in only once', async () => {
    expect(await seedDemoWarehouse(t.app.database.db, NOW)).toBe(0);
  });
});
