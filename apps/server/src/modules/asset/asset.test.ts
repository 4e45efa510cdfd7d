// Assets through the API: every kind's CRUD with its own fields and checks, warehouses holding
// cold rooms holding refrigerators, Excel import (all rows or none, errors per row in the user's
// language) and export, binding devices with a history that survives the asset, and one
// organisation never reading or changing another's assets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { AssetRow, BindingRow, ImportResult } from '@iotc/shared/asset';
import type { DeviceRow, DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { DeviceState } from '@iotc/shared/live';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { orgs } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let operator: string;
let outsider: string;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token = admin, lang: 'en-US' | 'zh-CN' = 'en-US') =>
  call<T>(t.app, { method, url, body, token, lang });

async function workbook(header: string[], rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('x');
  sheet.addRow(header);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}
async function upload<T>(url: string, file: Buffer, lang: 'en-US' | 'zh-CN' = 'en-US') {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { access_token: admin, language: lang, 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    payload: file,
  });
  return { status: res.statusCode, body: res.json() as { data: T; errorcode: string | null } };
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'asset-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'asset-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  await createTenantUser(db, { code: 'other-assets', account: 'other-assets', password: DEMO_PASSWORD, permissions: ['device:read', 'device:write'] });
  outsider = await login(t.app, 'other-assets', DEMO_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

describe('asset registry', () => {
  let truck: AssetRow;

  it("creates a vehicle with its own fields and ranges; the operator may read but not write", async () => {
    const made = await api<AssetRow>('POST', '/api/iot/v2/vehicles', {
      code: '沪A·12345',
      name: 'Reefer truck 1',
      attrs: { vehicleType: 'reefer', driver: 'Wang Wei', driverPhone: '13800000000' },
      tempMin: 2,
      tempMax: 8,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    truck = made.body.data!;
    expect(truck).toMatchObject({ kind: 'vehicle', code: '沪A·12345', attrs: { driver: 'Wang Wei' }, tempMin: 2, tempMax: 8, humidityMin: null, devices: [] });
    expect((await api<Page<AssetRow>>('GET', '/api/iot/v2/vehicles?keyword=12345', undefined, operator)).body.data!.total).toBe(1);
    expect((await api('POST', '/api/iot/v2/vehicles', { code: 'X', name: 'x' }, operator)).status).toBe(403);
    const dup = await api('POST', '/api/iot/v2/vehicles', { code: '沪A·12345', name: 'again' }, admin, 'zh-CN');
    expect(dup.status).toBe(409);
    expect(dup.body.errormsg).toBe('该类资产中已存在此编号');
    // The same code is free for another kind.
    expect((await api('POST', '/api/iot/v2/containers', { code: '沪A·12345', name: 'box' })).status).toBe(200);
  });

  it('rejects inverted ranges and a bad zip with the field named', async () => {
    const inverted = await api('POST', '/api/iot/v2/vehicles', { code: 'B-1', name: 'b', tempMin: 9, tempMax: 2 }, admin, 'zh-CN');
    expect(inverted.body).toMatchObject({ errorcode: 'RANGE_ORDER', errormsg: '下限不能高于上限' });
    const zip = await api('POST', '/api/iot/v2/warehouses', { code: 'W-9', name: 'w', attrs: { zip: '!' } });
    expect(zip.body.errorcode).toBe('ZIP_FORMAT');
    expect((await api<Page<AssetRow>>('GET', '/api/iot/v2/vehicles')).body.data!.total).toBe(1);
  });

  it('keeps cold rooms in warehouses and refrigerators in either; a warehouse with rooms is not deleted', async () => {
    const wh = (await api<AssetRow>('POST', '/api/iot/v2/warehouses', { code: 'SH-01', name: 'Shanghai cold park', attrs: { province: '上海', city: '上海', address: '浦东新区', zip: '200120', lat: 31.2, lon: 121.6 } })).body.data!;
    const room = await api<AssetRow>('POST', '/api/iot/v2/cold-rooms', { code: 'SH-01-A', name: 'Frozen room A', parentId: wh.id, tempMin: -25, tempMax: -18 });
    expect(room.body.data).toMatchObject({ parentId: wh.id, parentName: 'Shanghai cold park' });
    const fridge = await api<AssetRow>('POST', '/api/iot/v2/refrigerators', { code: 'F-1', name: 'Fridge 1', parentId: room.body.data!.id });
    expect(fridge.status).toBe(200);
    const wrongParent = await api('POST', '/api/iot/v2/cold-rooms', { code: 'SH-01-B', name: 'room', parentId: truck.id });
    expect(wrongParent.body.errorcode).toBe('ASSET_PARENT_KIND');
    const rooms = await api<Page<AssetRow>>('GET', `/api/iot/v2/cold-rooms?parentId=${wh.id}`);
    expect(rooms.body.data!.rows.map((r) => r.code)).toEqual(['SH-01-A']);
    const blocked = await api('DELETE', `/api/iot/v2/warehouses/${wh.id}`);
    expect(blocked).toMatchObject({ status: 409, body: { errorcode: 'ASSET_HAS_CHILDREN' } });
    // A vehicle is not a warehouse, whatever the id.
    expect((await api('GET', `/api/iot/v2/warehouses/${truck.id}`)).status).toBe(404);
  });

  it("never shows or changes another organisation's assets", async () => {
    expect((await api<Page<AssetRow>>('GET', '/api/iot/v2/vehicles', undefined, outsider)).body.data!.total).toBe(0);
    expect((await api('GET', `/api/iot/v2/vehicles/${truck.id}`, undefined, outsider)).status).toBe(404);
    expect((await api('PUT', `/api/iot/v2/vehicles/${truck.id}`, { code: 'HACK', name: 'x' }, outsider)).status).toBe(404);
    expect((await api('DELETE', `/api/iot/v2/vehicles/${truck.id}`, undefined, outsider)).status).toBe(404);
    expect((await api<AssetRow>('GET', `/api/iot/v2/vehicles/${truck.id}`)).body.data!.code).toBe('沪A·12345');
  });
});

describe('import and export', () => {
  it('imports nothing when any row is wrong, naming each row and field in the user language', async () => {
    const file = await workbook(['车牌号', '名称', '司机', '温度下限(°C)', '温度上限(°C)'], [
      ['苏E·00001', 'Truck A', 'Li', 2, 8],
      ['', 'No plate', '', '', ''],
      ['苏E·00003', 'Truck C', '', 9, 1],
    ]);
    const r = await upload<ImportResult>('/api/iot/v2/vehicles/import', file, 'zh-CN');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      created: 0,
      updated: 0,
      errors: [
        { row: 3, field: 'code', message: '编号不能为空' },
        { row: 4, field: 'tempMax', message: '下限不能高于上限' },
      ],
    });
    expect((await api<Page<AssetRow>>('GET', '/api/iot/v2/vehicles?keyword=苏E')).body.data!.total).toBe(0);
  });

  it('creates new codes and changes known ones; the export reads back the same', async () => {
    const file = await workbook(['Plate number', 'Name', 'Driver', 'Temperature min (°C)', 'Temperature max (°C)'], [
      ['苏E·00001', 'Truck A', 'Li', 2, 8],
      ['沪A·12345', 'Reefer truck 1 (renamed)', 'Wang Wei', 0, 4],
    ]);
    const r = await upload<ImportResult>('/api/iot/v2/vehicles/import', file);
    expect(r.body.data).toEqual({ created: 1, updated: 1, errors: [] });
    const res = await t.app.inject({ method: 'GET', url: '/api/iot/v2/vehicles/export?format=xlsx', headers: { access_token: admin, language: 'en-US' } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual(expect.arrayContaining(['Plate number', 'Name', 'Driver', 'Temperature min (°C)', 'Bound devices']));
    const plates = [2, 3].map((n) => sheet.getRow(n).getCell(1).value);
    expect(plates).toEqual(['沪A·12345', '苏E·00001']);
    expect(sheet.getRow(2).getCell(2).value).toBe('Reefer truck 1 (renamed)');
    // The template is the header row alone, in the request language.
    const tpl = await t.app.inject({ method: 'GET', url: '/api/iot/v2/cold-rooms/import-template', headers: { access_token: admin, language: 'zh-CN' } });
    const tb = new ExcelJS.Workbook();
    await tb.xlsx.load(tpl.rawPayload as unknown as ArrayBuffer);
    expect(tb.worksheets[0]!.getRow(1).values).toEqual(expect.arrayContaining(['冷库编码', '所属仓库编码', '面积(㎡)']));
    expect(tb.worksheets[0]!.rowCount).toBe(1);
  });

  it('refuses a file that is not a workbook', async () => {
    const r = await upload('/api/iot/v2/vehicles/import', Buffer.from('plate,name\nA,B'), 'zh-CN');
    expect(r).toMatchObject({ status: 400, body: { errorcode: 'IMPORT_FILE_INVALID' } });
  });

  it('imports devices, answering generated secrets once; a taken id elsewhere is an error', async () => {
    await api('POST', '/api/iot/v2/devices', { deviceId: 'OTHER-ORG-1', name: 'theirs' }, outsider);
    const bad = await upload<ImportResult>('/api/iot/v2/devices/import', await workbook(['Device id (IMEI / serial)', 'Name'], [['IMP-0001', 'Imported 1'], ['OTHER-ORG-1', 'clash']]));
    expect(bad.body.data.errors).toEqual([{ row: 3, field: 'deviceId', message: 'A device with this id already exists' }]);
    const good = await upload<ImportResult>(
      '/api/iot/v2/devices/import',
      await workbook(['Device id (IMEI / serial)', 'Name', 'Model', 'Secret (empty: generated)'], [['IMP-0001', 'Imported 1', 'T-100', ''], ['IMP-0002', 'Imported 2', '', 'a-secret-of-twenty-chars']]),
    );
    expect(good.body.data).toMatchObject({ created: 2, updated: 0, errors: [] });
    expect(good.body.data.secrets).toEqual([{ deviceId: 'IMP-0001', secret: expect.any(String) }]);
    // Both secrets authenticate reports.
    for (const [id, secret] of [['IMP-0001', good.body.data.secrets![0]!.secret], ['IMP-0002', 'a-secret-of-twenty-chars']] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/iot/v2/device/report',
        headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ deviceId: id, time: new Date().toISOString() }),
      });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('bindings', () => {
  it('mounts a device, moves it, unbinds it, and keeps the history after the asset is gone', async () => {
    const dev = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: 'BIND-0001', name: 'Tracker' })).body.data!;
    const truck = (await api<AssetRow>('POST', '/api/iot/v2/vehicles', { code: '京B·00001', name: 'Truck B', tempMin: 2, tempMax: 8 })).body.data!;
    const box = (await api<AssetRow>('POST', '/api/iot/v2/containers', { code: 'MSCU1234567', name: 'Reefer box' })).body.data!;
    const bound = await api<BindingRow>('POST', `/api/iot/v2/devices/${dev.id}/bind`, { assetId: truck.id });
    expect(bound.body.data).toMatchObject({ deviceId: 'BIND-0001', assetKind: 'vehicle', assetCode: '京B·00001', boundBy: 'asset-admin', unboundAt: null });
    expect((await api<AssetRow>('GET', `/api/iot/v2/vehicles/${truck.id}`)).body.data!.devices).toEqual([{ id: dev.id, deviceId: 'BIND-0001', name: 'Tracker' }]);
    expect((await api<DeviceRow>('GET', `/api/iot/v2/devices/${dev.id}`)).body.data!.asset).toMatchObject({ code: '京B·00001' });
    // The live state carries the asset's limits.
    expect((await api<DeviceState>('GET', `/api/iot/v2/devices/${dev.id}/latest`)).body.data!.asset).toMatchObject({ tempMin: 2, tempMax: 8 });
    await api('POST', `/api/iot/v2/devices/${dev.id}/bind`, { assetId: box.id });
    expect((await api<AssetRow>('GET', `/api/iot/v2/vehicles/${truck.id}`)).body.data!.devices).toEqual([]);
    await api('POST', `/api/iot/v2/devices/${dev.id}/unbind`);
    const again = await api('POST', `/api/iot/v2/devices/${dev.id}/unbind`, undefined, admin, 'zh-CN');
    expect(again.body).toMatchObject({ errorcode: 'DEVICE_NOT_BOUND', errormsg: '该设备未绑定资产' });
    await api('DELETE', `/api/iot/v2/vehicles/${truck.id}`);
    const history = (await api<Page<BindingRow>>('GET', `/api/iot/v2/devices/${dev.id}/bindings`)).body.data!;
    expect(history.rows.map((b) => [b.assetCode, b.assetId === null, b.unboundBy])).toEqual([
      ['MSCU1234567', false, 'asset-admin'],
      ['京B·00001', true, 'asset-admin'],
    ]);
    expect((await api<Page<BindingRow>>('GET', `/api/iot/v2/containers/${box.id}/bindings`)).body.data!.total).toBe(1);
  });

  it("does not bind across organisations", async () => {
    const dev = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: 'BIND-0002', name: 'Tracker 2' })).body.data!;
    const theirs = (await api<AssetRow>('POST', '/api/iot/v2/vehicles', { code: '粤B·99999', name: 'Their truck' }, outsider)).body.data!;
    expect((await api('POST', `/api/iot/v2/devices/${dev.id}/bind`, { assetId: theirs.id })).status).toBe(404);
    expect((await api('POST', `/api/iot/v2/devices/${dev.id}/bind`, { assetId: theirs.id }, outsider)).status).toBe(404);
    expect((await api('GET', `/api/iot/v2/devices/${dev.id}/bindings`, undefined, outsider)).status).toBe(404);
  });
});
