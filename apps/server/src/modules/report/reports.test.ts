// Reports through the API: a task's shipment report (temperature statistics of its first device
// over its journey with an excursion above and one below the range, the task's alarms only, the
// distance driven) as JSON, as a PDF and as Excel with the raw readings, in both languages; the
// production report by customer, route, vehicle and day in the request's time zone with on-time
// and alarm rates and its export; refusals; and another organisation sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { ProductionReport, ShipmentReport } from '@iotc/shared/report';
import { durationText } from '@iotc/shared/format';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { HAS_PDFTOTEXT, pdfText } from '../../test/pdf-text.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmLevels, alarms, assets, orgs, transportTaskDevices, transportTasks } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let operator: string;
let rival: string;
let demoOrg: string;
let rivalOrg: string;
let levelId: string;
const START = Date.parse('2026-11-02T01:00:00Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function device(token: string, deviceId: string): Promise<DeviceWithSecret> {
  const res = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token, body: { deviceId, name: deviceId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

interface TaskSeed {
  orgId?: string;
  code: string;
  status?: 'pending' | 'in_transit' | 'arrived' | 'completed' | 'cancelled';
  customer?: string;
  origin?: string;
  destination?: string;
  assetRef?: string | null;
  startedAt?: number | null;
  arrivedAt?: number | null;
  plannedArrival?: number | null;
  distanceM?: number;
  value?: number | null;
  deviceRefs?: string[];
}

async function task(s: TaskSeed) {
  const db = t.app.database.db;
  const [row] = await db
    .insert(transportTasks)
    .values({
      orgId: s.orgId ?? demoOrg,
      code: s.code,
      status: s.status ?? 'arrived',
      goodsName: 'Vaccines',
      goodsQuantity: 120,
      goodsUnit: 'boxes',
      goodsValue: s.value ?? 50_000,
      highValue: true,
      customer: s.customer ?? 'Acme Pharma',
      assetRef: s.assetRef ?? null,
      originName: s.origin ?? 'Shanghai DC',
      originLat: 31,
      originLon: 121.5,
      originRadiusM: 500,
      destinationName: s.destination ?? 'Suzhou Hospital',
      destinationLat: 31,
      destinationLon: 121.7,
      destinationRadiusM: 500,
      plannedDistanceM: s.distanceM ?? 19_000,
      plannedStart: new Date(START),
      plannedArrival: s.plannedArrival === null ? null : new Date(s.plannedArrival ?? START + 3 * 3600_000),
      settings: { tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: null, route: [[31, 121.5], [31, 121.7]] },
      startedAt: s.startedAt === null ? null : new Date(s.startedAt ?? START),
      arrivedAt: s.arrivedAt === null ? null : new Date(s.arrivedAt ?? START + 120 * MIN),
      createdBy: 'test',
    })
    .returning();
  if (s.deviceRefs?.length) await db.insert(transportTaskDevices).values(s.deviceRefs.map((deviceRef, position) => ({ taskId: row!.id, deviceRef, position })));
  return row!;
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'rep-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  const r = await createTenantUser(db, { code: 'rival-rep', account: 'rival-rep', password: DEMO_PASSWORD, permissions: ['transport:read', 'device:read', 'device:write'] });
  rivalOrg = r.org.id;
  admin = await login(t.app, 'rep-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  rival = await login(t.app, 'rival-rep', DEMO_PASSWORD);
  levelId = (await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, demoOrg)).limit(1))[0]!.id;
});
afterAll(async () => t?.close());

describe('the shipment report', () => {
  let taskId: string;
  beforeAll(async () => {
    const main = await device(admin, 'SHIP-1');
    const other = await device(admin, 'SHIP-2');
    // Two hours, one reading a minute, driving east 160 m a minute: 5 °C, 10 °C from minute 30 to 59
    // (30 minutes above), 1 °C from minute 90 to 99 (10 minutes below).
    const readings = Array.from({ length: 121 }, (_, i) => ({
      time: iso(START + i * MIN),
      lat: 31,
      lon: 121.5 + (i * 160) / (111_195 * Math.cos((31 * Math.PI) / 180)),
      temperature: i >= 30 && i < 60 ? 10 : i >= 90 && i < 100 ? 1 : 5,
    }));
    await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
      select ${demoOrg}::uuid, ${main.id}::uuid, time, lat, lon, 'GPS', 9.6, '{}'::jsonb, jsonb_build_object('temperature', temperature, 'humidity', 55)
      from jsonb_to_recordset(${JSON.stringify(readings)}::jsonb) as x(time timestamptz, lat float8, lon float8, temperature float8)`);
    const row = await task({ code: 'TT-20261102-0001', deviceRefs: [main.id, other.id], plannedArrival: START + 90 * MIN });
    taskId = row.id;
    const alarm = (over: Partial<typeof alarms.$inferInsert>) =>
      t.app.database.db.insert(alarms).values({
        orgId: demoOrg,
        policyName: 'TT-20261102-0001',
        ruleId: 'temp_high',
        type: 'temp_high',
        levelId,
        deviceRef: main.id,
        status: 'cleared',
        startedAt: new Date(START + 31 * MIN),
        lastAt: new Date(START + 59 * MIN),
        endedAt: new Date(START + 60 * MIN),
        threshold: 8,
        value: 10,
        peak: 10,
        ...over,
      });
    await alarm({ taskId });
    // Not the task's: the same device, another policy.
    await alarm({ taskId: null, policyName: 'warehouse' });
  });

  it('states min, max, MKT, the time out of range (longest and cumulative), distance and the task alarms', async () => {
    const res = await call<ShipmentReport>(t.app, { method: 'GET', url: `/api/iot/v2/reports/shipment/${taskId}`, token: operator, lang: 'en-US' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.data!;
    expect(r.task.code).toBe('TT-20261102-0001');
    expect(r.task.devices.map((d) => d.deviceId)).toEqual(['SHIP-1', 'SHIP-2']);
    expect(r.task.onTime).toBe(false);
    expect(r.from).toBe(iso(START));
    expect(r.to).toBe(iso(START + 120 * MIN));
    expect(r.readings).toBe(121);
    const temp = r.temperature;
    expect(temp.min).toEqual({ value: 1, t: START + 90 * MIN });
    expect(temp.max).toEqual({ value: 10, t: START + 30 * MIN });
    expect(temp.outOfRange.aboveS).toBe(30 * 60);
    expect(temp.outOfRange.belowS).toBe(10 * 60);
    expect(temp.outOfRange.totalS).toBe(40 * 60);
    expect(temp.outOfRange.longest!.durationS).toBe(30 * 60);
    expect(temp.excursions).toHaveLength(2);
    // 80 minutes at 5 °C, 30 at 10 °C, 10 at 1 °C: the time-weighted average, and an MKT above it (the warm half hour weighs more).
    expect(temp.average).toBeCloseTo((80 * 5 + 30 * 10 + 10 * 1) / 120, 6);
    const k = (c: number) => Math.exp(-10_000 / (c + 273.15));
    expect(temp.mkt).toBeCloseTo(10_000 / -Math.log((80 * k(5) + 30 * k(10) + 10 * k(1)) / 120) - 273.15, 4);
    expect(r.humidity).toEqual({ min: 55, max: 55, average: 55 });
    expect(r.distanceM).toBeGreaterThan(18_500);
    expect(r.distanceM).toBeLessThan(19_700);
    expect(r.alarms).toHaveLength(1);
    expect(r.alarms[0]!.deviceId).toBe('SHIP-1');
  });

  it('is a PDF in the language of the request', async () => {
    for (const [lang, title] of [
      ['en-US', 'Shipment report'],
      ['zh-CN', '运输报告'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${taskId}?format=pdf`, headers: { access_token: operator, language: lang, timezone: 'Asia/Shanghai' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain(encodeURIComponent(`${title}-TT-20261102-0001.pdf`));
      const pdf = res.rawPayload;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.length).toBeGreaterThan(8_000);
      // The document title (in the info dictionary, UTF-16 for Chinese) names the report and the task.
      const raw = pdf.toString('latin1');
      const utf16 = Buffer.from(`\ufeff${title} TT-20261102-0001`, 'utf16le').swap16().toString('latin1');
      expect(raw).toContain(lang === 'en-US' ? `(${title} TT-20261102-0001)` : `(${utf16})`);
      // The Chinese font is embedded (a subset).
      expect(raw).toMatch(/\/FontFile2/);
      expect(raw).toMatch(/NotoSansSC/);
    }
  });

  // Issue 22 item 4: the PDF says the time out of range as the dialog does (both durationText of the
  // same seconds: '40 min 00 s', not '40 min'), and that its figures are of every reading.
  it.skipIf(!HAS_PDFTOTEXT)('says the time out of range as the dialog does, and that its figures are of every reading', async () => {
    for (const [lang, basis, label] of [
      ['en-US', 'Figures from Every reading (121 readings), not a sampled record', 'Time out of range (cumulative)'],
      ['zh-CN', '统计依据 全部读数（共 121 条），非采样记录', '超温累计时长'],
    ] as const) {
      const json = await call<ShipmentReport>(t.app, { method: 'GET', url: `/api/iot/v2/reports/shipment/${taskId}`, token: operator, lang });
      const shown = durationText(json.body.data!.temperature.outOfRange.totalS, lang === 'en-US' ? 'en' : 'zh');
      const res = await t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${taskId}?format=pdf`, headers: { access_token: operator, language: lang, timezone: 'Asia/Shanghai' } });
      const text = await pdfText(res.rawPayload);
      expect(text).toContain(`${label} ${shown}`);
      expect(text).toContain(basis);
    }
  });

  it('is an Excel workbook with the summary, every raw reading and the alarms', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${taskId}?format=xlsx`, headers: { access_token: operator, language: 'zh-CN', timezone: 'Asia/Shanghai' } });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['概要', '原始数据', '告警']);
    const summary = new Map<string, string>();
    book.getWorksheet('概要')!.eachRow((row) => summary.set(String(row.getCell(1).value), String(row.getCell(2).value)));
    expect(summary.get('任务编号')).toBe('TT-20261102-0001');
    expect(summary.get('最高温度')).toBe('10.0 °C (2026-11-02 09:30:00)');
    expect(summary.get('超温累计时长')).toBe('40分00秒');
    expect(summary.get('统计依据')).toBe('全部读数（共 121 条），非采样记录');
    expect(summary.get('平均动力学温度（ΔH 83.144 kJ/mol）')).toMatch(/^\d+\.\d\d °C$/);
    const readings = book.getWorksheet('原始数据')!;
    expect(readings.rowCount).toBe(122);
    expect(readings.getRow(1).getCell(2).value).toBe('温度（°C）');
    expect(readings.getRow(2).getCell(1).value).toBe('2026-11-02 09:00:00');
    expect(readings.getRow(32).getCell(2).value).toBe(10);
    expect(book.getWorksheet('告警')!.rowCount).toBe(2);
  });

  it('is not found for another organisation, in any format', async () => {
    for (const format of ['json', 'pdf', 'xlsx']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${taskId}?format=${format}`, headers: { access_token: rival, language: 'en-US' } });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('the production report', () => {
  beforeAll(async () => {
    const [truck] = await t.app.database.db
      .insert(assets)
      .values({ orgId: demoOrg, kind: 'vehicle', code: '沪A-12345', name: 'Truck', attrs: {} })
      .returning();
    const day1 = Date.parse('2026-11-10T02:00:00Z');
    // Shanghai 2026-11-11 01:00: the next day there, the same UTC day.
    const day2 = Date.parse('2026-11-10T17:00:00Z');
    const onTime = await task({ code: 'TT-P-1', customer: 'Acme', startedAt: day1, arrivedAt: day1 + 3600_000, plannedArrival: day1 + 7200_000, assetRef: truck!.id, distanceM: 10_000, value: 1000 });
    await task({ code: 'TT-P-2', customer: 'Acme', startedAt: day2, arrivedAt: day2 + 7200_000, plannedArrival: day2 + 3600_000, distanceM: 20_000, value: 2000 });
    await task({ code: 'TT-P-3', customer: 'Beta', status: 'cancelled', startedAt: day2, arrivedAt: null, value: 4000 });
    await task({ code: 'TT-P-4', customer: '', status: 'in_transit', startedAt: day2 + 60_000, arrivedAt: null, origin: 'Hangzhou', destination: 'Ningbo', value: null });
    // Outside the range.
    await task({ code: 'TT-P-5', customer: 'Acme', startedAt: Date.parse('2026-12-01T00:00:00Z') });
    await task({ orgId: rivalOrg, code: 'TT-P-R', customer: 'Acme', startedAt: day1 });
    const [dev] = await t.app.database.db.select().from(transportTasks).where(eq(transportTasks.code, 'TT-P-1'));
    const d = await device(admin, 'PROD-1');
    for (let i = 0; i < 2; i++) {
      await t.app.database.db.insert(alarms).values({
        orgId: demoOrg,
        policyName: 'TT-P-1',
        ruleId: 'temp_high',
        type: 'temp_high',
        levelId,
        deviceRef: d.id,
        taskId: onTime.id,
        status: 'cleared',
        startedAt: new Date(day1 + i * 60_000),
        lastAt: new Date(day1 + i * 60_000),
        threshold: 8,
      });
    }
    expect(dev).toBeDefined();
  });

  const range = `from=${iso(Date.parse('2026-11-09T16:00:00Z'))}&to=${iso(Date.parse('2026-11-12T16:00:00Z'))}`;
  const get = (q: string, token = operator, lang: 'zh-CN' | 'en-US' = 'en-US') =>
    t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/production?${q}`, headers: { access_token: token, language: lang, timezone: 'Asia/Shanghai' } });

  it('counts tasks by customer with the on-time and alarm rates', async () => {
    const res = await get(`${range}&groupBy=customer`);
    expect(res.statusCode, res.body).toBe(200);
    const r = (res.json() as { data: ProductionReport }).data;
    expect(r.rows.map((x) => x.key)).toEqual(['', 'Acme', 'Beta']);
    const acme = r.rows.find((x) => x.key === 'Acme')!;
    expect(acme).toMatchObject({ tasks: 2, delivered: 2, onTime: 1, late: 1, onTimeRate: 0.5, withAlarms: 1, alarms: 2, alarmRate: 0.5, distanceM: 30_000, goodsValue: 3000 });
    expect(r.rows.find((x) => x.key === 'Beta')).toMatchObject({ tasks: 1, cancelled: 1, onTimeRate: null, alarmRate: null });
    expect(r.totals).toMatchObject({ tasks: 4, pending: 0, inTransit: 1, delivered: 2, cancelled: 1, onTime: 1, late: 1, withAlarms: 1, alarms: 2 });
    expect(r.totals.alarmRate).toBeCloseTo(1 / 3, 4);
  });

  it('counts by day in the time zone of the request, by route and by vehicle', async () => {
    const byDay = (await get(`${range}&groupBy=period&period=day`).then((x) => x.json() as { data: ProductionReport })).data;
    expect(byDay.rows.map((x) => [x.key, x.tasks])).toEqual([
      ['2026-11-10', 1],
      ['2026-11-11', 3],
    ]);
    const byMonth = (await get(`${range}&groupBy=period&period=month`).then((x) => x.json() as { data: ProductionReport })).data;
    expect(byMonth.rows.map((x) => [x.key, x.tasks])).toEqual([['2026-11-01', 4]]);
    const byRoute = (await get(`${range}&groupBy=route`).then((x) => x.json() as { data: ProductionReport })).data;
    expect(byRoute.rows.map((x) => [x.key, x.tasks])).toEqual([
      ['Hangzhou → Ningbo', 1],
      ['Shanghai DC → Suzhou Hospital', 3],
    ]);
    const byVehicle = (await get(`${range}&groupBy=vehicle`).then((x) => x.json() as { data: ProductionReport })).data;
    expect(byVehicle.rows.map((x) => [x.key, x.tasks])).toEqual([
      ['', 3],
      ['沪A-12345', 1],
    ]);
  });

  it('exports in the language of the request', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/production/export?${range}&groupBy=customer&format=csv`, headers: { access_token: operator, language: 'zh-CN', timezone: 'Asia/Shanghai' } });
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\ufeff/, '').trim().split('\n');
    expect(lines[0]).toBe('客户,任务数,待出发,在途,已送达,已取消,准时,延误,准时率,有告警任务,告警数,告警率,计划里程（km）,货值');
    expect(lines[1]).toMatch(/^（未填写）,1,/);
    expect(lines[2]).toBe('Acme,2,0,0,2,0,1,1,50.0%,1,2,50.0%,30,3000');
    expect(lines.at(-1)).toMatch(/^合计,4,/);
  });

  it('refuses a range longer than 366 days or ending before it starts, in both languages, and keeps organisations apart', async () => {
    const long = await get(`from=2025-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`, operator, 'zh-CN');
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ errorcode: 'REPORT_RANGE_TOO_LONG', errormsg: '生产报表最多统计 366 天，请缩短时间范围' });
    const inverted = await get(`from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`);
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json()).toMatchObject({ errorcode: 'TRACK_RANGE_INVERTED' });
    const theirs = (await get(`${range}&groupBy=customer`, rival).then((x) => x.json() as { data: ProductionReport })).data;
    expect(theirs.totals.tasks).toBe(1);
    expect(theirs.rows).toEqual([expect.objectContaining({ key: 'Acme', tasks: 1 })]);
    const foreign = await get(`${range}&orgId=${demoOrg}`, rival);
    expect(foreign.statusCode).toBe(404);
  });
});
