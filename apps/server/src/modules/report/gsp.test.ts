// The GSP temperature and humidity record through the API, values worked by hand: a cold room's
// local day (Asia/Shanghai) at 30 minutes with a 20-minute excursion recorded in 2-minute rows, a
// vehicle's day at 5 minutes, the month with its daily summary, the PDF in both languages, the
// Excel table, refusals, and another organisation sees nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { GspReport } from '@iotc/shared/gsp-report';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { HAS_PDFTOTEXT, pdfText } from '../../test/pdf-text.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { assets, deviceBindings, orgs } from '../../db/schema.ts';

let t: TestApp;
let operator: string;
let admin: string;
let rival: string;
let demoOrg: string;
let roomId: string;
let vehicleId: string;
let gatewayId: string;
const MIN = 60_000;
/** Local 00:00 of 2026-11-02 in Asia/Shanghai (the harness's time zone). */
const DAY = Date.parse('2026-11-01T16:00:00Z');
const URL = '/api/iot/v2/reports/temperature';

async function device(deviceId: string): Promise<DeviceWithSecret> {
  const res = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId, name: deviceId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

async function asset(kind: 'cold_room' | 'vehicle' | 'gateway', code: string, limits: { tempMin: number; tempMax: number; humidityMin?: number; humidityMax?: number }) {
  const [row] = await t.app.database.db
    .insert(assets)
    .values({ orgId: demoOrg, kind, code, name: `${code} name`, attrs: {}, ...limits })
    .returning();
  return row!;
}

async function bind(d: DeviceWithSecret, a: typeof assets.$inferSelect, boundAt: number, unboundAt: number | null = null) {
  await t.app.database.db.insert(deviceBindings).values({
    orgId: demoOrg,
    deviceRef: d.id,
    deviceId: d.deviceId,
    assetRef: a.id,
    assetKind: a.kind,
    assetCode: a.code,
    assetName: a.name,
    boundAt: new Date(boundAt),
    boundBy: 'test',
    unboundAt: unboundAt === null ? null : new Date(unboundAt),
  });
}

/** One reading a minute from local minute `startMin` of the day, `count` of them. */
async function readings(d: DeviceWithSecret, startMin: number, count: number, temp: (minute: number) => number, humidity: number) {
  const rows = Array.from({ length: count }, (_, i) => ({ time: new Date(DAY + (startMin + i) * MIN).toISOString(), temperature: temp(startMin + i) }));
  await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, raw, sensors)
    select ${demoOrg}::uuid, ${d.id}::uuid, time, '{}'::jsonb, jsonb_build_object('temperature', temperature, 'humidity', ${humidity}::float8)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(time timestamptz, temperature float8)`);
}

const get = (query: string, token = operator, lang: 'en-US' | 'zh-CN' = 'en-US') =>
  t.app.inject({ method: 'GET', url: `${URL}?${query}`, headers: { access_token: token, language: lang, timezone: 'Asia/Shanghai' } });

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await createTenantUser(db, { code: 'rival-gsp', account: 'rival-gsp', password: DEMO_PASSWORD, permissions: ['device:read'] });
  await addOrgUser(db, { orgId: demoOrg, account: 'gsp-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'gsp-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  rival = await login(t.app, 'rival-gsp', DEMO_PASSWORD);

  // Cold room 2–8 °C, 35–75 %: one reading a minute from 08:00 to 11:59 at 5 °C, 9.5 °C from 10:05 to 10:24.
  const room = await asset('cold_room', 'CR-GSP', { tempMin: 2, tempMax: 8, humidityMin: 35, humidityMax: 75 });
  roomId = room.id;
  const logger = await device('GSP-ROOM-1');
  await bind(logger, room, DAY - 86_400_000);
  await readings(logger, 8 * 60, 240, (m) => (m >= 605 && m < 625 ? 9.5 : 5), 50);
  // A logger bound to the room before the day only: its readings of the day are not the room's.
  const old = await device('GSP-ROOM-OLD');
  await bind(old, room, DAY - 2 * 86_400_000, DAY - 86_400_000);
  await readings(old, 8 * 60, 30, () => 30, 50);

  // Vehicle 2–8 °C: 4 °C a minute from 08:00 to 08:59.
  const vehicle = await asset('vehicle', 'VH-GSP', { tempMin: 2, tempMax: 8 });
  vehicleId = vehicle.id;
  const tracker = await device('GSP-VH-1');
  await bind(tracker, vehicle, DAY - 86_400_000);
  await readings(tracker, 8 * 60, 60, () => 4, 60);

  gatewayId = (await asset('gateway', 'GW-GSP', { tempMin: 0, tempMax: 1 })).id;
});
afterAll(async () => t?.close());

describe('the GSP temperature and humidity record', () => {
  it('records a storage day every 30 minutes and the excursion every 2 minutes', async () => {
    const res = await call<GspReport>(t.app, { method: 'GET', url: `${URL}?assetId=${roomId}&period=day&date=2026-11-02`, token: operator });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.data!;
    expect(r).toMatchObject({ mode: 'storage', asset: { code: 'CR-GSP', kind: 'cold_room' }, from: '2026-11-01T16:00:00.000Z', to: '2026-11-02T16:00:00.000Z', intervals: { baseMin: 30, excursionMin: 2 } });
    expect(r.devices.map((d) => d.deviceId)).toEqual(['GSP-ROOM-1']);
    // 47 slots of 30 minutes and the 10:00 one as 15 of 2 minutes.
    expect(r.rows).toHaveLength(62);
    expect(r.rows[15]).toMatchObject({ time: '2026-11-01T23:30:00.000Z', temperature: null, inRange: null, fine: false });
    expect(r.rows[16]).toMatchObject({ time: '2026-11-02T00:00:00.000Z', temperature: 5, humidity: 50, inRange: true, fine: false });
    const fine = r.rows.slice(20, 35);
    expect(fine.every((row) => row.fine)).toBe(true);
    expect(fine[0]!.time).toBe('2026-11-02T02:00:00.000Z');
    expect(fine.map((row) => row.inRange)).toEqual([true, true, true, false, false, false, false, false, false, false, false, false, false, true, true]);
    expect(fine[3]).toMatchObject({ time: '2026-11-02T02:06:00.000Z', end: '2026-11-02T02:08:00.000Z', temperature: 9.5 });
    expect(r.rows[35]).toMatchObject({ time: '2026-11-02T02:30:00.000Z', fine: false, inRange: true });
    // Data in 08:00–09:30 (4), the 15 rows of 10:00, 10:30–11:30 (3): 22 of 62.
    expect(r.summary).toEqual({
      temperature: { min: 5, max: 9.5, average: 5.38 },
      humidity: { min: 50, max: 50, average: 50 },
      slots: 62,
      slotsWithData: 22,
      completeness: 22 / 62,
      outOfRangeRows: 10,
      excursions: 1,
      outOfRangeS: 1200,
    });
    expect(r.days).toEqual([]);
  });

  it('records a transport day every 5 minutes', async () => {
    const res = await call<GspReport>(t.app, { method: 'GET', url: `${URL}?assetId=${vehicleId}&period=day&date=2026-11-02`, token: operator });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.data!;
    expect(r.mode).toBe('transport');
    expect(r.rows).toHaveLength(288);
    expect(r.rows.slice(95, 98).map((row) => [row.time, row.temperature])).toEqual([
      ['2026-11-01T23:55:00.000Z', null],
      ['2026-11-02T00:00:00.000Z', 4],
      ['2026-11-02T00:05:00.000Z', 4],
    ]);
    expect(r.summary).toMatchObject({ slots: 288, slotsWithData: 12, outOfRangeRows: 0, temperature: { min: 4, max: 4, average: 4 } });
  });

  it('summarises a month per day and keeps only the excursion rows', async () => {
    const res = await call<GspReport>(t.app, { method: 'GET', url: `${URL}?assetId=${roomId}&period=month&date=2026-11`, token: operator });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.data!;
    expect(r.days).toHaveLength(30);
    expect(r.days[1]).toMatchObject({ date: '2026-11-02', summary: { slots: 62, slotsWithData: 22, outOfRangeRows: 10 } });
    expect(r.days[0]!.summary).toMatchObject({ slots: 48, slotsWithData: 0 });
    expect(r.rows).toHaveLength(15);
    expect(r.summary).toMatchObject({ outOfRangeRows: 10, excursions: 1, outOfRangeS: 1200 });
  });

  it('is a PDF in the language of the request', async () => {
    for (const [lang, title] of [
      ['en-US', 'Temperature and humidity record'],
      ['zh-CN', '温湿度记录表'],
    ] as const) {
      for (const period of ['day&date=2026-11-02', 'month&date=2026-11']) {
        const res = await get(`assetId=${roomId}&period=${period}&format=pdf`, operator, lang);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(res.headers['content-disposition']).toContain(encodeURIComponent(`${title}-CR-GSP-`));
        const pdf = res.rawPayload;
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        const raw = pdf.toString('latin1');
        const date = period.endsWith('11-02') ? '2026-11-02' : '2026-11';
        // The English title is plain text in the info dictionary (the Chinese one is UTF-16 with escapes).
        if (lang === 'en-US') expect(raw).toContain(`(${title} CR-GSP ${date})`);
        expect(raw).toMatch(/NotoSansSC/);
      }
    }
  });

  // Issue 22 item 4: the record's maximum is of its sampled rows, the shipment report's peak of every reading; each says so.
  it.skipIf(!HAS_PDFTOTEXT)('says its figures are of the sampled record, in the PDF of both languages', async () => {
    for (const [lang, basis] of [
      ['en-US', 'Figures from Sampled record (every 30 min), not every reading'],
      ['zh-CN', '统计依据 采样记录（每 30 分钟），非全部读数'],
    ] as const) {
      const text = await pdfText((await get(`assetId=${roomId}&period=day&date=2026-11-02&format=pdf`, operator, lang)).rawPayload);
      expect(text).toContain(basis);
    }
  });

  it('is an Excel workbook with the header, the table and the summary', async () => {
    const res = await get(`assetId=${roomId}&period=day&date=2026-11-02&format=xlsx`, operator, 'zh-CN');
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('记录表')!;
    // Indexed by the sheet's row number (eachRow skips the blank rows).
    const values: string[][] = [];
    sheet.eachRow((row, n) => (values[n] = [1, 2, 3, 4].map((i) => String(row.getCell(i).value ?? ''))));
    expect(values).toContainEqual(['记录间隔', '每 30 分钟记录一次；超标期间每 2 分钟记录一次', '', '']);
    const head = values.findIndex((v) => v?.[0] === '时间');
    expect(values[head]).toEqual(['时间', '温度（°C）', '湿度（%）', '是否合格']);
    expect(values[head + 1]).toEqual(['2026-11-02 00:00:00', '无数据', '无数据', '—']);
    expect(values[head + 17]).toEqual(['2026-11-02 08:00:00', '5', '50', '是']);
    expect(values[head + 24]).toEqual(['2026-11-02 10:06:00', '9.5', '50', '否（超标）']);
    expect(sheet.getRow(head + 24).getCell(1).fill).toMatchObject({ fgColor: { argb: 'FFFFF1F0' } });
    expect(values).toContainEqual(['数据完整率', '35.5 %（应记录 62 条，实有 22 条）', '', '']);
    expect(values).toContainEqual(['超标累计时长', '20分00秒', '', '']);
    expect(values).toContainEqual(['统计依据', '采样记录（每 30 分钟），非全部读数', '', '']);
    expect(values.some((v) => v[0] === '记录人:')).toBe(true);
  });

  it('refuses an asset without a record, a wrong date, and is not found for another organisation', async () => {
    const gw = await get(`assetId=${gatewayId}&period=day&date=2026-11-02`, operator, 'zh-CN');
    expect(gw.statusCode).toBe(400);
    expect(gw.json()).toMatchObject({ isSuccess: 'N', errorcode: 'GSP_ASSET_KIND', errormsg: '温湿度记录仅适用于冷库、冷藏柜、仓库、冷藏车和冷藏箱' });
    expect((await get(`assetId=${roomId}&period=day&date=2026-11`)).statusCode).toBe(400);
    expect((await get(`assetId=${roomId}&period=day&date=2026-02-30`)).statusCode).toBe(400);
    for (const format of ['json', 'pdf', 'xlsx']) {
      expect((await get(`assetId=${roomId}&period=day&date=2026-11-02&format=${format}`, rival)).statusCode).toBe(404);
    }
  });
});
