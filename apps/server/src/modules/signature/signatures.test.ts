// Electronic signatures through the API: approving and rejecting a warehouse record, reviewing a
// command, closing a work order, and signing a task's GSP record and shipment report, each with
// the password again; a wrong password refused in both languages (the change not made); the
// two-person rules; the hash that no longer matches once the record changes; another
// organisation neither reading nor signing; every signature audited and in the ledger; the
// shipment report's PDF carrying its signature.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { CommandRow } from '@iotc/shared/command';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { decodeLeaf } from '@iotc/shared/ledger/leaf';
import { SIGNATURE_API, type SignatureRow } from '@iotc/shared/signature';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import type { AssetRow } from '@iotc/shared/asset';
import type { WorkOrderDetail } from '@iotc/shared/work-order';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { HAS_PDFTOTEXT, pdfText } from '../../test/pdf-text.ts';
import { auditLogs, ledgerLeaves, orgs } from '../../db/schema.ts';

let t: TestApp;
let signerA: string;
let signerB: string;
let operator: string;
let rival: string;
let room: AssetRow;
let device: DeviceWithSecret;

type Lang = 'zh-CN' | 'en-US';
const api = <T>(method: 'GET' | 'POST', url: string, token: string, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });
const signaturesOf = async (recordType: string, recordId: string, token = signerA) => {
  const res = await api<SignatureRow[]>('GET', `${SIGNATURE_API.signatures}?recordType=${recordType}&recordId=${recordId}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
};
async function pending(): Promise<RecordRow> {
  const res = await api<RecordRow>('POST', WAREHOUSE_API.records, operator, { locationId: room.id, direction: 'in', goodsName: '疫苗', batchNo: 'S-1', quantity: 5, unit: '箱', handler: '李娜' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'sig-a', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await addOrgUser(db, { orgId: demoOrg, account: 'sig-b', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await createTenantUser(db, {
    code: 'rival-sig',
    account: 'rival-sig',
    password: DEMO_PASSWORD,
    permissions: ['warehouse:read', 'warehouse:audit', 'command:review', 'command:request', 'alarm:read', 'alarm:handle', 'transport:read', 'transport:write'],
  });
  [signerA, signerB, operator, rival] = await Promise.all([
    login(t.app, 'sig-a', DEMO_PASSWORD),
    login(t.app, 'sig-b', DEMO_PASSWORD),
    login(t.app, 'demo', DEMO_PASSWORD),
    login(t.app, 'rival-sig', DEMO_PASSWORD),
  ]);
  const wh = await api<AssetRow>('POST', '/api/iot/v2/warehouses', signerA, { code: 'SIG-WH', name: '签名测试仓' });
  room = (await api<AssetRow>('POST', '/api/iot/v2/cold-rooms', signerA, { code: 'SIG-WH-C', name: '冷藏库', parentId: wh.body.data!.id, tempMin: 2, tempMax: 8 })).body.data!;
  device = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', signerA, { deviceId: 'SIG-DEV-1', name: 'SIG-DEV-1' })).body.data!;
}, 60_000);
afterAll(async () => t?.close());

describe('a warehouse record', () => {
  it('refuses a wrong password in either language and leaves the record pending', async () => {
    const r = await pending();
    const en = await api('POST', WAREHOUSE_API.approve(r.id), signerA, { password: 'wrong-password' });
    expect(en).toMatchObject({ status: 400, body: { errorcode: 'SIGNATURE_PASSWORD_WRONG', errormsg: 'The password is wrong: the signature was not made' } });
    const zh = await api('POST', WAREHOUSE_API.approve(r.id), signerA, { password: 'wrong-password' }, 'zh-CN');
    expect(zh).toMatchObject({ status: 400, body: { errorcode: 'SIGNATURE_PASSWORD_WRONG', errormsg: '密码错误，签名未完成' } });
    const none = await api('POST', WAREHOUSE_API.approve(r.id), signerA, {}, 'zh-CN');
    expect(none).toMatchObject({ status: 400, body: { errorcode: 'SIGNATURE_PASSWORD_REQUIRED' } });
    expect((await api<RecordRow>('GET', WAREHOUSE_API.record(r.id), signerA)).body.data!.auditStatus).toBe('pending');
    expect(await signaturesOf('warehouse_record', r.id)).toEqual([]);
    // Audited as failures, and counted toward the sign-in lock-out.
    const failed = await t.app.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'signature'), eq(auditLogs.result, 'failure'), eq(auditLogs.account, 'sig-a')));
    expect(failed.length).toBeGreaterThanOrEqual(2);
    await t.app.database.db.execute(sql`delete from login_failures where account = 'sig-a'`);
  });

  it('approves with the signature kept with the record, and shows a later change as no longer matching', async () => {
    const r = await pending();
    const ok = await api<RecordRow>('POST', WAREHOUSE_API.approve(r.id), signerA, { password: DEMO_PASSWORD, reason: '核对无误' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [sig, ...more] = await signaturesOf('warehouse_record', r.id);
    expect(more).toEqual([]);
    expect(sig).toMatchObject({ recordType: 'warehouse_record', recordId: r.id, meaning: 'approved', signerAccount: 'sig-a', signerName: 'User sig-a', method: 'password', matches: true });
    expect(sig!.recordHash).toMatch(/^[0-9a-f]{64}$/);
    const audited = await t.app.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'signature'), eq(auditLogs.result, 'success'), sql`${auditLogs.detail} like ${`warehouse_record ${r.id}%`}`));
    expect(audited).toHaveLength(1);

    // Changed behind the application's back: the signature no longer matches.
    await t.app.database.db.execute(sql`update warehouse_records set quantity = 50 where id = ${r.id}`);
    expect((await signaturesOf('warehouse_record', r.id))[0]).toMatchObject({ id: sig!.id, matches: false });
    // Back as signed: it matches again (the hash is of the content, not of the row's age).
    await t.app.database.db.execute(sql`update warehouse_records set quantity = 5, updated_at = now() where id = ${r.id}`);
    expect((await signaturesOf('warehouse_record', r.id))[0]!.matches).toBe(true);
  });

  it('signs a rejection as rejected, refuses a meaning that does not fit, and keeps the author from signing', async () => {
    const r = await pending();
    const wrongMeaning = await api('POST', WAREHOUSE_API.approve(r.id), signerA, { password: DEMO_PASSWORD, meaning: 'rejected' }, 'zh-CN');
    expect(wrongMeaning).toMatchObject({ status: 400, body: { errorcode: 'SIGNATURE_MEANING_INVALID', errormsg: '该签名含义不适用于此操作' } });
    const own = await api('POST', WAREHOUSE_API.reject(r.id), operator, { password: DEMO_PASSWORD, reason: 'x' });
    expect(own.status).toBe(403); // the operator holds no warehouse:audit; the author rule is in warehouse.test.ts
    const done = await api<RecordRow>('POST', WAREHOUSE_API.reject(r.id), signerB, { password: DEMO_PASSWORD, reason: '批次不符' });
    expect(done.body.data?.auditStatus).toBe('rejected');
    expect((await signaturesOf('warehouse_record', r.id)).map((s) => [s.signerAccount, s.meaning])).toEqual([['sig-b', 'rejected']]);
    const mine = await api<RecordRow>('POST', WAREHOUSE_API.records, signerA, { locationId: room.id, direction: 'in', goodsName: 'x', quantity: 1, handler: 'x' });
    const self = await api('POST', WAREHOUSE_API.approve(mine.body.data!.id), signerA, { password: DEMO_PASSWORD });
    expect(self.body.errorcode).toBe('WAREHOUSE_SELF_AUDIT');
    expect(await signaturesOf('warehouse_record', mine.body.data!.id)).toEqual([]);
  });

  it('keeps another organisation out: it neither reads nor signs (404)', async () => {
    const r = await pending();
    expect((await api('POST', WAREHOUSE_API.approve(r.id), rival, { password: DEMO_PASSWORD })).status).toBe(404);
    expect((await api('GET', `${SIGNATURE_API.signatures}?recordType=warehouse_record&recordId=${r.id}`, rival)).status).toBe(404);
    expect((await api('GET', `${SIGNATURE_API.signatures}?recordType=warehouse_record&recordId=not-an-id`, signerA)).status).toBe(404);
  });
});

describe('a command', () => {
  it('signs the approval and the rejection; the requester cannot review; a wrong password sends nothing', async () => {
    const req = async () => (await api<CommandRow>('POST', '/api/iot/v2/commands', operator, { deviceRef: device.id, kind: 'reboot' })).body.data!;
    const a = await req();
    const wrong = await api('POST', `/api/iot/v2/commands/${a.id}/review`, signerA, { approve: true, password: 'nope' }, 'zh-CN');
    expect(wrong.body).toMatchObject({ errorcode: 'SIGNATURE_PASSWORD_WRONG', errormsg: '密码错误，签名未完成' });
    expect((await api<CommandRow>('GET', `/api/iot/v2/commands/${a.id}`, signerA)).body.data!.status).toBe('pending_review');
    const ok = await api<CommandRow>('POST', `/api/iot/v2/commands/${a.id}/review`, signerA, { approve: true, password: DEMO_PASSWORD });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // The delivery moves on (failed: no device link here); what was approved still matches.
    expect(await signaturesOf('command', a.id)).toMatchObject([{ meaning: 'approved', signerAccount: 'sig-a', matches: true }]);

    const b = await req();
    await api('POST', `/api/iot/v2/commands/${b.id}/review`, signerB, { approve: false, reason: '夜间不操作', password: DEMO_PASSWORD });
    expect(await signaturesOf('command', b.id)).toMatchObject([{ meaning: 'rejected', signerAccount: 'sig-b', matches: true }]);

    const own = await (await api<CommandRow>('POST', '/api/iot/v2/commands', signerA, { deviceRef: device.id, kind: 'reboot' })).body.data!;
    expect((await api('POST', `/api/iot/v2/commands/${own.id}/review`, signerA, { approve: true, password: DEMO_PASSWORD })).body.errorcode).toBe('COMMAND_SELF_REVIEW');
    expect((await api('POST', `/api/iot/v2/commands/${a.id}/review`, rival, { approve: true, password: DEMO_PASSWORD })).status).toBe(404);
    expect((await api('GET', `${SIGNATURE_API.signatures}?recordType=command&recordId=${a.id}`, rival)).status).toBe(404);
  });
});

describe('a work order', () => {
  it('signs the close as responsible; a later change no longer matches', async () => {
    const made = await api<WorkOrderDetail>('POST', '/api/iot/v2/work-orders', signerA, { title: '冷机检修', priority: 'high' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data!.id;
    const bare = await api('POST', `/api/iot/v2/work-orders/${id}/transition`, signerA, { to: 'closed' }, 'en-US');
    expect(bare.body).toMatchObject({ errorcode: 'SIGNATURE_PASSWORD_REQUIRED', errormsg: 'Please enter your password to sign' });
    const wrong = await api('POST', `/api/iot/v2/work-orders/${id}/transition`, signerA, { to: 'closed', password: 'nope' });
    expect(wrong.body).toMatchObject({ errorcode: 'SIGNATURE_PASSWORD_WRONG', errormsg: 'The password is wrong: the signature was not made' });
    // Other moves are not signed.
    expect((await api('POST', `/api/iot/v2/work-orders/${id}/transition`, signerA, { to: 'in_progress' })).status).toBe(200);
    const closed = await api<WorkOrderDetail>('POST', `/api/iot/v2/work-orders/${id}/transition`, signerA, { to: 'closed', note: '已修复', password: DEMO_PASSWORD });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(await signaturesOf('work_order', id)).toMatchObject([{ meaning: 'responsible', signerAccount: 'sig-a', matches: true }]);
    await t.app.database.db.execute(sql`update work_orders set title = '冷机检修（改）' where id = ${id}`);
    expect((await signaturesOf('work_order', id))[0]!.matches).toBe(false);
    expect((await api('GET', `${SIGNATURE_API.signatures}?recordType=work_order&recordId=${id}`, rival)).status).toBe(404);
  });
});

describe("a task's GSP record and shipment report", () => {
  it('are signed as responsible and reviewed by two people, never one; the ledger logs every signature', async () => {
    const task = await api<{ id: string }>('POST', '/api/iot/v2/transport-tasks', signerA, {
      goodsName: '疫苗',
      deviceIds: [device.id],
      origin: { name: '上海', lat: 31.2, lon: 121.5, radiusM: 500 },
      destination: { name: '杭州', lat: 30.27, lon: 120.15, radiusM: 800 },
    });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    const id = task.body.data!.id;
    const sign = (token: string, body: object, lang: Lang = 'en-US') => api<SignatureRow>('POST', SIGNATURE_API.taskSignatures(id), token, body, lang);

    const wrong = await sign(signerA, { document: 'gsp_record', meaning: 'responsible', password: 'nope' }, 'zh-CN');
    expect(wrong.body).toMatchObject({ errorcode: 'SIGNATURE_PASSWORD_WRONG', errormsg: '密码错误，签名未完成' });
    const responsible = await sign(signerA, { document: 'gsp_record', meaning: 'responsible', password: DEMO_PASSWORD });
    expect(responsible.status, JSON.stringify(responsible.body)).toBe(200);
    const same = await sign(signerA, { document: 'gsp_record', meaning: 'reviewed', password: DEMO_PASSWORD }, 'zh-CN');
    expect(same).toMatchObject({ status: 403, body: { errorcode: 'SIGNATURE_SAME_PERSON', errormsg: '第二个签名须由另一人完成' } });
    const sameEn = await sign(signerA, { document: 'gsp_record', meaning: 'reviewed', password: DEMO_PASSWORD });
    expect(sameEn.body.errormsg).toBe('A second signature must be by another person');
    expect((await sign(signerA, { document: 'gsp_record', meaning: 'responsible', password: DEMO_PASSWORD })).body.errorcode).toBe('SIGNATURE_ALREADY_SIGNED');
    const reviewed = await sign(signerB, { document: 'gsp_record', meaning: 'reviewed', password: DEMO_PASSWORD });
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    // The shipment report is a document of its own: its reviewer may be the GSP record's responsible person.
    expect((await sign(signerA, { document: 'shipment_report', meaning: 'reviewed', password: DEMO_PASSWORD })).status).toBe(200);

    // The shipment report's PDF carries its signature (name, time, meaning, hash prefix), in both languages.
    const shipmentSigner = (await api<SignatureRow[]>('GET', `${SIGNATURE_API.taskSignatures(id)}?document=shipment_report`, signerA)).body.data![0]!;
    if (HAS_PDFTOTEXT) {
      for (const [lang, meaning] of [
        ['en-US', 'Reviewed'],
        ['zh-CN', '复核'],
      ] as const) {
        const pdf = await t.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${id}?format=pdf`, headers: { access_token: signerA, language: lang, timezone: 'Asia/Shanghai' } });
        expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
        const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
        expect(text).toContain(lang === 'en-US' ? 'Signatures' : '电子签名');
        expect(text).toContain(`${meaning} User sig-a (sig-a)`);
        expect(text).toContain(shipmentSigner.recordHash.slice(0, 16));
      }
    }

    const list = await api<SignatureRow[]>('GET', SIGNATURE_API.taskSignatures(id), signerA);
    expect(list.body.data!.map((s) => [s.recordType, s.meaning, s.signerAccount, s.matches])).toEqual([
      ['gsp_record', 'responsible', 'sig-a', true],
      ['gsp_record', 'reviewed', 'sig-b', true],
      ['shipment_report', 'reviewed', 'sig-a', true],
    ]);
    expect((await sign(rival, { document: 'gsp_record', meaning: 'reviewed', password: DEMO_PASSWORD })).status).toBe(404);
    expect((await api('GET', SIGNATURE_API.taskSignatures(id), rival)).status).toBe(404);

    // The task changes: the signatures of its documents no longer match.
    await t.app.database.db.execute(sql`update transport_tasks set goods_name = '血浆' where id = ${id}`);
    expect((await api<SignatureRow[]>('GET', SIGNATURE_API.taskSignatures(id), signerA)).body.data!.every((s) => !s.matches)).toBe(true);

    // Every signature is a leaf of the ledger, filed under its record.
    while ((await t.app.ledger.tick()) > 0);
    const leaves = await t.app.database.db.select().from(ledgerLeaves).where(sql`${ledgerLeaves.ref} like 'custody:record.signed:%'`);
    const all = await t.app.database.db.execute<{ id: string }>(sql`select id from signatures`);
    expect(leaves).toHaveLength((all as unknown as { rows: unknown[] }).rows.length);
    const gsp = leaves.find((l) => l.ref === `custody:record.signed:${responsible.body.data!.id}`)!;
    expect(gsp.taskId).toBe(id);
    expect(decodeLeaf(gsp.data)).toMatchObject({
      kind: 'custody',
      event: 'record.signed',
      subjectId: id,
      actor: 'sig-a',
      fields: { recordType: 'gsp_record', meaning: 'responsible', recordHash: responsible.body.data!.recordHash },
    });
    expect(leaves.some((l) => l.warehouseRecordId !== null)).toBe(true);
  });
});
