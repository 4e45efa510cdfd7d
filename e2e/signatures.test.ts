// Browser test of electronic signatures, in both languages: the administrator approves a warehouse
// record the demo operator entered; the signature dialog asks for the meaning and the password;
// a wrong password is refused inline in the page's language and nothing is approved; the right
// one approves, and the record's details show the signature (name, account, time, meaning, hash
// prefix). Screenshots of the dialog, the refusal and the shown signature.
// A cold room's GSP temperature and humidity record of a past day: the demo operator signs it as
// recorded (Chinese: a wrong password refused inline, then signed; signing it again as reviewer
// refused), the administrator as reviewed (English: the wrong password's text too); both show
// under "Recorded by / Reviewed by"; a warehouse record of the day entered afterwards shows both
// as "Does not match".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { AssetRow } from '@iotc/shared/asset';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { SignatureRow } from '@iotc/shared/signature';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import { deviceBindings, orgs } from '../apps/server/src/db/schema.ts';
import { apiCall, ADMIN_PASSWORD, DEMO_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';
import type { Page as BrowserPage } from 'playwright-core';

let server: Server;
let admin: string;
let operator: string;
let demoOrg: string;

async function tokenOf(account: string, password: string): Promise<string> {
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account, password }) });
  return (res.json() as { data: { token: string } }).data.token;
}

async function signIn(page: BrowserPage, account: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.locator('#login-submit').click();
  await page.waitForURL((u) => u.pathname.startsWith('/view/'));
}

beforeAll(async () => {
  server = await startServer();
  admin = await tokenOf('admin', ADMIN_PASSWORD);
  operator = await tokenOf('demo', DEMO_PASSWORD);
  demoOrg = (await server.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
});
afterAll(async () => server?.close());

const TEXT = {
  en: { wrong: 'The password is wrong: the signature was not made', approved: 'Approved' },
  zh: { wrong: '密码错误，签名未完成', approved: '批准' },
} as const;

describe('signing a warehouse record', { timeout: 180_000 }, () => {
  for (const [locale, lang] of [
    ['en-US', 'en'],
    ['zh-CN', 'zh'],
  ] as const) {
    it(`asks for the password again, refuses a wrong one, and shows the signature (${lang})`, async () => {
      const text = TEXT[lang];
      const wh = await apiCall<AssetRow>(server, admin, 'POST', '/api/iot/v2/warehouses', { code: `SIG-E2E-${lang}`, name: lang === 'zh' ? '签名测试仓' : 'Signature DC', orgId: demoOrg });
      const record = await apiCall<RecordRow>(server, operator, 'POST', WAREHOUSE_API.records, {
        locationId: wh.id,
        direction: 'in',
        goodsName: lang === 'zh' ? '流感疫苗' : 'Flu vaccine',
        batchNo: `B-${lang}`,
        quantity: 12,
        unit: lang === 'zh' ? '箱' : 'cases',
        handler: lang === 'zh' ? '王伟' : 'Wang Wei',
      });

      await withBrowser(locale, async ({ page }) => {
        await signIn(page, 'admin', ADMIN_PASSWORD);
        await page.goto(`${server.url}/view/warehouse/manage`);
        const row = page.locator(`tr[data-row-key="${record.id}"]`);
        await row.locator('[data-testid=wh-row-approve]').click();
        const dialog = page.locator('.wh-review-modal');
        await dialog.locator('#wh-review-password').waitFor();
        expect(await page.locator('#wh-review-password').getAttribute('autocomplete')).toBe('current-password');
        await screenshot(page, `signature-dialog-${lang}`);

        // A wrong password: refused inline, in the page's language; nothing approved.
        await page.locator('#wh-review-password').fill('not-my-password');
        await page.keyboard.press('Enter');
        await dialog.locator('[data-testid=wh-review-error]', { hasText: text.wrong }).waitFor();
        await screenshot(page, `signature-wrong-password-${lang}`);
        expect((await apiCall<RecordRow>(server, admin, 'GET', WAREHOUSE_API.record(record.id))).auditStatus).toBe('pending');

        // The right one signs and approves.
        await page.locator('#wh-review-password').fill(ADMIN_PASSWORD);
        await page.locator('[data-testid=wh-review-submit]').click();
        await dialog.waitFor({ state: 'hidden' });
        expect((await apiCall<RecordRow>(server, admin, 'GET', WAREHOUSE_API.record(record.id))).auditStatus).toBe('approved');

        await row.locator('[data-testid=wh-row-details]').click();
        const signature = page.locator('[data-testid=signature]');
        await signature.waitFor();
        const shown = (await signature.textContent()) ?? '';
        const [signed] = await apiCall<SignatureRow[]>(server, admin, 'GET', `/api/iot/v2/signatures?recordType=warehouse_record&recordId=${record.id}`);
        expect(signed).toMatchObject({ signerAccount: 'admin', meaning: 'approved', matches: true });
        expect(shown).toContain(text.approved);
        expect(shown).toContain('(admin)');
        expect(shown).toContain(signed!.recordHash.slice(0, 16));
        expect(await signature.getAttribute('data-matches')).toBe('true');
        await signature.scrollIntoViewIfNeeded();
        await screenshot(page, `signature-shown-${lang}`);
      });
    });
  }
});

describe("signing a cold room's GSP record", { timeout: 240_000 }, () => {
  it('is signed as recorded by the operator (zh) and reviewed by the administrator (en); a later change shows as not matching', async () => {
    const db = server.app.database.db;
    const tag = Date.now() % 1_000_000;
    const wh = await apiCall<AssetRow>(server, admin, 'POST', '/api/iot/v2/warehouses', { code: `GSP-SIG-WH${tag}`, name: '签名温湿度仓', orgId: demoOrg });
    const room = await apiCall<AssetRow>(server, admin, 'POST', '/api/iot/v2/cold-rooms', { code: `GSP-SIG-CR${tag}`, name: '阴凉库一', parentId: wh.id, tempMin: 2, tempMax: 8, orgId: demoOrg });
    const device = await apiCall<DeviceWithSecret>(server, admin, 'POST', '/api/iot/v2/devices', { deviceId: `GSPSIG${tag}`, name: `GSPSIG${tag}`, orgId: demoOrg });
    await db.insert(deviceBindings).values({ orgId: demoOrg, deviceRef: device.id, deviceId: device.deviceId, assetRef: room.id, assetKind: 'cold_room', assetCode: room.code, assetName: room.name, boundAt: new Date('2026-10-01T00:00:00Z'), boundBy: 'e2e' });
    // Every 30 minutes over 2026-11-02 in any time zone, 5 °C and 60 %.
    const from = Date.parse('2026-11-01T10:00:00Z');
    const rows = Array.from({ length: 120 }, (_, i) => ({ time: new Date(from + i * 30 * 60_000).toISOString() }));
    await db.execute(sql`insert into telemetry (org_id, device_ref, time, raw, sensors)
      select ${demoOrg}::uuid, ${device.id}::uuid, time, '{}'::jsonb, jsonb_build_object('temperature', 5.0::float8, 'humidity', 60.0::float8)
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(time timestamptz)`);
    const address = `${server.url}/view/report/temperature?kind=cold_room&assetId=${room.id}&period=day&date=2026-11-02`;

    const openDialog = async (page: BrowserPage) => {
      await page.locator('[data-testid=gsp-sign]').click();
      await page.locator('#gsp-sign-dialog-password').waitFor();
    };
    const pickMeaning = async (page: BrowserPage, label: string) => {
      await page.locator('[data-testid=gsp-sign-dialog-meaning]').click();
      await page.locator('.ant-select-item-option', { hasText: label }).click();
    };

    // The operator records it (Chinese).
    await withBrowser('zh-CN', async ({ page }) => {
      await signIn(page, 'demo', DEMO_PASSWORD);
      await page.goto(address);
      const card = page.locator('[data-testid=gsp-signatures]');
      await card.locator('[data-testid=signatures-empty]').first().waitFor();
      expect(await card.textContent()).toContain('记录人');
      await openDialog(page);
      await screenshot(page, 'gsp-sign-dialog-zh');
      await page.locator('#gsp-sign-dialog-password').fill('not-my-password');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid=gsp-sign-dialog-error]', { hasText: '密码错误，签名未完成' }).waitFor();
      await screenshot(page, 'gsp-sign-wrong-password-zh');
      await page.locator('#gsp-sign-dialog-password').fill(DEMO_PASSWORD);
      await page.locator('[data-testid=gsp-sign-dialog-submit]').click();
      await page.locator('[data-testid=gsp-sign-dialog]').waitFor({ state: 'hidden' });
      const recorded = page.locator('[data-testid=gsp-signatures-responsible] [data-testid=signature]');
      await recorded.waitFor();
      expect(await recorded.textContent()).toContain('(demo)');
      expect(await recorded.getAttribute('data-matches')).toBe('true');
      // The same person cannot review what they recorded.
      await openDialog(page);
      await pickMeaning(page, '复核');
      await page.locator('#gsp-sign-dialog-password').fill(DEMO_PASSWORD);
      await page.keyboard.press('Enter');
      await page.locator('[data-testid=gsp-sign-dialog-error]', { hasText: '第二个签名须由另一人完成' }).waitFor();
      await page.locator('.ant-modal-close').click();
      await page.locator('[data-testid=gsp-sign-dialog]').waitFor({ state: 'hidden' });
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'gsp-signed-recorded-zh');
    });

    // The administrator reviews it (English).
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page, 'admin', ADMIN_PASSWORD);
      await page.goto(address);
      await page.locator('[data-testid=gsp-signatures-responsible] [data-testid=signature]').waitFor();
      await openDialog(page);
      await pickMeaning(page, 'Reviewed');
      await page.locator('#gsp-sign-dialog-password').fill('not-my-password');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid=gsp-sign-dialog-error]', { hasText: 'The password is wrong: the signature was not made' }).waitFor();
      await screenshot(page, 'gsp-sign-wrong-password-en');
      await page.locator('#gsp-sign-dialog-password').fill(ADMIN_PASSWORD);
      await page.locator('[data-testid=gsp-sign-dialog-submit]').click();
      await page.locator('[data-testid=gsp-sign-dialog]').waitFor({ state: 'hidden' });
      const reviewed = page.locator('[data-testid=gsp-signatures-reviewed] [data-testid=signature]');
      await reviewed.waitFor();
      const shown = (await reviewed.textContent()) ?? '';
      expect(shown).toContain('Reviewed');
      expect(shown).toContain('(admin)');
      const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      const listed = await server.app.inject({
        method: 'GET',
        url: `/api/iot/v2/reports/temperature/signatures?assetId=${room.id}&period=day&date=2026-11-02`,
        headers: { access_token: admin, timezone: tz },
      });
      const signed = (listed.json() as { data: SignatureRow[] }).data;
      expect(signed.map((s) => [s.meaning, s.signerAccount, s.matches])).toEqual([
        ['responsible', 'demo', true],
        ['reviewed', 'admin', true],
      ]);
      expect(shown).toContain(signed[1]!.recordHash.slice(0, 16));
      await page.locator('[data-testid=gsp-signatures]').scrollIntoViewIfNeeded();
      await screenshot(page, 'gsp-signed-both-en');

      // A goods receipt of that day entered afterwards (noon of 2026-11-02 in Beijing and in UTC): both signatures show that the record changed.
      await apiCall<RecordRow>(server, operator, 'POST', WAREHOUSE_API.records, { locationId: room.id, direction: 'in', goodsName: '胰岛素', quantity: 3, handler: '李娜', time: '2026-11-02T04:00:00.000Z' });
      await page.reload();
      await page.locator('[data-testid=gsp-signatures] [data-testid=signature-mismatch]').nth(1).waitFor();
      expect(await page.locator('[data-testid=gsp-signatures] [data-matches=false]').count()).toBe(2);
      await page.locator('[data-testid=gsp-signatures]').scrollIntoViewIfNeeded();
      await screenshot(page, 'gsp-signed-mismatch-en');
    });
  });
});
