// Inbound and outbound records through the API: the temperature at hand-over read from the room's
// sensor at the record's time (and none when the newest reading is older than 30 minutes or the
// record is at the warehouse itself), validation in both languages, the audit rules (approve,
// reject with a reason, no self-review, only pending records reviewed, changed or deleted), the
// stock arithmetic with the negative-stock refusal, amounts per province, export, import (all
// rows or none) and another organisation neither reading nor using the first one's ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { AssetRow, ImportResult } from '@iotc/shared/asset';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { errorText } from '@iotc/shared/errors';
import { WAREHOUSE_API, type ProvinceAmount, type RecordInput, type RecordPage, type RecordRow, type StockAnswer } from '@iotc/shared/warehouse';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { orgs, warehouseRecords } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let admin2: string;
let operator: string;
let rival: string;
let demoOrg: string;
const MIN = 60_000;
/** A whole minute two hours ago: records and readings are placed around it. */
const T = Math.floor((Date.now() - 120 * MIN) / MIN) * MIN;
const iso = (ms: number) => new Date(ms).toISOString();
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const api = <T>(method: Method, url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') => call<T>(t.app, { method, url, token, body, lang });

async function asset(resource: string, body: Record<string, unknown>): Promise<AssetRow> {
  const res = await api<AssetRow>('POST', `/api/iot/v2/${resource}`, admin, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

async function sensorOn(assetId: string, deviceId: string): Promise<DeviceWithSecret> {
  const res = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId, name: deviceId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const bound = await api('POST', `/api/iot/v2/devices/${res.body.data!.id}/bind`, admin, { assetId });
  expect(bound.status, JSON.stringify(bound.body)).toBe(200);
  return res.body.data!;
}

/** Stores readings as the intake does. */
async function store(ref: string, readings: { t: number; sensors: Record<string, unknown> }[]) {
  const json = JSON.stringify(readings.map((r) => ({ time: iso(r.t), sensors: r.sensors })));
  await t.app.database.db.execute(sql`insert into telemetry (org_id, device_ref, time, raw, sensors)
    select ${demoOrg}::uuid, ${ref}::uuid, time, '{}'::jsonb, sensors from jsonb_to_recordset(${json}::jsonb) as x(time timestamptz, sensors jsonb)`);
}

const create = (body: Partial<RecordInput>, token = operator, lang: 'zh-CN' | 'en-US' = 'en-US') => api<RecordRow>('POST', WAREHOUSE_API.records, token, body, lang);
async function made(body: Partial<RecordInput>, token = operator): Promise<RecordRow> {
  const res = await create(body, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
// Reviewing signs the record: the reviewer's password again (signatures.test.ts covers the signature).
const approve = (id: string, token = admin, reason?: string) => api<RecordRow>('POST', WAREHOUSE_API.approve(id), token, { reason, password: DEMO_PASSWORD });
const reject = (id: string, body: object, token = admin, lang: 'zh-CN' | 'en-US' = 'en-US') => api<RecordRow>('POST', WAREHOUSE_API.reject(id), token, { password: DEMO_PASSWORD, ...body }, lang);

let shanghai: AssetRow;
let frozen: AssetRow;
let chilled: AssetRow;
let fridge: AssetRow;
let guangzhou: AssetRow;
let logger: DeviceWithSecret;
const base = { direction: 'in' as const, goodsName: '速冻水饺', batchNo: 'B-001', quantity: 10, unit: '箱', handler: '王伟' };

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'wh-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await addOrgUser(db, { orgId: demoOrg, account: 'wh-admin2', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await createTenantUser(db, { code: 'rival-wh', account: 'rival-wh', password: DEMO_PASSWORD, permissions: ['warehouse:read', 'warehouse:write', 'warehouse:audit', 'device:read', 'device:write'] });
  admin = await login(t.app, 'wh-admin', DEMO_PASSWORD);
  admin2 = await login(t.app, 'wh-admin2', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  rival = await login(t.app, 'rival-wh', DEMO_PASSWORD);

  shanghai = await asset('warehouses', { code: 'T-WH-SH', name: '上海测试仓', attrs: { province: '上海', city: '上海', address: '浦东新区 1 号', zip: '201306' }, tempMin: -25, tempMax: 8 });
  frozen = await asset('cold-rooms', { code: 'T-WH-SH-F', name: '冷冻库', parentId: shanghai.id, tempMin: -25, tempMax: -18 });
  chilled = await asset('cold-rooms', { code: 'T-WH-SH-C', name: '冷藏库', parentId: shanghai.id, tempMin: 2, tempMax: 8 });
  fridge = await asset('refrigerators', { code: 'T-WH-SH-C-R1', name: '医药冷柜', parentId: chilled.id, tempMin: 2, tempMax: 8 });
  guangzhou = await asset('warehouses', { code: 'T-WH-GZ', name: '广州测试仓', attrs: { province: '广东', city: '广州' } });
  await asset('warehouses', { code: 'T-WH-GZ2', name: '广州二仓', attrs: { province: '广东', city: '广州' } });
  logger = await sensorOn(frozen.id, 'WH-LOGGER-1');
  await store(logger.id, [
    { t: T - 40 * MIN, sensors: { temperature: -15, humidity: 70 } },
    { t: T - 10 * MIN, sensors: { temperature: -19.5, humidity: 62 } },
    { t: T + 5 * MIN, sensors: { temperature: -30, humidity: 50 } },
    { t: T - 200 * MIN, sensors: { temperature: -21, humidity: 55 } },
  ]);
}, 60_000);
afterAll(async () => t?.close());

describe('entering a record', () => {
  it('reads the temperature at hand-over: the newest reading at or before the time, within 30 minutes', async () => {
    const r = await made({ ...base, locationId: frozen.id, time: iso(T) });
    expect(r).toMatchObject({
      warehouseId: shanghai.id,
      warehouseName: '上海测试仓',
      roomId: frozen.id,
      roomKind: 'cold_room',
      province: '上海',
      city: '上海',
      zip: '201306',
      temperature: -19.5,
      humidity: 62,
      readingTime: iso(T - 10 * MIN),
      readingDeviceId: 'WH-LOGGER-1',
      noReading: false,
      tempMin: -25,
      tempMax: -18,
      auditStatus: 'pending',
      isAudit: 0,
      createdBy: 'demo',
      time: iso(T),
    });
    // Exactly at a reading's time, that reading.
    expect((await made({ ...base, locationId: frozen.id, time: iso(T + 5 * MIN) })).temperature).toBe(-30);
  });

  it('finds none when the newest reading is more than 30 minutes older, and none for a room without a sensor', async () => {
    const old = await made({ ...base, locationId: frozen.id, time: iso(T - 41 * MIN) });
    // T - 41 min: the reading at T - 40 min is after it, the one at T - 200 min too old.
    expect(old).toMatchObject({ temperature: null, humidity: null, readingTime: null, noReading: true });
    const inWindow = await made({ ...base, locationId: frozen.id, time: iso(T - 200 * MIN + 30 * MIN) });
    expect(inWindow.temperature).toBe(-21);
    const noSensor = await made({ ...base, locationId: chilled.id, time: iso(T) });
    expect(noSensor).toMatchObject({ temperature: null, noReading: true, roomId: chilled.id, tempMin: 2, tempMax: 8 });
  });

  it('reads nothing for a record at the warehouse itself, and places a refrigerator under its warehouse', async () => {
    const atWarehouse = await made({ ...base, locationId: shanghai.id });
    expect(atWarehouse).toMatchObject({ roomId: null, roomKind: null, temperature: null, noReading: false, tempMax: 8 });
    // No time: now.
    expect(Math.abs(Date.parse(atWarehouse.time) - Date.now())).toBeLessThan(60_000);
    const inFridge = await made({ ...base, locationId: fridge.id, time: iso(T) });
    expect(inFridge).toMatchObject({ warehouseId: shanghai.id, roomId: fridge.id, roomKind: 'refrigerator', roomName: '医药冷柜' });
  });

  it('refuses bad input in the request language', async () => {
    const zero = await create({ ...base, locationId: frozen.id, quantity: 0 }, operator, 'zh-CN');
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({ errorcode: 'WAREHOUSE_QUANTITY_POSITIVE', errormsg: '数量须为大于 0 的数字' });
    const future = await create({ ...base, locationId: frozen.id, time: iso(Date.now() + 3_600_000) });
    expect(future.body).toMatchObject({ errorcode: 'WAREHOUSE_TIME_FUTURE', errormsg: errorText('WAREHOUSE_TIME_FUTURE', 'en') });
    const noGoods = await create({ ...base, locationId: frozen.id, goodsName: '  ' }, operator, 'zh-CN');
    expect(noGoods.body).toMatchObject({ errorcode: 'WAREHOUSE_GOODS_REQUIRED', errormsg: '请输入货物名称' });
    const noHandler = await create({ ...base, locationId: frozen.id, handler: '' });
    expect(noHandler.body.errorcode).toBe('WAREHOUSE_HANDLER_REQUIRED');
    const direction = await create({ ...base, locationId: frozen.id, direction: 'sideways' as 'in' });
    expect(direction.body.errorcode).toBe('WAREHOUSE_DIRECTION_REQUIRED');
    // A gateway is no place for goods.
    const gw = await asset('gateways', { code: 'T-GW-1', name: 'gw' });
    const wrongKind = await create({ ...base, locationId: gw.id }, operator, 'zh-CN');
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body).toMatchObject({ errorcode: 'WAREHOUSE_LOCATION_UNKNOWN', errormsg: '该组织下不存在此仓库、冷库或冷柜' });
  });

  it('needs warehouse:write to enter and warehouse:read to list', async () => {
    await createTenantUser(t.app.database.db, { code: 'wh-none', account: 'wh-none', password: DEMO_PASSWORD, permissions: ['device:read'] });
    const none = await login(t.app, 'wh-none', DEMO_PASSWORD);
    expect((await api('GET', WAREHOUSE_API.records, none)).status).toBe(403);
    expect((await create({ ...base, locationId: frozen.id }, none)).status).toBe(403);
  });
});

describe('reviewing', () => {
  it('approves with the reviewer and time; a second review, a change or a delete of it is refused', async () => {
    const r = await made({ ...base, goodsName: '鲜牛奶', locationId: chilled.id, time: iso(T) });
    // The operator holds no warehouse:audit.
    expect((await approve(r.id, operator)).status).toBe(403);
    const ok = await approve(r.id, admin, '数量核对无误');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ auditStatus: 'approved', isAudit: 1, reviewer: 'wh-admin', auditReason: '数量核对无误' });
    expect(Date.now() - Date.parse(ok.body.data!.reviewedAt!)).toBeLessThan(60_000);
    const again = await reject(r.id, { reason: 'late' }, admin2, 'zh-CN');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ errorcode: 'WAREHOUSE_RECORD_NOT_PENDING', errormsg: '仅待审核的记录可以修改、删除或审核' });
    expect((await api('PUT', WAREHOUSE_API.record(r.id), operator, { ...base, locationId: chilled.id })).body.errorcode).toBe('WAREHOUSE_RECORD_NOT_PENDING');
    expect((await api('DELETE', WAREHOUSE_API.record(r.id), operator)).status).toBe(409);
  });

  it('rejects only with a reason', async () => {
    const r = await made({ ...base, locationId: chilled.id, time: iso(T) });
    const bare = await reject(r.id, { reason: ' ' }, admin, 'zh-CN');
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ errorcode: 'WAREHOUSE_REJECT_REASON_REQUIRED', errormsg: '请填写驳回原因' });
    expect((await reject(r.id, {}, admin)).body.errorcode).toBe('WAREHOUSE_REJECT_REASON_REQUIRED');
    const done = await reject(r.id, { reason: '批次号与单据不符' }, admin);
    expect(done.body.data).toMatchObject({ auditStatus: 'rejected', isAudit: 2, reviewer: 'wh-admin', auditReason: '批次号与单据不符' });
    expect((await approve(r.id, admin2)).status).toBe(409);
  });

  it('refuses a review by the record\'s own author', async () => {
    const r = await made({ ...base, locationId: chilled.id, time: iso(T) }, admin);
    const self = await approve(r.id, admin);
    expect(self.status).toBe(403);
    expect(self.body.errorcode).toBe('WAREHOUSE_SELF_AUDIT');
    expect((await reject(r.id, { reason: 'x' }, admin)).body.errorcode).toBe('WAREHOUSE_SELF_AUDIT');
    expect((await approve(r.id, admin2)).body.data?.auditStatus).toBe('approved');
  });

  it('changes and deletes a pending record, reading the temperature again for the new time', async () => {
    const r = await made({ ...base, locationId: chilled.id, time: iso(T) });
    const changed = await api<RecordRow>('PUT', WAREHOUSE_API.record(r.id), operator, { ...base, locationId: frozen.id, time: iso(T), quantity: 12, remark: '改到冷冻库' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ roomId: frozen.id, quantity: 12, temperature: -19.5, remark: '改到冷冻库', auditStatus: 'pending' });
    expect((await api('DELETE', WAREHOUSE_API.record(r.id), operator)).status).toBe(200);
    expect((await api('GET', WAREHOUSE_API.record(r.id), operator)).status).toBe(404);
  });
});

describe('stock', () => {
  const goods = { ...base, goodsName: '进口冷冻牛肉', batchNo: 'BEEF-7', unit: '托' };
  it('adds approved in and takes approved out per room and goods / batch; pending and rejected do not count', async () => {
    const inbound = await made({ ...goods, locationId: frozen.id, quantity: 100, time: iso(T - 60 * MIN) });
    await approve(inbound.id);
    const out1 = await made({ ...goods, locationId: frozen.id, direction: 'out', quantity: 30.5, time: iso(T - 30 * MIN) });
    await approve(out1.id);
    await made({ ...goods, locationId: frozen.id, direction: 'out', quantity: 5 }); // pending
    const rejected = await made({ ...goods, locationId: frozen.id, quantity: 1000 });
    await reject(rejected.id, { reason: 'duplicate' });
    // Another batch is its own stock.
    const other = await made({ ...goods, batchNo: 'BEEF-8', locationId: frozen.id, quantity: 7, time: iso(T - 20 * MIN) });
    await approve(other.id);

    const res = await api<StockAnswer>('GET', `${WAREHOUSE_API.stock}?keyword=BEEF`, operator);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data!.rows).toEqual([
      expect.objectContaining({ warehouseName: '上海测试仓', roomName: '冷冻库', goodsName: '进口冷冻牛肉', batchNo: 'BEEF-7', unit: '托', inQuantity: 100, outQuantity: 30.5, quantity: 69.5, lastMovementAt: iso(T - 30 * MIN) }),
      expect.objectContaining({ batchNo: 'BEEF-8', quantity: 7, lastMovementAt: iso(T - 20 * MIN) }),
    ]);
  });

  it('refuses to approve an outbound that would leave the stock below zero, and lets one that empties it through', async () => {
    const tooMuch = await made({ ...goods, locationId: frozen.id, direction: 'out', quantity: 69.6 });
    const refused = await approve(tooMuch.id);
    expect(refused.status).toBe(409);
    expect(refused.body.errorcode).toBe('WAREHOUSE_STOCK_NEGATIVE');
    expect(refused.body.errormsg).toContain('69.5');
    expect((await api<RecordRow>('GET', WAREHOUSE_API.record(tooMuch.id), operator)).body.data!.auditStatus).toBe('pending');
    // The same goods in another room are not this room's stock.
    const elsewhere = await made({ ...goods, locationId: chilled.id, direction: 'out', quantity: 1 });
    expect((await approve(elsewhere.id)).body.errorcode).toBe('WAREHOUSE_STOCK_NEGATIVE');
    const exact = await made({ ...goods, locationId: frozen.id, direction: 'out', quantity: 69.5 });
    expect((await approve(exact.id)).status).toBe(200);
    const rows = (await api<StockAnswer>('GET', `${WAREHOUSE_API.stock}?keyword=BEEF-7`, operator)).body.data!.rows;
    expect(rows).toEqual([]);
    const withEmpty = (await api<StockAnswer>('GET', `${WAREHOUSE_API.stock}?keyword=BEEF-7&includeEmpty=true`, operator)).body.data!.rows;
    expect(withEmpty).toHaveLength(1);
    expect(withEmpty[0]!.quantity).toBe(0);
  });

  it('counts warehouses and stock per province', async () => {
    const gz = await made({ ...goods, goodsName: '荔枝', batchNo: 'L-1', locationId: guangzhou.id, quantity: 40 });
    await approve(gz.id);
    const res = await api<ProvinceAmount[]>('GET', WAREHOUSE_API.provinces, operator);
    expect(res.status).toBe(200);
    // Keyed by the province dictionary's code: the screens name it in their language.
    const byName = new Map(res.body.data!.map((p) => [p.province, p]));
    expect(byName.get('440000')).toEqual({ province: '440000', code: '440000', warehouses: 2, quantity: 40 });
    const stockSh = (await api<StockAnswer>('GET', `${WAREHOUSE_API.stock}?province=${encodeURIComponent('上海')}`, operator)).body.data!.rows;
    const sum = stockSh.reduce((s, r) => s + r.quantity, 0);
    expect(byName.get('310000')).toEqual({ province: '310000', code: '310000', warehouses: 1, quantity: sum });
    expect(sum).toBeGreaterThan(0);
    // The filter takes the code, or any spelling of the province.
    for (const p of ['310000', 'Shanghai', '上海市'])
      expect((await api<StockAnswer>('GET', `${WAREHOUSE_API.stock}?province=${encodeURIComponent(p)}`, operator)).body.data!.rows).toEqual(stockSh);
  });
});

describe('the list', () => {
  it('answers the count of each audit tab for the same filters, and filters', async () => {
    const all = await api<RecordPage>('GET', `${WAREHOUSE_API.records}?size=100`, operator);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const c = all.body.data!.counts;
    expect(c.all).toBe(c.pending + c.approved + c.rejected);
    expect(all.body.data!.total).toBe(c.all);
    const rows = all.body.data!.rows;
    expect(c.pending).toBe(rows.filter((r) => r.auditStatus === 'pending').length);
    expect(c.rejected).toBeGreaterThanOrEqual(2);
    // Newest first.
    expect(rows.map((r) => r.time)).toEqual([...rows.map((r) => r.time)].sort().reverse());

    const pending = await api<RecordPage>('GET', `${WAREHOUSE_API.records}?auditStatus=pending&size=100`, operator);
    expect(pending.body.data!.total).toBe(c.pending);
    expect(pending.body.data!.counts).toEqual(c);
    expect(pending.body.data!.rows.every((r) => r.auditStatus === 'pending')).toBe(true);

    const beef = await api<RecordPage>('GET', `${WAREHOUSE_API.records}?keyword=beef-8&size=100`, operator);
    expect(beef.body.data!.rows.map((r) => r.batchNo)).toEqual(['BEEF-8']);
    expect(beef.body.data!.counts).toEqual({ all: 1, pending: 0, approved: 1, rejected: 0 });

    const room = await api<RecordPage>('GET', `${WAREHOUSE_API.records}?roomId=${fridge.id}&direction=in`, operator);
    expect(room.body.data!.rows.map((r) => r.roomId)).toEqual([fridge.id]);
    const gd = await api<RecordPage>('GET', `${WAREHOUSE_API.records}?province=${encodeURIComponent('广东')}`, operator);
    expect(gd.body.data!.rows.map((r) => r.goodsName)).toEqual(['荔枝']);
    expect(gd.body.data!.rows.map((r) => [r.province, r.provinceCode])).toEqual([['广东', '440000']]);
    const gdByCode = await api<RecordPage>('GET', `${WAREHOUSE_API.records}?province=440000`, operator);
    expect(gdByCode.body.data!.rows.map((r) => r.goodsName)).toEqual(['荔枝']);
    const window = await api<RecordPage>('GET', `${WAREHOUSE_API.records}?from=${iso(T - 61 * MIN)}&to=${iso(T - 29 * MIN)}&keyword=BEEF`, operator);
    expect(window.body.data!.rows.map((r) => r.time).sort()).toEqual([iso(T - 60 * MIN), iso(T - 30 * MIN)]);
    expect((await api('GET', `${WAREHOUSE_API.records}?from=${iso(T)}&to=${iso(T - MIN)}`, operator)).body.errorcode).toBe('TRACK_RANGE_INVERTED');
  });

  it('exports the filtered records in the request language and time zone', async () => {
    const csv = await t.app.inject({
      method: 'GET',
      url: `${WAREHOUSE_API.records}/export?format=csv&keyword=BEEF-8`,
      headers: { access_token: operator, language: 'zh-CN', timezone: 'Asia/Shanghai' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace(/^\ufeff/, '').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('出入库时间');
    expect(lines[0]).toContain('交接温度(°C)');
    expect(lines[1]).toContain('入库');
    expect(lines[1]).toContain('已通过');
    // T - 20 min in Shanghai (UTC+8).
    const local = new Date(T - 20 * MIN + 8 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
    expect(lines[1]).toContain(local);

    const xlsx = await t.app.inject({ method: 'GET', url: `${WAREHOUSE_API.records}/export?format=xlsx&keyword=BEEF`, headers: { access_token: operator, language: 'en-US', timezone: 'UTC' } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(XLSX);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const ws = book.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1, 3)).toEqual(['Time', 'Direction']);
    expect(ws.rowCount).toBeGreaterThan(3);
    // The province in the language (the dictionary's name); a city is as written.
    const header = ws.getRow(1).values as unknown[];
    const col = header.indexOf('Province');
    expect(col).toBeGreaterThan(0);
    expect(ws.getRow(2).getCell(col).value).toBe('Shanghai');
    expect(lines[1]).toContain(',上海,');
  });
});

describe('import', () => {
  async function sheet(rows: (string | number)[][], header = ['仓库编码', '冷库或冷柜编码', '方向', '货物名称', '批次号', '数量', '单位', '出入库时间', '经手人', '备注']) {
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet('x');
    ws.addRow(header);
    for (const r of rows) ws.addRow(r);
    return Buffer.from(await book.xlsx.writeBuffer());
  }
  const upload = (file: Buffer, lang: 'zh-CN' | 'en-US' = 'zh-CN') =>
    t.app.inject({ method: 'POST', url: `${WAREHOUSE_API.records}/import`, headers: { access_token: operator, language: lang, timezone: 'Asia/Shanghai', 'content-type': XLSX }, payload: file });
  const wall = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
  const count = async () => (await t.app.database.db.select().from(warehouseRecords)).length;

  it('offers a template with the headers in the request language', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${WAREHOUSE_API.records}/import-template`, headers: { access_token: operator, language: 'en-US' } });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect((book.worksheets[0]!.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['Warehouse code', 'Cold room or refrigerator code', 'Direction']);
  });

  it('stores nothing when a row is wrong and answers every error in the user\'s language', async () => {
    const before = await count();
    const res = await upload(
      await sheet([
        ['T-WH-SH', 'T-WH-SH-F', '入库', '汤圆', 'TY-1', 5, '箱', wall(T), '李强', ''],
        ['T-WH-XX', '', '入库', '汤圆', 'TY-1', 5, '箱', '', '李强', ''],
        ['T-WH-SH', 'NOPE', '上架', '汤圆', 'TY-1', 'many', '箱', 'yesterday', '李强', ''],
        ['T-WH-SH', '', 'in', '汤圆', 'TY-1', -1, '箱', '', '', ''],
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().data as ImportResult;
    expect(result.created).toBe(0);
    expect(result.errors).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'warehouseCode', message: '该组织下不存在此仓库、冷库或冷柜' },
        { row: 4, field: 'roomCode', message: '该组织下不存在此仓库、冷库或冷柜' },
        { row: 4, field: 'direction', message: '请填写“入库”或“出库”' },
        { row: 4, field: 'quantity', message: '请填写数字' },
        { row: 4, field: 'time', message: '时间格式为 YYYY-MM-DD HH:mm:ss' },
        { row: 5, field: 'quantity', message: '数量须为大于 0 的数字' },
        { row: 5, field: 'handler', message: '请输入经手人' },
      ]),
    );
    expect(await count()).toBe(before);
  });

  it('creates every row pending, times in the request time zone, reading the temperature at hand-over', async () => {
    const before = await count();
    const res = await upload(
      await sheet(
        [
          ['T-WH-SH', 'T-WH-SH-F', 'Inbound', 'Dumplings', 'TY-2', 5, 'box', wall(T), 'Li', 'from sheet'],
          ['T-WH-SH', 'T-WH-SH-C-R1', 'out', 'Dumplings', 'TY-2', 2, 'box', '', 'Li', ''],
          ['T-WH-GZ', '', '出库', 'Lychee', '', 1, '', wall(T - 60 * MIN), 'Zhang', ''],
        ],
        ['Warehouse code', 'Cold room or refrigerator code', 'Direction', 'Goods', 'Batch number', 'Quantity', 'Unit', 'Time', 'Handler', 'Remark'],
      ),
      'en-US',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ created: 3, updated: 0, errors: [] });
    expect(await count()).toBe(before + 3);
    const rows = (await api<RecordPage>('GET', `${WAREHOUSE_API.records}?keyword=TY-2&size=10`, operator)).body.data!.rows;
    const first = rows.find((r) => r.roomId === frozen.id)!;
    expect(first).toMatchObject({ direction: 'in', time: iso(T), temperature: -19.5, auditStatus: 'pending', remark: 'from sheet', createdBy: 'demo' });
    expect(rows.find((r) => r.roomId === fridge.id)).toMatchObject({ direction: 'out', roomKind: 'refrigerator' });
  });
});

describe('organisations', () => {
  it('keeps another organisation out: it neither reads the records nor uses their ids or the places', async () => {
    const mine = await made({ ...base, locationId: frozen.id, time: iso(T) });
    expect((await api('GET', WAREHOUSE_API.record(mine.id), rival)).status).toBe(404);
    expect((await approve(mine.id, rival)).status).toBe(404);
    expect((await reject(mine.id, { reason: 'x' }, rival)).status).toBe(404);
    expect((await api('PUT', WAREHOUSE_API.record(mine.id), rival, { ...base, locationId: frozen.id })).status).toBe(404);
    expect((await api('DELETE', WAREHOUSE_API.record(mine.id), rival)).status).toBe(404);
    const used = await create({ ...base, locationId: frozen.id }, rival);
    expect(used.status).toBe(400);
    expect(used.body.errorcode).toBe('WAREHOUSE_LOCATION_UNKNOWN');
    const list = await api<RecordPage>('GET', WAREHOUSE_API.records, rival);
    expect(list.body.data).toMatchObject({ total: 0, rows: [], counts: { all: 0, pending: 0, approved: 0, rejected: 0 } });
    expect((await api<StockAnswer>('GET', WAREHOUSE_API.stock, rival)).body.data!.rows).toEqual([]);
    expect((await api<ProvinceAmount[]>('GET', WAREHOUSE_API.provinces, rival)).body.data).toEqual([]);
    expect((await api('GET', `${WAREHOUSE_API.records}?orgId=${demoOrg}`, rival)).status).toBe(404);
    // The record is untouched.
    expect((await api<RecordRow>('GET', WAREHOUSE_API.record(mine.id), operator)).body.data!.auditStatus).toBe('pending');
  });
});
