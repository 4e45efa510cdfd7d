// A poison report fails alone. Reports of many devices and organisations share one write (group
// commit); a reading the database refuses must not roll the others back: it goes to its device's
// intake log with the reason, and everything it shared the write with is stored. Device times get
// a lower bound beside the upper one, and a year before 100 no longer breaks the stored-rows lookup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { IntakeResult } from '@iotc/shared/device';
import type { Db } from '../db/client.ts';
import { devices, intakeLog, orgs, telemetry } from '../db/schema.ts';
import { testApp, type TestApp } from '../test/harness.ts';
import { createTenantUser } from '../test/fixtures.ts';
import { hashSecret } from './pipeline.ts';
import { readingStore } from './store.ts';
import type { Reading } from './stored-readings.ts';

let t: TestApp;
let db: Db;
let demoOrg: string;
let otherOrg: string;
/** 20 devices of the demo organisation, 20 of another. */
let fleet: { id: string; orgId: string; deviceId: string }[];
const SECRET = 'poison-test-secret-0123456789';

beforeAll(async () => {
  t = await testApp();
  db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  otherOrg = (await createTenantUser(db, { code: 'poison-other', account: 'poison-other-admin', password: 'Other#2026' })).org.id;
  fleet = await db
    .insert(devices)
    .values(
      Array.from({ length: 40 }, (_, i) => ({
        orgId: i < 20 ? demoOrg : otherOrg,
        deviceId: `POISON${String(i).padStart(3, '0')}`,
        name: `poison ${i}`,
        secretHash: hashSecret(SECRET),
      })),
    )
    .returning({ id: devices.id, orgId: devices.orgId, deviceId: devices.deviceId });
});
afterAll(async () => t.close());

const reading = (d: { id: string; orgId: string }, time: Date): Reading => ({
  orgId: d.orgId,
  deviceRef: d.id,
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

const storedOf = async (refs: string[]) =>
  Number((await db.select({ n: sql<number>`count(*)` }).from(telemetry).where(inArray(telemetry.deviceRef, refs)))[0]!.n);

describe('the readings store', () => {
  it('stores every other reading of a write that holds one the database refuses, and names that one', async () => {
    const store = readingStore(db);
    const time = new Date(Date.now() - 60_000);
    // A time the database cannot hold (JavaScript's earliest date, 271,821 BC), submitted in the
    // same turn as 40 devices' readings of two organisations, so all go into one write.
    const poison = reading(fleet[0]!, new Date(-8.64e15));
    const submissions = [store.store([reading(fleet[0]!, time), poison]), ...fleet.slice(1).map((d) => store.store([reading(d, time)]))];
    const outcomes = await Promise.all(submissions);
    expect(outcomes[0]).toEqual({ inserted: 1, failed: [{ index: 1, reason: expect.stringMatching(/^the readings store could not take it: .+/) }] });
    for (const o of outcomes.slice(1)) expect(o).toEqual({ inserted: 1, failed: [] });
    expect(await storedOf(fleet.map((d) => d.id))).toBe(40);
    expect(store.stats()).toMatchObject({ failedReadings: 1, failedBatches: 0 });
    // submit (a number) refuses a submission with a refused reading, having stored the rest.
    await expect(store.submit([reading(fleet[1]!, new Date(time.getTime() + 1000)), poison])).rejects.toThrow(/1 reading\(s\) not stored/);
    expect(await storedOf([fleet[1]!.id])).toBe(2);
  });

  it('stores and answers a reading of the year 50 (the lookup of stored rows read such years back as 19xx and failed the write)', async () => {
    const store = readingStore(db);
    const ancient = new Date('0050-03-01T00:00:00Z');
    const recent = new Date(Date.now() - 30_000);
    const [a, b] = await Promise.all([store.store([reading(fleet[2]!, ancient)]), store.store([reading(fleet[25]!, recent)])]);
    expect(a).toEqual({ inserted: 1, failed: [] });
    expect(b).toEqual({ inserted: 1, failed: [] });
    // Read as text: the drivers' own date parsing reads such years as 19xx, which is why the intake now refuses them.
    const [row] = await db
      .select({ year: sql<string>`extract(year from ${telemetry.time} at time zone 'UTC')::text` })
      .from(telemetry)
      .where(eq(telemetry.deviceRef, fleet[2]!.id))
      .orderBy(telemetry.time)
      .limit(1);
    expect(row!.year).toBe('50');
  });
});

describe('the HTTP intake', () => {
  const basic = (id: string) => `Basic ${Buffer.from(`${id}:${SECRET}`).toString('base64')}`;
  const post = async (deviceId: string, body: unknown) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/iot/v2/device/report', headers: { authorization: basic(deviceId), 'content-type': 'application/json', language: 'en-US' }, payload: JSON.stringify(body) });
    return { status: res.statusCode, data: (res.json() as { data: IntakeResult | null }).data };
  };

  it('refuses a report dated in the years 1-99 alone, with its reason, while 39 other devices of two organisations are stored', async () => {
    const time = new Date(Date.now() - 10_000).toISOString();
    const poisonDevice = fleet[3]!;
    const calls = [
      post(poisonDevice.deviceId, [
        { deviceId: poisonDevice.deviceId, time: '0099-12-31T23:59:59Z', lat: 31.2, lon: 121.4 },
        { deviceId: poisonDevice.deviceId, time, lat: 31.2, lon: 121.4 },
      ]),
      ...fleet.filter((d) => d !== poisonDevice).map((d) => post(d.deviceId, { deviceId: d.deviceId, time, lat: 31.2, lon: 121.4 })),
    ];
    const answers = await Promise.all(calls);
    for (const a of answers) expect(a.status).toBe(200);
    expect(answers[0]!.data).toEqual({
      accepted: 1,
      duplicates: 0,
      rejected: [{ index: 0, reason: 'time 0099-12-31T23:59:59Z is before the earliest device time taken, 2000-01-01T00:00:00.000Z' }],
    });
    for (const a of answers.slice(1)) expect(a.data).toMatchObject({ accepted: 1, rejected: [] });
    const logged = await db.select().from(intakeLog).where(eq(intakeLog.deviceRef, poisonDevice.id));
    expect(logged.map((l) => l.reason)).toEqual(['time 0099-12-31T23:59:59Z is before the earliest device time taken, 2000-01-01T00:00:00.000Z']);
  });

  it('takes the earliest device time from INTAKE_EARLIEST_TIME', async () => {
    const { loadConfig } = await import('../config.ts');
    expect(loadConfig({}).intakeEarliest.toISOString()).toBe('2000-01-01T00:00:00.000Z');
    expect(loadConfig({ INTAKE_EARLIEST_TIME: '2020-06-01' }).intakeEarliest.toISOString()).toBe('2020-06-01T00:00:00.000Z');
    expect(() => loadConfig({ INTAKE_EARLIEST_TIME: '0050-01-01' })).toThrow(/^Invalid setting INTAKE_EARLIEST_TIME/);
    expect(() => loadConfig({ INTAKE_EARLIEST_TIME: 'soon' })).toThrow(/^Invalid setting INTAKE_EARLIEST_TIME/);
  });
});
