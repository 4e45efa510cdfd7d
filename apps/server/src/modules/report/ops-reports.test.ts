// The operations reports through the API, values worked by hand, on the local day 2026-11-10 in
// Asia/Shanghai (00:00 there is 2026-11-09T16:00Z): the alarm report (counts per level, mean time
// to acknowledge, open at the end, active time clipped to the period, per day, the period boundary
// in the time zone), the online rate (a device reporting every minute with a two-hour hole, one
// created at noon that falls silent at 18:00), mileage (odometer differences; GPS distance with a
// jump and an LBS position left out), the files in both languages, refusals of bad input, and
// another organisation sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { OPS_REPORT_API, type AlarmReport, type MileageReport, type OnlineReport } from '@iotc/shared/ops-report';
import { DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmLevels, alarms, assets, deviceBindings, devices, orgs } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let operator: string;
let rival: string;
let demoOrg: string;
let rivalOrg: string;
const MIN = 60_000;
const HOUR = 3_600_000;
/** Local 00:00 of 2026-11-10 in Asia/Shanghai. */
const DAY0 = Date.parse('2026-11-09T16:00:00Z');
const DATE = '2026-11-10';
const iso = (ms: number) => new Date(ms).toISOString();

type Lang = 'en-US' | 'zh-CN';
const get = (url: string, token = operator, lang: Lang = 'en-US', timezone = 'Asia/Shanghai') =>
  t.app.inject({ method: 'GET', url, headers: { access_token: token, language: lang, timezone } });
async function json<T>(url: string, token = operator, lang: Lang = 'en-US', timezone = 'Asia/Shanghai'): Promise<T> {
  const res = await get(url, token, lang, timezone);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: T }).data;
}

async function device(token: string, deviceId: string, createdAt = DAY0 - 10 * 86_400_000): Promise<DeviceWithSecret> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/devices',
    headers: { access_token: token, language: 'en-US', 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId, name: `${deviceId} name` }),
  });
  expect(res.statusCode, res.body).toBe(200);
  const d = (res.json() as { data: DeviceWithSecret }).data;
  await t.app.database.db.update(devices).set({ createdAt: new Date(createdAt) }).where(eq(devices.id, d.id));
  return d;
}

interface Point {
  time: string;
  lat?: number | null;
  lon?: number | null;
  positioning?: string | null;
  speed?: number | null;
  sensors?: Record<string, unknown>;
}

async function telemetry(orgId: string, deviceRef: string, points: Point[]) {
  const rows = points.map((p) => ({ time: p.time, lat: p.lat ?? null, lon: p.lon ?? null, positioning: p.positioning ?? null, speed: p.speed ?? null, sensors: p.sensors ?? {} }));
  await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
    select ${orgId}::uuid, ${deviceRef}::uuid, time, lat, lon, positioning, speed, '{}'::jsonb, sensors
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(time timestamptz, lat float8, lon float8, positioning text, speed float8, sensors jsonb)`);
}

async function asset(orgId: string, kind: 'vehicle' | 'container' | 'cold_room', code: string) {
  const [row] = await t.app.database.db.insert(assets).values({ orgId, kind, code, name: `${code} name`, attrs: {} }).returning();
  return row!;
}

async function bind(orgId: string, d: DeviceWithSecret, a: typeof assets.$inferSelect, boundAt: number) {
  await t.app.database.db.insert(deviceBindings).values({
    orgId,
    deviceRef: d.id,
    deviceId: d.deviceId,
    assetRef: a.id,
    assetKind: a.kind,
    assetCode: a.code,
    assetName: a.name,
    boundAt: new Date(boundAt),
    boundBy: 'test',
  });
}

async function levelId(orgId: string, code: string): Promise<string> {
  return (await t.app.database.db.select().from(alarmLevels).where(and(eq(alarmLevels.orgId, orgId), eq(alarmLevels.code, code))))[0]!.id;
}

/** The first sheet's rows as text, blank rows left out. */
function sheetRows(book: ExcelJS.Workbook): string[][] {
  const rows: string[][] = [];
  book.worksheets[0]!.eachRow((row) => rows.push(Array.from({ length: row.cellCount }, (_, i) => String(row.getCell(i + 1).value ?? ''))));
  return rows;
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'ops-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  const r = await createTenantUser(db, { code: 'rival-ops', account: 'rival-ops', password: DEMO_PASSWORD, permissions: ['alarm:read', 'device:read', 'device:write'] });
  rivalOrg = r.org.id;
  admin = await login(t.app, 'ops-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  rival = await login(t.app, 'rival-ops', DEMO_PASSWORD);
});
afterAll(async () => t?.close());

describe('the alarm report', () => {
  let truckId: string;
  let d1: DeviceWithSecret;
  beforeAll(async () => {
    const db = t.app.database.db;
    const truck = await asset(demoOrg, 'vehicle', 'OPS-TRUCK');
    truckId = truck.id;
    d1 = await device(admin, 'OPS-AL-1');
    const d2 = await device(admin, 'OPS-AL-2');
    const urgent = await levelId(demoOrg, 'urgent');
    const important = await levelId(demoOrg, 'important');
    const minor = await levelId(demoOrg, 'minor');
    const alarm = (over: Partial<typeof alarms.$inferInsert> & { startedAt: Date }) =>
      db.insert(alarms).values({ orgId: demoOrg, policyName: 'ops', ruleId: 'r', type: 'temp_high', levelId: urgent, deviceRef: d1.id, status: 'cleared', lastAt: over.startedAt, threshold: 8, ...over });
    // 01:00–02:00, acknowledged after 10 minutes.
    await alarm({ assetRef: truck.id, startedAt: new Date(DAY0 + HOUR), endedAt: new Date(DAY0 + 2 * HOUR), acknowledgedAt: new Date(DAY0 + HOUR + 10 * MIN) });
    // From 03:00, still active; acknowledged after 30 minutes: active 21 hours in the day.
    await alarm({ assetRef: truck.id, type: 'temp_low', levelId: important, status: 'active', startedAt: new Date(DAY0 + 3 * HOUR), acknowledgedAt: new Date(DAY0 + 3 * HOUR + 30 * MIN) });
    // 23:00 to 01:00 the next day, no asset: open at the end of the day, one hour of it in the day.
    await alarm({ deviceRef: d2.id, type: 'door_abnormal', startedAt: new Date(DAY0 + 23 * HOUR), endedAt: new Date(DAY0 + 25 * HOUR) });
    // The day before (23:00 on 2026-11-09 in Shanghai).
    await alarm({ deviceRef: d2.id, levelId: minor, startedAt: new Date(DAY0 - HOUR), endedAt: new Date(DAY0 - 30 * MIN) });
    // Another organisation's, the same day.
    const rd = await device(rival, 'OPS-AL-RIVAL');
    await alarm({ orgId: rivalOrg, deviceRef: rd.id, levelId: await levelId(rivalOrg, 'urgent'), startedAt: new Date(DAY0 + 2 * HOUR), endedAt: new Date(DAY0 + 4 * HOUR) });
  });

  it('counts the alarms started in the local day by asset, with acknowledgement, open and active times', async () => {
    const r = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?period=day&date=${DATE}&groupBy=asset`);
    expect(r).toMatchObject({ period: 'day', start: DATE, end: DATE, timezone: 'Asia/Shanghai', groupBy: 'asset' });
    expect(r.levels.map((l) => [l.code, l.name])).toEqual([
      ['urgent', 'Urgent'],
      ['important', 'Important'],
      ['minor', 'Minor'],
      ['reminder', 'Reminder'],
    ]);
    expect(r.rows).toEqual([
      { key: truckId, label: 'OPS-TRUCK name', total: 2, byLevel: { urgent: 1, important: 1 }, acknowledged: 2, open: 1, meanAckS: 1200, meanDurationS: 3600, activeS: 3600 + 21 * 3600 },
      { key: '', label: '', total: 1, byLevel: { urgent: 1 }, acknowledged: 0, open: 1, meanAckS: null, meanDurationS: 7200, activeS: 3600 },
    ]);
    expect(r.totals).toEqual({ total: 3, byLevel: { urgent: 2, important: 1 }, acknowledged: 2, open: 2, meanAckS: 1200, meanDurationS: 5400, activeS: 3600 + 21 * 3600 + 3600 });
    expect(r.perDay).toEqual([{ date: DATE, byLevel: { urgent: 2, important: 1 }, total: 3 }]);
  });

  it('groups by level, type and device, filters by type and asset, and names the levels in the request language', async () => {
    const byLevel = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?date=${DATE}&groupBy=level`, operator, 'zh-CN');
    expect(byLevel.rows.map((x) => [x.key, x.total])).toEqual([
      ['urgent', 2],
      ['important', 1],
    ]);
    expect(byLevel.levels[0]).toEqual({ code: 'urgent', name: '紧急', color: '#f5222d' });
    const byType = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?date=${DATE}&groupBy=type`);
    expect(byType.rows.map((x) => [x.key, x.total]).sort()).toEqual([
      ['door_abnormal', 1],
      ['temp_high', 1],
      ['temp_low', 1],
    ]);
    const byDevice = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?date=${DATE}&groupBy=device`);
    expect(byDevice.rows.map((x) => [x.label, x.total])).toEqual([
      ['OPS-AL-1 name', 2],
      ['OPS-AL-2 name', 1],
    ]);
    expect(byDevice.rows[0]!.key).toBe(d1.id);
    const typed = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?date=${DATE}&type=temp_low`);
    expect(typed.totals).toMatchObject({ total: 1, byLevel: { important: 1 }, meanAckS: 1800, meanDurationS: null });
    const ofTruck = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?date=${DATE}&assetIds=${truckId}`);
    expect(ofTruck.totals.total).toBe(2);
  });

  it('takes the period in the time zone of the request: a UTC day and a Shanghai week differ', async () => {
    // In UTC, 2026-11-10 holds only the alarm of 23:00 Shanghai time (15:00Z).
    const utc = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?date=${DATE}`, operator, 'en-US', 'UTC');
    expect(utc.timezone).toBe('UTC');
    expect(utc.totals.total).toBe(1);
    // The ISO week of 2026-11-10 in Shanghai runs Monday 11-09 to Sunday 11-15 and holds the alarm of 23:00 on 11-09.
    const week = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?period=week&date=${DATE}`);
    expect([week.start, week.end, week.perDay.length]).toEqual(['2026-11-09', '2026-11-15', 7]);
    expect(week.perDay[0]).toEqual({ date: '2026-11-09', byLevel: { minor: 1 }, total: 1 });
    expect(week.perDay[1]!.total).toBe(3);
    expect(week.totals.total).toBe(4);
    const month = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?period=month&date=${DATE}`);
    expect([month.start, month.end, month.perDay.length, month.totals.total]).toEqual(['2026-11-01', '2026-11-30', 30, 4]);
  });

  it('shows another organisation only its own alarms, and refuses it this one\'s assets', async () => {
    const theirs = await json<AlarmReport>(`${OPS_REPORT_API.alarm}?date=${DATE}&groupBy=device`, rival);
    expect(theirs.rows.map((x) => [x.label, x.total])).toEqual([['OPS-AL-RIVAL name', 1]]);
    expect(theirs.totals).toMatchObject({ total: 1, open: 0, activeS: 7200, meanDurationS: 7200 });
    for (const format of ['json', 'pdf', 'xlsx']) {
      const res = await get(`${OPS_REPORT_API.alarm}?date=${DATE}&assetIds=${truckId}&format=${format}`, rival);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ isSuccess: 'N', errorcode: 'NOT_FOUND', data: null });
    }
  });

  it('is a PDF and an Excel workbook in the language of the request', async () => {
    for (const [lang, name, header] of [
      ['en-US', 'Alarm report', ['Asset', 'Alarms', 'Urgent', 'Important', 'Minor', 'Reminder', 'Acknowledged', 'Open at end', 'Mean time to acknowledge', 'Mean duration', 'Active time']],
      ['zh-CN', '告警报表', ['资产', '告警数', '紧急', '重要', '次要', '提醒', '已确认', '期末未恢复', '平均确认时长', '平均持续时长', '告警累计时长']],
    ] as const) {
      const pdf = await get(`${OPS_REPORT_API.alarm}?period=week&date=${DATE}&format=pdf`, operator, lang);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toContain(encodeURIComponent(`${name}-2026-11-09_2026-11-15.pdf`));
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.rawPayload.toString('latin1')).toMatch(/NotoSansSC/);
      const xlsx = await get(`${OPS_REPORT_API.alarm}?date=${DATE}&format=xlsx`, operator, lang);
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.headers['content-disposition']).toContain(encodeURIComponent(`${name}-${DATE}.xlsx`));
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const rows = sheetRows(book);
      const head = rows.findIndex((r) => r[0] === header[0]);
      expect(rows[head]).toEqual([...header]);
      expect(rows[head + 1]!.slice(0, 7)).toEqual(['OPS-TRUCK name', '2', '1', '1', '0', '0', '2']);
      expect(rows.at(-1)![1]).toBe('3');
    }
  });
});

describe('the device online rate', () => {
  let steady: DeviceWithSecret;
  let late: DeviceWithSecret;
  beforeAll(async () => {
    steady = await device(admin, 'OPS-ON-1');
    // Every minute from 00:00 to 23:59, none between 10:00 and 12:00 (a two-hour gap).
    const points: Point[] = [];
    for (let m = 0; m < 1440; m++) if (m <= 600 || m >= 720) points.push({ time: iso(DAY0 + m * MIN) });
    await telemetry(demoOrg, steady.id, points);
    // Created at noon, every minute from 12:00 to 18:00, then silent.
    late = await device(admin, 'OPS-ON-2', DAY0 + 12 * HOUR);
    await telemetry(
      demoOrg,
      late.id,
      Array.from({ length: 361 }, (_, i) => ({ time: iso(DAY0 + 12 * HOUR + i * MIN) })),
    );
  });

  it('is online from each report for the threshold: the gap costs two hours less ten minutes', async () => {
    const r = await json<OnlineReport>(`${OPS_REPORT_API.online}?date=${DATE}&deviceIds=${steady.id},${late.id}`);
    expect(r).toMatchObject({ period: 'day', start: DATE, end: DATE, offlineAfterS: 600, dates: [DATE] });
    const [a, b] = r.rows;
    expect(a).toMatchObject({ deviceId: 'OPS-ON-1', name: 'OPS-ON-1 name', asset: null, onlineS: 86_400 - 6600, expectedS: 86_400, outages: 1, longestOutageS: 6600, reports: 1321 });
    expect(a!.rate).toBeCloseTo(79_800 / 86_400, 6);
    expect(a!.days[0]).toBeCloseTo(79_800 / 86_400, 6);
    expect(a!.lastSeenAt).toBe(iso(DAY0 + 1439 * MIN));
    // Counted from its creation at noon: online 12:00–18:10, offline from 18:10 to midnight.
    expect(b).toMatchObject({ deviceId: 'OPS-ON-2', onlineS: 6 * 3600 + 600, expectedS: 12 * 3600, outages: 1, longestOutageS: 5 * 3600 + 50 * 60, reports: 361 });
    expect(b!.rate).toBeCloseTo(22_200 / 43_200, 6);
    expect(r.overall.rate).toBeCloseTo((79_800 + 22_200) / (86_400 + 43_200), 6);
  });

  it('counts from the first stored report when history was uploaded before the device was registered', async () => {
    // Registered at 18:00 with the same readings as OPS-ON-2 (12:00 to 18:00) uploaded afterwards.
    const backfilled = await device(admin, 'OPS-ON-3', DAY0 + 18 * HOUR);
    await telemetry(
      demoOrg,
      backfilled.id,
      Array.from({ length: 361 }, (_, i) => ({ time: iso(DAY0 + 12 * HOUR + i * MIN) })),
    );
    const r = await json<OnlineReport>(`${OPS_REPORT_API.online}?date=${DATE}&deviceIds=${backfilled.id}`);
    expect(r.rows[0]).toMatchObject({ deviceId: 'OPS-ON-3', onlineS: 6 * 3600 + 600, expectedS: 12 * 3600, outages: 1, reports: 361 });
  });

  it('over a week: null before the device existed, the silent days count, and the outage at the end', async () => {
    const r = await json<OnlineReport>(`${OPS_REPORT_API.online}?period=week&date=${DATE}&deviceIds=${steady.id},${late.id}`);
    expect(r.dates).toEqual(['2026-11-09', '2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13', '2026-11-14', '2026-11-15']);
    const [a, b] = r.rows;
    expect(a!.days[0]).toBe(0);
    expect(a!.days[1]).toBeCloseTo(79_800 / 86_400, 6);
    // 00:00–00:09 of 11-11 is still the last report's window.
    expect(a!.days[2]).toBeCloseTo(540 / 86_400, 6);
    expect(a!.expectedS).toBe(7 * 86_400);
    // The gap and the silence from 00:09 on 11-11 to the end of the week.
    expect(a!.outages).toBe(2);
    expect(a!.longestOutageS).toBe(4 * 86_400 + 23 * 3600 + 51 * 60);
    expect(b!.days[0]).toBeNull();
    expect(b!.expectedS).toBe(5 * 86_400 + 12 * 3600);
  });

  it('lists the organisation tree\'s devices, refuses another organisation\'s, and is empty for it', async () => {
    const mine = await json<OnlineReport>(`${OPS_REPORT_API.online}?date=${DATE}`);
    expect(mine.rows.map((x) => x.deviceId)).toEqual(expect.arrayContaining(['OPS-ON-1', 'OPS-ON-2']));
    const theirs = await json<OnlineReport>(`${OPS_REPORT_API.online}?date=${DATE}`, rival);
    expect(theirs.rows.map((x) => x.deviceId)).toEqual(['OPS-AL-RIVAL']);
    for (const format of ['json', 'pdf', 'xlsx']) {
      const res = await get(`${OPS_REPORT_API.online}?date=${DATE}&deviceIds=${steady.id}&format=${format}`, rival);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ isSuccess: 'N', errorcode: 'NOT_FOUND', data: null });
    }
  });

  it('is a PDF and an Excel workbook with a column per day', async () => {
    const pdf = await get(`${OPS_REPORT_API.online}?period=week&date=${DATE}&deviceIds=${steady.id}&format=pdf`, operator, 'zh-CN');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(encodeURIComponent('设备在线率-2026-11-09_2026-11-15.pdf'));
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    for (const [lang, header] of [
      ['zh-CN', ['设备号', '设备名称', '绑定资产', '在线率', '在线时长', '离线次数', '最长离线时长', '上报条数', '最后上报时间', '2026-11-09']],
      ['en-US', ['Device ID', 'Device name', 'Asset', 'Online rate', 'Online time', 'Outages', 'Longest outage', 'Reports', 'Last report', '2026-11-09']],
    ] as const) {
      const xlsx = await get(`${OPS_REPORT_API.online}?period=week&date=${DATE}&deviceIds=${steady.id}&format=xlsx`, operator, lang);
      expect(xlsx.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const rows = sheetRows(book);
      const head = rows.findIndex((r) => r[0] === header[0]);
      expect(rows[head]!.slice(0, 10)).toEqual([...header]);
      expect(rows[head]).toHaveLength(16);
      expect(rows[head + 1]!.slice(0, 4)).toEqual(['OPS-ON-1', 'OPS-ON-1 name', '', '13.3 %']);
      expect(rows[head + 1]![10]).toBe('92.4 %');
    }
  });
});

describe('the mileage report', () => {
  let truckId: string;
  let boxId: string;
  beforeAll(async () => {
    const truck = await asset(demoOrg, 'vehicle', '沪A-OPS01');
    truckId = truck.id;
    const odo = await device(admin, 'OPS-MI-1');
    await bind(demoOrg, odo, truck, DAY0 - 5 * 86_400_000);
    // Odometer 1000.0 km the evening before; 1010.5, 1050.5 and 1100.0 during the day: 100 km.
    await telemetry(demoOrg, odo.id, [
      { time: iso(DAY0 - HOUR), sensors: { mileage: 1000 } },
      { time: iso(DAY0 + 8 * HOUR), sensors: { mileage: 1010.5 } },
      { time: iso(DAY0 + 12 * HOUR), sensors: { mileage: 1050.5 } },
      { time: iso(DAY0 + 20 * HOUR), sensors: { mileage: 1100 } },
    ]);

    const box = await asset(demoOrg, 'container', 'OPS-BOX-1');
    boxId = box.id;
    const gps = await device(admin, 'OPS-MI-2');
    await bind(demoOrg, gps, box, DAY0 - 5 * 86_400_000);
    // Parked 08:00–08:10, driving east 1 km a minute to 08:40, parked to 08:50: 30 km in one trip.
    // At 08:20 an LBS position 3 km off and at 08:25 a GPS jump 400 km away at 200 km/h: both left out.
    const lonPerKm = 1000 / (111_195.08 * Math.cos((31 * Math.PI) / 180));
    const points: Point[] = [];
    for (let m = 0; m <= 50; m++) {
      const k = Math.min(Math.max(m - 10, 0), 30);
      const p: Point = { time: iso(DAY0 + 8 * HOUR + m * MIN), lat: 31, lon: 121.5 + k * lonPerKm, positioning: 'GPS', speed: m > 10 && m <= 40 ? 60 : 0 };
      if (m === 20) Object.assign(p, { positioning: 'LBS', lat: 31.03 });
      if (m === 25) Object.assign(p, { lat: 35, speed: 200 });
      points.push(p);
    }
    await telemetry(demoOrg, gps.id, points);
  });

  it('takes the odometer difference where there is one, else the GPS trips', async () => {
    const r = await json<MileageReport>(`${OPS_REPORT_API.mileage}?date=${DATE}&assetIds=${truckId},${boxId}`);
    expect(r).toMatchObject({ period: 'day', start: DATE, dates: [DATE] });
    const truck = r.rows.find((x) => x.assetId === truckId)!;
    expect(truck).toMatchObject({ name: '沪A-OPS01 name', kind: 'vehicle', plate: '沪A-OPS01', source: 'odometer', days: [100], totalKm: 100, trips: 0, drivingS: 0, maxSpeedKmh: null });
    const box = r.rows.find((x) => x.assetId === boxId)!;
    expect(box).toMatchObject({ kind: 'container', plate: null, source: 'gps', trips: 1, drivingS: 1800, maxSpeedKmh: 60 });
    expect(box.totalKm).toBeCloseTo(30, 1);
    expect(box.days[0]).toBeCloseTo(30, 1);
    expect(r.totalKm).toBeCloseTo(130, 1);
  });

  it('splits a week per local day', async () => {
    const r = await json<MileageReport>(`${OPS_REPORT_API.mileage}?period=week&date=${DATE}&assetIds=${truckId}`);
    // The first reading of the week (23:00 on 11-09 in Shanghai) is where it starts counting.
    expect(r.rows[0]!.days).toEqual([0, 100, 0, 0, 0, 0, 0]);
    expect(r.rows[0]!.totalKm).toBe(100);
  });

  it('is not another organisation\'s, and is a PDF and an Excel workbook', async () => {
    const theirs = await json<MileageReport>(`${OPS_REPORT_API.mileage}?date=${DATE}`, rival);
    expect(theirs.rows).toEqual([]);
    expect((await get(`${OPS_REPORT_API.mileage}?date=${DATE}&assetIds=${truckId}`, rival)).statusCode).toBe(404);
    // A cold room is no vehicle or container.
    const room = await asset(demoOrg, 'cold_room', 'OPS-ROOM');
    expect((await get(`${OPS_REPORT_API.mileage}?date=${DATE}&assetIds=${room.id}`)).statusCode).toBe(404);
    const pdf = await get(`${OPS_REPORT_API.mileage}?period=month&date=${DATE}&assetIds=${truckId},${boxId}&format=pdf`, operator, 'zh-CN');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(encodeURIComponent('里程报表-2026-11.pdf'));
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    for (const [lang, header] of [
      ['zh-CN', ['车辆或集装箱', '类型', '车牌号', '数据来源', '里程（km）', '行驶时长', '行程数', '最高速度（km/h）', DATE]],
      ['en-US', ['Vehicle or container', 'Kind', 'Plate number', 'Source', 'Distance (km)', 'Driving time', 'Trips', 'Max speed (km/h)', DATE]],
    ] as const) {
      const xlsx = await get(`${OPS_REPORT_API.mileage}?date=${DATE}&assetIds=${truckId},${boxId}&format=xlsx`, operator, lang);
      expect(xlsx.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const rows = sheetRows(book);
      const head = rows.findIndex((r) => r[0] === header[0]);
      expect(rows[head]).toEqual([...header]);
      const truckRow = rows.find((r) => r[0] === '沪A-OPS01 name')!;
      expect(truckRow[4]).toBe('100.0');
      expect(truckRow[8]).toBe('100');
    }
  });
});

describe('bad input', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(',');
  it('refuses a date that is not a calendar day, an unknown grouping, too many ids and a malformed id, saying which', async () => {
    for (const [url, field] of [
      [`${OPS_REPORT_API.alarm}?date=2026-02-30`, 'Date'],
      [`${OPS_REPORT_API.online}?date=2026-13-01`, 'Date'],
      [`${OPS_REPORT_API.mileage}?period=day`, 'Date'],
      [`${OPS_REPORT_API.alarm}?date=${DATE}&groupBy=colour`, 'Grouping'],
      [`${OPS_REPORT_API.alarm}?date=${DATE}&period=year`, 'Period'],
      [`${OPS_REPORT_API.online}?date=${DATE}&deviceIds=${ids(501)}`, 'Devices'],
      [`${OPS_REPORT_API.mileage}?date=${DATE}&assetIds=not-a-uuid`, 'Assets'],
      [`${OPS_REPORT_API.alarm}?date=${DATE}&format=doc`, 'Format'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      const body = res.json() as { isSuccess: string; data: unknown; errorcode: string; errormsg: string };
      expect(body).toMatchObject({ isSuccess: 'N', data: null, errorcode: 'VALIDATION' });
      expect(body.errormsg, url).toContain(field);
    }
    const zh = (await get(`${OPS_REPORT_API.alarm}?date=2026-02-30`, operator, 'zh-CN')).json() as { errormsg: string };
    expect(zh.errormsg).toMatch(/^请求参数有误：日期/);
  });

  it('needs the permission of each report', async () => {
    const db = t.app.database.db;
    await createTenantUser(db, { code: 'ops-none', account: 'ops-none', password: DEMO_PASSWORD, permissions: [] });
    const none = await login(t.app, 'ops-none', DEMO_PASSWORD);
    for (const url of [OPS_REPORT_API.alarm, OPS_REPORT_API.online, OPS_REPORT_API.mileage]) {
      expect((await get(`${url}?date=${DATE}`, none)).statusCode).toBe(403);
    }
  });
});
