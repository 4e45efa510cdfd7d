// Automatic start and arrival of transport tasks, end to end through the HTTP intake: a van parked
// at the origin, driving to the destination with GPS noise, a wild fix, cell-tower positions and a
// data gap, then parked at the destination. The task starts when the van leaves the origin area
// and arrives once it has stood inside the destination for the dwell time, both marked automatic
// in its story. A jump while parked, LBS positions far away, or recognition switched off start
// nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TaskDetail, TaskEventRow } from '@iotc/shared/transport';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { orgs } from '../../db/schema.ts';

const TASKS = '/api/iot/v2/transport-tasks';
let t: TestApp;
let admin: string;
let seq = 0;

const M_LAT = 1 / 111_195;
const M_LON = 1 / (111_195 * Math.cos((31 * Math.PI) / 180));
const ORIGIN = { name: 'Shanghai DC', lat: 31, lon: 121.5, radiusM: 500 };
// 20 km east.
const DESTINATION = { name: 'Suzhou Hospital', lat: 31, lon: 121.5 + 20_000 * M_LON, radiusM: 500 };

interface Report {
  time: number;
  lat: number;
  lon: number;
  positioning?: 'GPS' | 'LBS';
  speed?: number;
}

async function device(): Promise<DeviceWithSecret> {
  const res = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: `REC-${++seq}`, name: `van ${seq}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

async function task(d: DeviceWithSecret, over: Record<string, unknown> = {}): Promise<TaskDetail> {
  const res = await call<TaskDetail>(t.app, { method: 'POST', url: TASKS, token: admin, body: { goodsName: 'Vaccines', deviceIds: [d.id], origin: ORIGIN, destination: DESTINATION, ...over } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

/** Sends the reports in batches of `batch`, as a device with a buffer would, and waits for the recogniser. */
async function send(d: DeviceWithSecret, reports: Report[], batch = 20) {
  for (let i = 0; i < reports.length; i += batch) {
    const body = reports.slice(i, i + batch).map((r) => ({
      deviceId: d.deviceId,
      time: new Date(r.time).toISOString(),
      lat: r.lat,
      lon: r.lon,
      positioning: r.positioning ?? 'GPS',
      speed: r.speed ?? 0,
    }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.readings.flushed();
    await t.app.taskRecognizer.settled();
  }
}

async function get(id: string): Promise<TaskDetail> {
  return (await call<TaskDetail>(t.app, { method: 'GET', url: `${TASKS}/${id}`, token: admin })).body.data!;
}
async function story(id: string): Promise<TaskEventRow[]> {
  return (await call<TaskEventRow[]>(t.app, { method: 'GET', url: `${TASKS}/${id}/events`, token: admin })).body.data!;
}

/** A few metres of GPS noise, the same on every run. */
const noise = (i: number) => ((((i * 7919) % 13) - 6) / 6) * 8;

/** Parked at a place every 30 s for `minutes`. */
function parked(at: { lat: number; lon: number }, from: number, minutes: number): Report[] {
  return Array.from({ length: minutes * 2 }, (_, i) => ({ time: from + i * 30_000, lat: at.lat + noise(i) * M_LAT, lon: at.lon + noise(i + 3) * M_LON }));
}

beforeAll(async () => {
  t = await testApp();
  const demoOrg = (await t.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(t.app.database.db, { orgId: demoOrg, account: 'rec-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'rec-admin', DEMO_PASSWORD);
});
afterAll(async () => t?.close());

describe('a trip from the origin to the destination', () => {
  it('starts the task when the van leaves the origin and moves, and ends it after the dwell time inside the destination', async () => {
    const d = await device();
    const tk = await task(d);
    const T0 = Date.now() - 55 * 60_000;
    // 10 minutes parked at the origin.
    await send(d, parked(ORIGIN, T0, 10));
    expect((await get(tk.id)).status).toBe('pending');

    // 20 minutes east at 60 km/h (100 m per 6 s report), with noise; one wild fix 30 km north;
    // cell-tower positions for a minute; nothing at all for 4 minutes in the middle.
    const leave = T0 + 10 * 60_000;
    const drive: Report[] = [];
    for (let i = 1; i <= 200; i++) {
      const time = leave + i * 6000;
      if (i > 90 && i <= 130) continue; // the gap
      const r: Report = { time, lat: ORIGIN.lat + noise(i) * M_LAT, lon: ORIGIN.lon + (i * 100 + noise(i + 1)) * M_LON, speed: 60 };
      if (i === 40) r.lat += 30_000 * M_LAT;
      if (i >= 150 && i < 160) Object.assign(r, { positioning: 'LBS', lat: r.lat + 0.02, lon: r.lon - 0.03 });
      drive.push(r);
    }
    await send(d, drive);
    const started = await get(tk.id);
    expect(started.status).toBe('in_transit');
    expect(started.startMode).toBe('auto');
    // 500 m out at 100 m per report: the 6th report after leaving is the first outside the area.
    const startedAt = Date.parse(started.startedAt!);
    expect(startedAt).toBeGreaterThanOrEqual(leave + 5 * 6000);
    expect(startedAt).toBeLessThanOrEqual(leave + 7 * 6000);

    // Parked at the destination: 5 minutes is not yet the 10-minute dwell.
    const arrive = leave + 200 * 6000;
    await send(d, parked(DESTINATION, arrive + 30_000, 5));
    expect((await get(tk.id)).status).toBe('in_transit');
    await send(d, parked(DESTINATION, arrive + 30_000 + 5 * 60_000, 8));
    const arrived = await get(tk.id);
    expect(arrived.status).toBe('arrived');
    expect(arrived.arriveMode).toBe('auto');
    // Arrival is when it stopped there, not when the dwell was over.
    expect(Math.abs(Date.parse(arrived.arrivedAt!) - (arrive + 30_000))).toBeLessThanOrEqual(60_000);

    const kinds = (await story(tk.id)).map((e) => [e.kind, e.actor, e.detail.mode]);
    expect(kinds).toEqual([
      ['created', 'rec-admin', undefined],
      ['started', null, 'auto'],
      ['arrived', null, 'auto'],
    ]);
  });
});

describe('a task planned before the van reaches its origin', () => {
  it('starts when the van leaves the origin, not while it drives in', async () => {
    const d = await device();
    const T0 = Date.now() - 50 * 60_000;
    // Coming in from 6 km west for 10 minutes, 15 minutes loading at the origin, then off east.
    const approach = Array.from({ length: 60 }, (_, i) => ({ time: T0 + i * 10_000, lat: ORIGIN.lat, lon: ORIGIN.lon - (6000 - i * 100) * M_LON, speed: 36 }));
    const loading = parked(ORIGIN, T0 + 10 * 60_000, 15);
    const leave = T0 + 25 * 60_000;
    const away = Array.from({ length: 60 }, (_, i) => ({ time: leave + (i + 1) * 6000, lat: ORIGIN.lat, lon: ORIGIN.lon + (i + 1) * 100 * M_LON, speed: 60 }));
    const tk = await task(d);
    await send(d, [...approach, ...loading, ...away]);
    const started = await get(tk.id);
    expect(started.status).toBe('in_transit');
    expect(Date.parse(started.startedAt!)).toBeGreaterThanOrEqual(leave);
    expect(Date.parse(started.startedAt!)).toBeLessThanOrEqual(leave + 7 * 6000);
  });
});

describe('what starts nothing', () => {
  it('a GPS jump while parked, or cell-tower positions far away', async () => {
    const d = await device();
    const tk = await task(d);
    const T0 = Date.now() - 40 * 60_000;
    const reports = parked(ORIGIN, T0, 30);
    reports[20] = { ...reports[20]!, lat: ORIGIN.lat + 5000 * M_LAT };
    for (let i = 30; i < 40; i++) reports[i] = { ...reports[i]!, positioning: 'LBS', lat: ORIGIN.lat + 0.05 };
    await send(d, reports);
    const after = await get(tk.id);
    expect(after.status).toBe('pending');
    expect(after.startedAt).toBeNull();
  });

  it('a real departure when recognition is switched off for the task; the operator starts it by hand', async () => {
    const d = await device();
    const tk = await task(d, { detection: { auto: false } });
    const T0 = Date.now() - 30 * 60_000;
    const drive = Array.from({ length: 100 }, (_, i) => ({ time: T0 + i * 6000, lat: ORIGIN.lat, lon: ORIGIN.lon + i * 100 * M_LON, speed: 60 }));
    await send(d, [...parked(ORIGIN, T0 - 10 * 60_000, 10), ...drive]);
    expect((await get(tk.id)).status).toBe('pending');
  });

  it('a departure of a device that is not the task’s main device', async () => {
    const main = await device();
    const second = await device();
    const tk = await task(main, { deviceIds: [main.id, second.id] });
    const T0 = Date.now() - 30 * 60_000;
    const drive = Array.from({ length: 100 }, (_, i) => ({ time: T0 + i * 6000, lat: ORIGIN.lat, lon: ORIGIN.lon + i * 100 * M_LON, speed: 60 }));
    await send(second, drive);
    expect((await get(tk.id)).status).toBe('pending');
    await send(main, drive);
    expect((await get(tk.id)).status).toBe('in_transit');
  });
});
