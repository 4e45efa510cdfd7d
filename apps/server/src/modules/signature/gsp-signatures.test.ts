// Electronic signatures on an asset's GSP temperature and humidity record (a cold room's local
// day, Asia/Shanghai): recorded (responsible) and reviewed by two people, never one; a wrong
// password refused in both languages and counted toward the sign-in lock-out; a day not yet over
// refused; the PDF printing the signatures in place of the blank lines; a reading or a warehouse
// record of the day changed afterwards shows the signatures as no longer matching; signing needs
// the write permission of the area; another organisation neither signs nor reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { AssetRow } from '@iotc/shared/asset';
import { decodeLeaf } from '@iotc/shared/ledger/leaf';
import { gspRecordId, SIGNATURE_API, type SignatureRow } from '@iotc/shared/signature';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { HAS_PDFTOTEXT, pdfText } from '../../test/pdf-text.ts';
import { auditLogs, deviceBindings, ledgerLeaves, loginFailures, orgs, roleMenus, rolePermissions, roles } from '../../db/schema.ts';

let t: TestApp;
let recorder: string;
let reviewer: string;
let viewer: string;
let rival: string;
let room: AssetRow;
let device: DeviceWithSecret;
let demoOrg: string;

type Lang = 'zh-CN' | 'en-US';
const MIN = 60_000;
/** Local 00:00 of 2026-11-02 in Asia/Shanghai (the harness's time zone). */
const DAY = Date.parse('2026-11-01T16:00:00Z');
const KEY = () => ({ assetId: room.id, period: 'day' as const, date: '2026-11-02' });
const sign = (token: string, meaning: 'responsible' | 'reviewed', password = DEMO_PASSWORD, lang: Lang = 'en-US', key: object = KEY()) =>
  call<SignatureRow>(t.app, { method: 'POST', url: SIGNATURE_API.gspSignatures, token, lang, body: { ...key, meaning, password } });
const listed = (token = recorder, tz = 'Asia/Shanghai') =>
  t.app.inject({ method: 'GET', url: `${SIGNATURE_API.gspSignatures}?assetId=${room.id}&period=day&date=2026-11-02`, headers: { access_token: token, language: 'en-US', timezone: tz } });
async function signatures(token = recorder): Promise<SignatureRow[]> {
  const res = await listed(token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: SignatureRow[] }).data;
}
async function pdf(lang: Lang): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/iot/v2/reports/temperature?assetId=${room.id}&period=day&date=2026-11-02&format=pdf`,
    headers: { access_token: recorder, language: lang, timezone: 'Asia/Shanghai' },
  });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return pdfText(res.rawPayload);
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'gsp-rec', password: DEMO_PASSWORD, roleCodes: ['operator'] });
  await addOrgUser(db, { orgId: demoOrg, account: 'gsp-rev', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  // Reads the record but records nothing in the warehouse.
  const [role] = await db.insert(roles).values({ orgId: demoOrg, code: 'gsp-viewer', nameZh: '查看', nameEn: 'Viewer' }).returning();
  await db.insert(roleMenus).values({ roleId: role!.id, menuId: '102-monitor-live-device' });
  await db.insert(rolePermissions).values({ roleId: role!.id, permission: 'device:read' });
  await addOrgUser(db, { orgId: demoOrg, account: 'gsp-view', password: DEMO_PASSWORD, roleCodes: ['gsp-viewer'] });
  await createTenantUser(db, { code: 'rival-gsp-sig', account: 'rival-gsp-sig', password: DEMO_PASSWORD, permissions: ['device:read', 'warehouse:read', 'warehouse:write', 'transport:write'] });
  [recorder, reviewer, viewer, rival] = await Promise.all([
    login(t.app, 'gsp-rec', DEMO_PASSWORD),
    login(t.app, 'gsp-rev', DEMO_PASSWORD),
    login(t.app, 'gsp-view', DEMO_PASSWORD),
    login(t.app, 'rival-gsp-sig', DEMO_PASSWORD),
  ]);
  const wh = await call<AssetRow>(t.app, { method: 'POST', url: '/api/iot/v2/warehouses', token: reviewer, body: { code: 'GSPS-WH', name: '签名仓' } });
  room = (await call<AssetRow>(t.app, { method: 'POST', url: '/api/iot/v2/cold-rooms', token: reviewer, body: { code: 'GSPS-CR', name: '冷藏库一', parentId: wh.body.data!.id, tempMin: 2, tempMax: 8 } })).body.data!;
  device = (await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: reviewer, body: { deviceId: 'GSPS-DEV', name: 'GSPS-DEV' } })).body.data!;
  await db.insert(deviceBindings).values({
    orgId: demoOrg,
    deviceRef: device.id,
    deviceId: device.deviceId,
    assetRef: room.id,
    assetKind: 'cold_room',
    assetCode: room.code,
    assetName: room.name,
    boundAt: new Date(DAY - 60 * MIN),
    boundBy: 'test',
  });
  // One reading every 10 minutes from 08:00 to 11:50 at 5 °C, 60 % (so 08:00 records 5 °C).
  const rows = Array.from({ length: 24 }, (_, i) => ({ time: new Date(DAY + (480 + i * 10) * MIN).toISOString() }));
  await db.execute(sql`insert into telemetry (org_id, device_ref, time, raw, sensors)
    select ${demoOrg}::uuid, ${device.id}::uuid, time, '{}'::jsonb, jsonb_build_object('temperature', 5.0::float8, 'humidity', 60.0::float8)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(time timestamptz)`);
}, 60_000);
afterAll(async () => t?.close());

describe("a cold room's GSP record", () => {
  it('refuses a wrong password in either language, audits and counts it, and signs nothing', async () => {
    const failures = async () => (await t.app.database.db.select().from(loginFailures).where(eq(loginFailures.account, 'gsp-rec'))).length;
    const before = await failures();
    const en = await sign(recorder, 'responsible', 'wrong-password');
    expect(en).toMatchObject({ status: 400, body: { errorcode: 'SIGNATURE_PASSWORD_WRONG', errormsg: 'The password is wrong: the signature was not made' } });
    const zh = await sign(recorder, 'responsible', 'wrong-password', 'zh-CN');
    expect(zh).toMatchObject({ status: 400, body: { errorcode: 'SIGNATURE_PASSWORD_WRONG', errormsg: '密码错误，签名未完成' } });
    expect(await failures()).toBe(before + 2);
    const audited = await t.app.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'signature'), eq(auditLogs.result, 'failure'), eq(auditLogs.account, 'gsp-rec')));
    expect(audited).toHaveLength(2);
    expect(await signatures()).toEqual([]);
    await t.app.database.db.delete(loginFailures).where(eq(loginFailures.account, 'gsp-rec'));
  });

  it('refuses a day that is not over yet, and a reader without the warehouse write permission', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const open = await sign(recorder, 'responsible', DEMO_PASSWORD, 'zh-CN', { assetId: room.id, period: 'day', date: today });
    expect(open).toMatchObject({ status: 409, body: { errorcode: 'SIGNATURE_RECORD_OPEN', errormsg: '记录期间尚未结束，结束后方可签名' } });
    expect((await sign(viewer, 'responsible')).status).toBe(403);
    // The viewer still reads the record's signatures.
    expect((await listed(viewer)).statusCode).toBe(200);
  });

  it('is signed as recorded and reviewed by two people, never one; both on the PDF in either language', async () => {
    const recorded = await sign(recorder, 'responsible');
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    expect(recorded.body.data).toMatchObject({ recordType: 'asset_gsp_record', recordId: gspRecordId(KEY(), 'Asia/Shanghai'), meaning: 'responsible', signerAccount: 'gsp-rec', matches: true });

    const same = await sign(recorder, 'reviewed', DEMO_PASSWORD, 'zh-CN');
    expect(same).toMatchObject({ status: 403, body: { errorcode: 'SIGNATURE_SAME_PERSON', errormsg: '第二个签名须由另一人完成' } });
    expect((await sign(recorder, 'reviewed')).body.errormsg).toBe('A second signature must be by another person');
    expect((await sign(recorder, 'responsible')).body.errorcode).toBe('SIGNATURE_ALREADY_SIGNED');

    const reviewed = await sign(reviewer, 'reviewed');
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    const rows = await signatures();
    expect(rows.map((s) => [s.meaning, s.signerAccount, s.matches])).toEqual([
      ['responsible', 'gsp-rec', true],
      ['reviewed', 'gsp-rev', true],
    ]);
    // One record: both hashes are of the same content.
    expect(rows[0]!.recordHash).toBe(rows[1]!.recordHash);
    // The same day cut in another time zone is another record, not signed.
    const utc = await listed(recorder, 'UTC');
    expect((utc.json() as { data: SignatureRow[] }).data).toEqual([]);
    // The generic reading route answers the same.
    const generic = await call<SignatureRow[]>(t.app, { method: 'GET', url: `${SIGNATURE_API.signatures}?recordType=asset_gsp_record&recordId=${encodeURIComponent(rows[0]!.recordId)}`, token: reviewer });
    expect(generic.body.data?.map((s) => s.id)).toEqual(rows.map((s) => s.id));

    // Audited in the signing's transaction, and a ledger leaf each.
    const audited = await t.app.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'signature'), eq(auditLogs.result, 'success'), sql`${auditLogs.detail} like ${`asset_gsp_record ${room.id}/%`}`));
    expect(audited.map((a) => a.account).sort()).toEqual(['gsp-rec', 'gsp-rev']);
    while ((await t.app.ledger.tick()) > 0);
    const [leaf] = await t.app.database.db.select().from(ledgerLeaves).where(eq(ledgerLeaves.ref, `custody:record.signed:${rows[0]!.id}`));
    expect(decodeLeaf(leaf!.data)).toMatchObject({ event: 'record.signed', subjectId: rows[0]!.recordId, fields: { recordType: 'asset_gsp_record', recordHash: rows[0]!.recordHash } });

    if (HAS_PDFTOTEXT) {
      const en = await pdf('en-US');
      expect(en).toContain('Signatures');
      expect(en).toMatch(new RegExp(`Recorded by User gsp-rec \\(gsp-rec\\) · 2026-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d · Responsible · record SHA-256 ${rows[0]!.recordHash.slice(0, 16)}… · matches the record`));
      expect(en).toContain(`Reviewed by User gsp-rev (gsp-rev)`);
      expect(en).toContain(`Reviewed · record SHA-256 ${rows[1]!.recordHash.slice(0, 16)}`);
      expect(en).not.toContain('______');
      const zh = await pdf('zh-CN');
      expect(zh).toContain('记录人 User gsp-rec (gsp-rec)');
      expect(zh).toContain('审核人 User gsp-rev (gsp-rev)');
      expect(zh).toContain('与记录一致');
      expect(zh).not.toContain('与记录不符');
    }
    // The Excel file carries them too, in place of its blank lines.
    const xlsx = await t.app.inject({
      method: 'GET',
      url: `/api/iot/v2/reports/temperature?assetId=${room.id}&period=day&date=2026-11-02&format=xlsx`,
      headers: { access_token: recorder, language: 'en-US', timezone: 'Asia/Shanghai' },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.worksheets[0]!.eachRow((row) => cells.push((row.values as unknown[]).filter((v) => typeof v === 'string').join(' | ')));
    expect(cells.find((c) => c.startsWith('Recorded by:'))).toMatch(
      new RegExp(`^Recorded by: \\| User gsp-rec \\(gsp-rec\\) \\| 2026-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\| Responsible · record SHA-256 ${rows[0]!.recordHash.slice(0, 16)}… · matches the record$`),
    );
    expect(cells.some((c) => c.startsWith('Reviewed by: | User gsp-rev (gsp-rev)'))).toBe(true);
  });

  it('no longer matches once a reading or a warehouse record of the day changes', async () => {
    // 08:00's reading (the slot's recorded value) is corrected after the signatures.
    await t.app.database.db.execute(sql`update telemetry set sensors = jsonb_build_object('temperature', 5.5::float8, 'humidity', 60.0::float8) where device_ref = ${device.id} and time = ${new Date(DAY + 480 * MIN).toISOString()}::timestamptz`);
    expect((await signatures()).map((s) => s.matches)).toEqual([false, false]);
    if (HAS_PDFTOTEXT) {
      expect(await pdf('en-US')).toContain('DOES NOT MATCH the record');
      expect(await pdf('zh-CN')).toContain('签名与记录不符');
    }
    // Back as signed: matches again (the hash is of the record's content).
    await t.app.database.db.execute(sql`update telemetry set sensors = jsonb_build_object('temperature', 5.0::float8, 'humidity', 60.0::float8) where device_ref = ${device.id} and time = ${new Date(DAY + 480 * MIN).toISOString()}::timestamptz`);
    expect((await signatures()).map((s) => s.matches)).toEqual([true, true]);

    // A warehouse record made at the room that day, then changed.
    const made = await call<RecordRow>(t.app, { method: 'POST', url: WAREHOUSE_API.records, token: reviewer, body: { locationId: room.id, direction: 'in', goodsName: '疫苗', quantity: 5, handler: '李娜' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // A record of another day does not touch this one.
    expect((await signatures()).map((s) => s.matches)).toEqual([true, true]);
    await t.app.database.db.execute(sql`update warehouse_records set time = ${new Date(DAY + 600 * MIN).toISOString()}::timestamptz where id = ${made.body.data!.id}`);
    expect((await signatures()).map((s) => s.matches)).toEqual([false, false]);
  });

  it('keeps another organisation out: it neither signs nor reads (404)', async () => {
    expect((await sign(rival, 'reviewed')).status).toBe(404);
    expect((await listed(rival)).statusCode).toBe(404);
    const id = encodeURIComponent(gspRecordId(KEY(), 'Asia/Shanghai'));
    expect((await call(t.app, { method: 'GET', url: `${SIGNATURE_API.signatures}?recordType=asset_gsp_record&recordId=${id}`, token: rival })).status).toBe(404);
    // Nothing was signed by the refusals.
    expect(await signatures()).toHaveLength(2);
  });
});
