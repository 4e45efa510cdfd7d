// The certificate of a share link: a PDF without login, in the request's language; a made-up
// token is 404; after a reading is changed in the database the verification it states (and,
// where poppler's pdftotext is installed, its text) names that record; a warehouse batch's
// certificate states the batch.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { LEDGER_API, type ShareAnswer } from '@iotc/shared/ledger/api';
import { orgs, warehouseRecords } from '../../db/schema.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: string;
let demoOrg: string;
let device: DeviceWithSecret & { id: string };
let share: ShareAnswer;
let batchShare: ShareAnswer;
let recordShare: ShareAnswer;
let base: number;
const iso = (ms: number) => new Date(ms).toISOString();
const db = () => t.app.database.db;
const PDFTOTEXT = '/usr/bin/pdftotext';

async function pdfText(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-cert-'));
  try {
    writeFileSync(join(dir, 'c.pdf'), pdf);
    return (await promisify(execFile)(PDFTOTEXT, ['-layout', join(dir, 'c.pdf'), '-'])).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certificate = (token: string, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  t.app.inject({ method: 'GET', url: LEDGER_API.certificate(token), headers: { language: lang, timezone: 'Asia/Shanghai' } });

beforeAll(async () => {
  t = await testApp();
  demoOrg = (await db().select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db(), { orgId: demoOrg, account: 'cert-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'cert-admin', DEMO_PASSWORD);
  device = (await call<DeviceWithSecret & { id: string }>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: 'CT00000001', name: 'Certificate tracker' } })).body.data!;
  base = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
  for (let m = 0; m < 3; m++) {
    for (let i = 0; i < 3; i++) {
      const at = base + m * 60_000 + 5_000 + i * 15_000;
      await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, raw, sensors)
        values (${demoOrg}, ${device.id}, ${iso(at)}::timestamptz, ${iso(at)}::timestamptz, 31.2, 121.5, '{}'::jsonb, ${JSON.stringify({ temperature: -18 - m - i / 10 })}::jsonb)`);
    }
  }
  const wh = { orgId: demoOrg, warehouseCode: 'WH-C', warehouseName: 'Cert cold store', batchNo: 'LOT-42', unit: 'box', time: new Date(base), handler: 'Han Mei', createdBy: 'cert-admin', auditStatus: 'approved' as const, reviewer: 'demo', reviewedAt: new Date() };
  const [inbound] = await db()
    .insert(warehouseRecords)
    .values([
      { ...wh, direction: 'in', goodsName: 'Frozen dumplings', quantity: 40 },
      { ...wh, direction: 'out', goodsName: 'Frozen dumplings', quantity: 10 },
    ])
    .returning();
  while ((await t.app.ledger.tick()) > 0);
  await t.app.ledger.checkpoint();
  batchShare = (await call<ShareAnswer>(t.app, { method: 'POST', url: LEDGER_API.shares, token: admin, body: { warehouseBatch: 'LOT-42' } })).body.data!;
  recordShare = (await call<ShareAnswer>(t.app, { method: 'POST', url: LEDGER_API.shares, token: admin, body: { warehouseRecordId: inbound!.id } })).body.data!;
  const made = await call<ShareAnswer>(t.app, { method: 'POST', url: LEDGER_API.shares, token: admin, body: { deviceId: device.id, from: iso(base - 60_000), to: iso(base + 5 * 60_000) } });
  expect(made.status).toBe(200);
  share = made.body.data!;
});

afterAll(async () => {
  await t?.close();
});

describe('the share certificate', () => {
  it('is a PDF anyone with the link can download; a made-up token is 404', async () => {
    const res = await certificate(share.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/attachment/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const zh = await certificate(share.token, 'zh-CN');
    expect(zh.statusCode).toBe(200);
    expect(zh.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const unknown = await certificate('x'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ errorcode: 'LEDGER_SHARE_UNKNOWN' });
  });

  it('states the verification made at download: all verified, then the changed record', async () => {
    const good = await t.app.ledger.shares.verification(share.token, 'http://console.test');
    expect(good).toMatchObject({ total: 3, verified: 3, pending: 0, failures: [], orgName: expect.any(String), url: `http://console.test/verify/${share.token}` });
    expect(good.checkpoint).toMatchObject({ size: expect.any(Number), rootHash: expect.any(String) });
    expect(good.verifierKey).toMatch(/^\S+\+[0-9a-f]{8}\+/);

    const minute = base + 60_000;
    await db().execute(sql`update telemetry set sensors = jsonb_set(sensors, '{temperature}', '-40') where device_ref = ${device.id} and received_at = ${iso(minute + 20_000)}::timestamptz`);
    const bad = await t.app.ledger.shares.verification(share.token, 'http://console.test');
    expect(bad).toMatchObject({ total: 3, verified: 2 });
    expect(bad.failures).toEqual([expect.objectContaining({ ref: `sensor:${device.id}:${iso(minute)}`, reason: 'digest-mismatch', record: expect.objectContaining({ deviceId: 'CT00000001', minute: iso(minute) }) })]);
    expect((await certificate(share.token)).statusCode).toBe(200);
  });

  it.skipIf(!existsSync(PDFTOTEXT))('lists the changed record in the PDF text, in both languages', async () => {
    const en = await pdfText((await certificate(share.token)).rawPayload);
    expect(en).toContain('Ledger verification certificate');
    expect(en).toContain('NOT VERIFIED');
    // The minute in the reader's time zone (Asia/Shanghai, UTC+8).
    const local = new Date(base + 60_000 + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(en).toContain(`Readings of CT00000001, minute ${local}`);
    expect(en).toMatch(/The data stored now differs/);
    const zh = await pdfText((await certificate(share.token, 'zh-CN')).rawPayload);
    expect(zh).toContain('区块链溯源验证证书');
    expect(zh).toContain('当前存储的数据与上链时不一致');
  });
});

describe('a warehouse batch certificate', () => {
  it('states the batch and verifies its records', async () => {
    const v = await t.app.ledger.shares.verification(batchShare.token, 'http://console.test');
    expect(v).toMatchObject({ subject: { kind: 'batch', batchNo: 'LOT-42', records: 2, goods: ['Frozen dumplings'] }, total: 2, verified: 2, failures: [] });
    expect(v.checkpoint?.signedAt).toEqual(expect.any(String));
    const res = await certificate(batchShare.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('LOT-42');
    if (existsSync(PDFTOTEXT)) {
      const en = await pdfText(res.rawPayload);
      expect(en).toContain('Warehouse batch');
      expect(en).toContain('LOT-42');
      expect(en).toContain('VERIFIED');
      expect(await pdfText((await certificate(batchShare.token, 'zh-CN')).rawPayload)).toContain('仓储批次');
    }
  });

  it('states a single warehouse record', async () => {
    const v = await t.app.ledger.shares.verification(recordShare.token, 'http://console.test');
    expect(v).toMatchObject({ subject: { kind: 'warehouseRecord', batchNo: 'LOT-42', direction: 'in', warehouse: 'Cert cold store' }, total: 1, verified: 1 });
    const res = await certificate(recordShare.token, 'zh-CN');
    expect(res.statusCode).toBe(200);
    if (existsSync(PDFTOTEXT)) expect(await pdfText(res.rawPayload)).toContain('入库');
  });
});
