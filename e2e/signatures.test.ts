// Browser test of electronic signatures, in both languages: the administrator approves a warehouse
// record the demo operator entered; the signature dialog asks for the meaning and the password;
// a wrong password is refused inline in the page's language and nothing is approved; the right
// one approves, and the record's details show the signature (name, account, time, meaning, hash
// prefix). Screenshots of the dialog, the refusal and the shown signature.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AssetRow } from '@iotc/shared/asset';
import type { SignatureRow } from '@iotc/shared/signature';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import { orgs } from '../apps/server/src/db/schema.ts';
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
