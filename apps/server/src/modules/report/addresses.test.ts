// Addresses in the documents (issue 26 item 3), against a local stand-in for Nominatim: the
// shipment report's PDF and Excel name the origin, the destination, each alarm's position and
// where the longest excursion began with the geocoder's address beside the coordinates (a task's
// own address first); the GSP record's PDF and Excel name its warehouse's address (the stored one,
// else the geocoder's for the warehouse's library place). Without GEOCODER_URL, and when the
// stand-in does not answer in time, the same documents are made with the coordinates alone.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { GspReport } from '@iotc/shared/gsp-report';
import type { ShipmentReport } from '@iotc/shared/report';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { HAS_PDFTOTEXT, pdfText } from '../../test/pdf-text.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { alarmLevels, alarms, assets, orgs, places, transportTaskDevices, transportTasks } from '../../db/schema.ts';

let standIn: Server;
let asked: string[] = [];
/** The stand-in takes the request and never answers (the geocoder's time-out). */
let hang = false;

/** The stand-in's address of a latitude: different per position, so each line shows its own. */
const streetOf = (lat: string, lang: string) => (lang === 'zh' ? `测试路${lat}号, 上海市` : `Stand-in Road ${lat}, Shanghai`);

function playNominatim(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://nominatim');
  asked.push(`${url.pathname} ${url.searchParams.get('lat')},${url.searchParams.get('lon')}`);
  if (hang) return;
  const lat = url.searchParams.get('lat') ?? '';
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ display_name: streetOf(lat, url.searchParams.get('accept-language') ?? 'en') }));
}

let geo: TestApp;
let plain: TestApp;
const tokens = new Map<TestApp, string>();
const MIN = 60_000;
const START = Date.parse('2026-11-02T01:00:00Z');
/** Local 00:00 of 2026-11-02 in Asia/Shanghai. */
const DAY = '2026-11-02';

/** Per app: the shipment task and the GSP assets seeded the same way. */
const seeded = new Map<TestApp, { taskId: string; storedTaskId: string; roomId: string; storedRoomId: string; vehicleId: string }>();

async function seed(t: TestApp) {
  const db = t.app.database.db;
  const orgId = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId, account: 'addr-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  const token = await login(t.app, 'addr-admin', DEMO_PASSWORD);
  tokens.set(t, token);
  const dev = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token, body: { deviceId: 'ADDR-1', name: 'ADDR-1' } });
  expect(dev.status, JSON.stringify(dev.body)).toBe(200);
  const deviceRef = dev.body.data!.id;
  // An hour driving north from 31.0000, 121.5000: 5 °C, 10 °C from minute 20 to 29 (the excursion).
  const readings = Array.from({ length: 61 }, (_, i) => ({ time: new Date(START + i * MIN).toISOString(), lat: 31 + i * 0.001, lon: 121.5, temperature: i >= 20 && i < 30 ? 10 : 5 }));
  await db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, speed, raw, sensors)
    select ${orgId}::uuid, ${deviceRef}::uuid, time, lat, lon, 'GPS', 6, '{}'::jsonb, jsonb_build_object('temperature', temperature)
    from jsonb_to_recordset(${JSON.stringify(readings)}::jsonb) as x(time timestamptz, lat float8, lon float8, temperature float8)`);
  const levelId = (await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, orgId)).limit(1))[0]!.id;

  const task = async (code: string, settings: Record<string, unknown>) => {
    const [row] = await db
      .insert(transportTasks)
      .values({
        orgId,
        code,
        status: 'arrived',
        goodsName: 'Vaccines',
        customer: 'Acme',
        originName: 'Minhang DC',
        originLat: 31,
        originLon: 121.5,
        originRadiusM: 300,
        destinationName: 'Baoshan Clinic',
        destinationLat: 31.06,
        destinationLon: 121.5,
        destinationRadiusM: 300,
        plannedDistanceM: 7000,
        plannedStart: new Date(START),
        plannedArrival: new Date(START + 90 * MIN),
        settings: { tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: null, route: [], ...settings },
        startedAt: new Date(START),
        arrivedAt: new Date(START + 60 * MIN),
        createdBy: 'test',
      })
      .returning();
    await db.insert(transportTaskDevices).values({ taskId: row!.id, deviceRef, position: 0 });
    const alarm = { orgId, policyName: code, ruleId: 'temp_high', type: 'temp_high', levelId, deviceRef, taskId: row!.id, status: 'cleared' as const, threshold: 8, value: 10, peak: 10 };
    await db.insert(alarms).values([
      // With its own position (31.0400, 121.4500: off the track, so the fix is not taken instead).
      { ...alarm, startedAt: new Date(START + 20 * MIN), lastAt: new Date(START + 29 * MIN), endedAt: new Date(START + 30 * MIN), lat: 31.04, lon: 121.45 },
      // Without one: the fix nearest its start (minute 45: 31.0450, 121.5000).
      { ...alarm, ruleId: 'door', type: 'door_abnormal', threshold: 0, value: null, peak: null, startedAt: new Date(START + 45 * MIN), lastAt: new Date(START + 46 * MIN), endedAt: new Date(START + 47 * MIN) },
    ]);
    return row!.id;
  };
  const taskId = await task('TT-ADDR-0001', {});
  const storedTaskId = await task('TT-ADDR-0002', { originAddress: 'No. 8 Dock Road, Minhang', destinationAddress: '' });

  // Warehouses on library places (31.2000, 121.3000 and 31.3000, 121.4000), a cold room in each.
  const place = async (name: string, lat: number, lon: number) =>
    (await db.insert(places).values({ orgId, name, shape: 'circle', lat, lon, radiusM: 200 }).returning())[0]!.id;
  const asset = async (values: Partial<typeof assets.$inferInsert> & { kind: typeof assets.$inferInsert.kind; code: string }) =>
    (await db.insert(assets).values({ orgId, name: `${values.code} name`, attrs: {}, tempMin: 2, tempMax: 8, ...values }).returning())[0]!.id;
  const wh = await asset({ kind: 'warehouse', code: 'WH-GEO', placeId: await place('Jiading hub', 31.2, 121.3), attrs: { province: null, city: null, address: null, zip: null, lat: 31.2, lon: 121.3 } });
  const roomId = await asset({ kind: 'cold_room', code: 'CR-GEO', parentId: wh });
  const stored = await asset({
    kind: 'warehouse',
    code: 'WH-STORED',
    placeId: await place('Pudong hub', 31.3, 121.4),
    attrs: { province: '上海市', city: '浦东新区', address: '张江路 88 号', zip: null, lat: 31.3, lon: 121.4 },
  });
  const storedRoomId = await asset({ kind: 'cold_room', code: 'CR-STORED', parentId: stored });
  const vehicleId = await asset({ kind: 'vehicle', code: '沪A-GEO01' });
  seeded.set(t, { taskId, storedTaskId, roomId, storedRoomId, vehicleId });
}

beforeAll(async () => {
  standIn = createServer(playNominatim);
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/`;
  [geo, plain] = await Promise.all([testApp({ geocoder: { url, ratePerSecond: 50, timeoutMs: 5000 } }), testApp()]);
  await seed(geo);
  await seed(plain);
}, 120_000);

afterAll(async () => {
  await Promise.all([geo?.close(), plain?.close()]);
  standIn?.closeAllConnections();
  await new Promise((resolve) => standIn?.close(resolve));
});

beforeEach(async () => {
  asked = [];
  hang = false;
  await geo.app.database.db.execute(sql`delete from geocode_cache`);
});

type Lang = 'en-US' | 'zh-CN';
async function file(t: TestApp, url: string, lang: Lang) {
  const res = await t.app.inject({ method: 'GET', url, headers: { access_token: tokens.get(t)!, language: lang, timezone: 'Asia/Shanghai' } });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.rawPayload;
}
const shipment = (t: TestApp, format: 'pdf' | 'xlsx', lang: Lang, stored = false) => file(t, `/api/iot/v2/reports/shipment/${stored ? seeded.get(t)!.storedTaskId : seeded.get(t)!.taskId}?format=${format}`, lang);
const gsp = (t: TestApp, format: 'pdf' | 'xlsx', lang: Lang, asset: 'roomId' | 'storedRoomId' | 'vehicleId' = 'roomId') =>
  file(t, `/api/iot/v2/reports/temperature?assetId=${seeded.get(t)![asset]}&period=day&date=${DAY}&format=${format}`, lang);

async function book(pdfOrXlsx: Buffer) {
  const b = new ExcelJS.Workbook();
  await b.xlsx.load(pdfOrXlsx as unknown as ArrayBuffer);
  return b;
}
/** Column 1 → column 2 of a sheet (the summary, the GSP header). */
function pairs(sheet: ExcelJS.Worksheet): Map<string, string> {
  const out = new Map<string, string>();
  sheet.eachRow((row) => out.set(String(row.getCell(1).value), String(row.getCell(2).value)));
  return out;
}
/** The last column of the alarms sheet below its header: the positions, in the alarms' order. */
function alarmPositions(sheet: ExcelJS.Worksheet): string[] {
  const out: string[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) out.push(String(row.getCell(9).value));
  });
  return out;
}

describe('the shipment report', () => {
  it('gives the screen the positions with the task’s own addresses, asking no geocoder', async () => {
    const res = await call<ShipmentReport>(geo.app, { method: 'GET', url: `/api/iot/v2/reports/shipment/${seeded.get(geo)!.storedTaskId}`, token: tokens.get(geo)!, lang: 'en-US' });
    expect(res.status).toBe(200);
    const r = res.body.data!;
    expect(r.places).toEqual({ origin: { lat: 31, lon: 121.5, address: 'No. 8 Dock Road, Minhang' }, destination: { lat: 31.06, lon: 121.5, address: null } });
    expect(r.alarms.map((a) => a.position)).toEqual([
      { lat: 31.04, lon: 121.45, address: null },
      { lat: 31.045, lon: 121.5, address: null },
    ]);
    expect(r.longestExcursionAt).toEqual({ lat: 31.02, lon: 121.5, address: null });
    expect(asked).toEqual([]);
  });

  it.skipIf(!HAS_PDFTOTEXT)('names the origin, destination, alarm and excursion positions by the geocoder’s address in the PDF, in both languages', async () => {
    const en = await pdfText(await shipment(geo, 'pdf', 'en-US'));
    expect(en).toContain('Origin location Stand-in Road 31.0000, Shanghai (31.0000, 121.5000)');
    expect(en).toContain('Destination location Stand-in Road 31.0600, Shanghai (31.0600, 121.5000)');
    expect(en).toContain('Longest excursion began at Stand-in Road 31.0200, Shanghai (31.0200, 121.5000)');
    expect(en).toMatch(/Position/);
    expect(en).toMatch(/Stand-in Road 31\.0400, Shanghai \(31\.0400, 121\.4500\)/);
    expect(en).toMatch(/Stand-in Road 31\.0450, Shanghai \(31\.0450, 121\.5000\)/);
    // Five positions, each asked once.
    expect(asked.sort()).toEqual(['/reverse 31.0000,121.5000', '/reverse 31.0200,121.5000', '/reverse 31.0400,121.4500', '/reverse 31.0450,121.5000', '/reverse 31.0600,121.5000']);

    const zh = await pdfText(await shipment(geo, 'pdf', 'zh-CN'));
    expect(zh).toContain('起点位置 测试路31.0000号, 上海市 (31.0000, 121.5000)');
    expect(zh).toContain('终点位置 测试路31.0600号, 上海市 (31.0600, 121.5000)');
    expect(zh).toContain('最长超温起始位置 测试路31.0200号, 上海市 (31.0200, 121.5000)');
    expect(zh).toMatch(/测试路31\.0400号, 上海市 \(31\.0400, 121\.4500\)/);
  });

  it('names them in the Excel summary and the alarms sheet', async () => {
    const b = await book(await shipment(geo, 'xlsx', 'zh-CN'));
    const summary = pairs(b.getWorksheet('概要')!);
    expect(summary.get('起点位置')).toBe('测试路31.0000号, 上海市 (31.0000, 121.5000)');
    expect(summary.get('终点位置')).toBe('测试路31.0600号, 上海市 (31.0600, 121.5000)');
    expect(summary.get('最长超温起始位置')).toBe('测试路31.0200号, 上海市 (31.0200, 121.5000)');
    const sheet = b.getWorksheet('告警')!;
    expect(sheet.getRow(1).getCell(9).value).toBe('位置');
    expect(alarmPositions(sheet)).toEqual(['测试路31.0400号, 上海市 (31.0400, 121.4500)', '测试路31.0450号, 上海市 (31.0450, 121.5000)']);
  });

  it('keeps the task’s own address and asks the geocoder only for the rest', async () => {
    const b = await book(await shipment(geo, 'xlsx', 'en-US', true));
    const summary = pairs(b.getWorksheet('Summary')!);
    expect(summary.get('Origin location')).toBe('No. 8 Dock Road, Minhang (31.0000, 121.5000)');
    expect(summary.get('Destination location')).toBe('Stand-in Road 31.0600, Shanghai (31.0600, 121.5000)');
    expect(asked).not.toContain('/reverse 31.0000,121.5000');
    expect(asked).toContain('/reverse 31.0600,121.5000');
  });

  it('shows the coordinates when the geocoder does not answer in time, asks it once, and still makes the files', async () => {
    hang = true;
    const b = await book(await shipment(geo, 'xlsx', 'en-US'));
    const summary = pairs(b.getWorksheet('Summary')!);
    expect(summary.get('Origin location')).toBe('31.0000, 121.5000');
    expect(summary.get('Destination location')).toBe('31.0600, 121.5000');
    expect(alarmPositions(b.getWorksheet('Alarms')!)).toEqual(['31.0400, 121.4500', '31.0450, 121.5000']);
    // One time-out for the whole batch, not one per position.
    expect(asked).toHaveLength(1);
    if (HAS_PDFTOTEXT) {
      const text = await pdfText(await shipment(geo, 'pdf', 'en-US'));
      expect(text).toContain('Origin location 31.0000, 121.5000');
      expect(text).not.toContain('Stand-in');
    }
  });

  it('shows the coordinates without GEOCODER_URL', async () => {
    const b = await book(await shipment(plain, 'xlsx', 'zh-CN'));
    const summary = pairs(b.getWorksheet('概要')!);
    expect(summary.get('起点位置')).toBe('31.0000, 121.5000');
    expect(summary.get('最长超温起始位置')).toBe('31.0200, 121.5000');
    expect(alarmPositions(b.getWorksheet('告警')!)).toEqual(['31.0400, 121.4500', '31.0450, 121.5000']);
    if (HAS_PDFTOTEXT) {
      const text = await pdfText(await shipment(plain, 'pdf', 'en-US'));
      expect(text).toContain('Origin location 31.0000, 121.5000 Destination location 31.0600, 121.5000');
      expect(text).toMatch(/31\.0450, 121\.5000/);
    }
    expect(asked).toEqual([]);
  });
});

describe('the GSP record', () => {
  it('gives the screen its warehouse with the stored address and the place’s position', async () => {
    const get = (id: string) => call<GspReport>(geo.app, { method: 'GET', url: `/api/iot/v2/reports/temperature?assetId=${id}&period=day&date=${DAY}`, token: tokens.get(geo)!, lang: 'en-US' });
    const room = (await get(seeded.get(geo)!.roomId)).body.data!;
    expect(room.warehouse).toMatchObject({ code: 'WH-GEO', name: 'WH-GEO name', address: null, lat: 31.2, lon: 121.3 });
    const stored = (await get(seeded.get(geo)!.storedRoomId)).body.data!;
    expect(stored.warehouse).toMatchObject({ code: 'WH-STORED', address: '上海市 浦东新区 张江路 88 号', lat: 31.3, lon: 121.4 });
    expect((await get(seeded.get(geo)!.vehicleId)).body.data!.warehouse).toBeNull();
    expect(asked).toEqual([]);
  });

  it.skipIf(!HAS_PDFTOTEXT)('prints the warehouse’s address in the PDF header, the geocoder’s where none is stored', async () => {
    const en = await pdfText(await gsp(geo, 'pdf', 'en-US'));
    expect(en).toContain('Warehouse (name / code) WH-GEO name / WH-GEO');
    expect(en).toContain('Warehouse address Stand-in Road 31.2000, Shanghai (31.2000, 121.3000)');
    const zh = await pdfText(await gsp(geo, 'pdf', 'zh-CN'));
    expect(zh).toContain('仓库地址 测试路31.2000号, 上海市 (31.2000, 121.3000)');
    const stored = await pdfText(await gsp(geo, 'pdf', 'zh-CN', 'storedRoomId'));
    expect(stored).toContain('仓库地址 上海市 浦东新区 张江路 88 号 (31.3000, 121.4000)');
    // Asked once per language (the answers are in the request's language), never for the stored address.
    expect(asked).toEqual(['/reverse 31.2000,121.3000', '/reverse 31.2000,121.3000']);
    // A vehicle's record has no warehouse lines.
    expect(await pdfText(await gsp(geo, 'pdf', 'en-US', 'vehicleId'))).not.toContain('Warehouse address');
  });

  it('puts it in the Excel header', async () => {
    const header = pairs((await book(await gsp(geo, 'xlsx', 'en-US'))).worksheets[0]!);
    expect(header.get('Warehouse address')).toBe('Stand-in Road 31.2000, Shanghai (31.2000, 121.3000)');
  });

  it('shows the coordinates when the geocoder times out or is not configured', async () => {
    hang = true;
    const header = pairs((await book(await gsp(geo, 'xlsx', 'zh-CN'))).worksheets[0]!);
    expect(header.get('仓库地址')).toBe('31.2000, 121.3000');
    const without = pairs((await book(await gsp(plain, 'xlsx', 'en-US'))).worksheets[0]!);
    expect(without.get('Warehouse address')).toBe('31.2000, 121.3000');
    if (HAS_PDFTOTEXT) expect(await pdfText(await gsp(plain, 'pdf', 'en-US'))).toContain('Warehouse address 31.2000, 121.3000');
  });
});
