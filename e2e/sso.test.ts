// External sign-in in the browser against a real OpenID Connect provider started here
// (oidc-provider with its development sign-in pages): the first time, the identity is unknown and
// the console's bind page binds it with the account's password (Chinese); the next time the same
// identity goes straight into the console (English). An electronic signature made by signing in
// again at the provider instead of typing the password: the provider's window opens from the
// signature dialog, closes by itself, and the approval is signed with method 'sso'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import type { AssetRow } from '@iotc/shared/asset';
import type { SignatureRow } from '@iotc/shared/signature';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import { orgs, userIdentities, users } from '../apps/server/src/db/schema.ts';
import { OIDC_CLIENT, startOidcProvider } from '../apps/server/src/test/oidc.ts';
import { ADMIN_PASSWORD, apiCall, apiToken, DEMO_PASSWORD, screenshot, signInAs, startServer, type Server, withBrowser } from './harness.ts';

const LANDING = '/view/deviceManage/realTimeMonitoring';
let idp: Awaited<ReturnType<typeof startOidcProvider>>;
let server: Server;

beforeAll(async () => {
  // The console's address is known only once it listens: the provider registers it at its first request.
  idp = await startOidcProvider(() => [`${server.url}/iot-cloud-auth/auth/v1/oauth/callback`]);
  server = await startServer({ oidc: { issuer: idp.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, name: 'Company SSO' } });
});
afterAll(async () => {
  await server.close();
  await idp.close();
});

/** The provider's own pages: sign in as `subject`, then consent. */
async function signInAtProvider(page: Page, subject: string) {
  await page.waitForURL((u) => u.origin === idp.issuer);
  await page.locator('input[name=login]').fill(subject);
  await page.locator('input[name=password]').fill('anything');
  await page.locator('button[type=submit]').click();
  // Consent is asked the first time this browser profile meets the console.
  await page.waitForURL((u) => u.origin !== idp.issuer || /consent|interaction/.test(u.pathname));
  if (new URL(page.url()).origin === idp.issuer) await page.locator('button[type=submit]').click();
}

describe('external sign-in with an OpenID Connect provider', () => {
  it('binds an unknown identity on the bind page, with its messages (Chinese)', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await page.goto(`${server.url}/login`);
      const button = page.locator('[data-testid=sso-login]');
      await expect.poll(() => button.textContent()).toContain('使用 Company SSO 登录');
      await button.click();
      await signInAtProvider(page, 'wang.fang@corp');
      await page.waitForURL((u) => u.pathname === '/view/login/bindUserPage');
      expect(new URL(page.url()).searchParams.get('openid')).toBeTruthy();
      await page.locator('[data-testid=bind-page]').waitFor();

      await page.locator('[data-testid=bind-submit]').click();
      await expect.poll(() => page.locator('[data-testid=bind-page]').textContent()).toContain('账号不能为空');
      expect(await page.locator('[data-testid=bind-page]').textContent()).toContain('密码不能为空');
      await page.locator('#account').fill('demo');
      await page.locator('#password').fill('Wrong#2026');
      await page.locator('[data-testid=bind-submit]').click();
      await expect.poll(() => page.locator('[data-testid=form-failure]').textContent()).toContain('用户名或密码错误，请重新输入');
      await screenshot(page, 'sso-bind-zh');

      await page.locator('#password').fill(DEMO_PASSWORD);
      await page.locator('[data-testid=bind-submit]').click();
      await expect.poll(() => page.locator('[data-testid=bind-success]').textContent()).toContain('绑定成功，即将跳转页面');
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=user-menu]').waitFor();
    });
  });

  it('signs a bound identity straight into the console (English)', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.locator('[data-testid=sso-login]').click();
      await signInAtProvider(page, 'wang.fang@corp');
      await page.waitForURL((u) => u.pathname === LANDING && !u.searchParams.has('token'));
      // The menu shows at once; the name once the user's information has come.
      await expect.poll(() => page.locator('[data-testid=user-menu]').textContent()).toContain('Demo Operator');
      await screenshot(page, 'sso-landing-en');
    });
  });

  it('signs an approval by signing in again at the provider instead of the password (English)', async () => {
    const db = server.app.database.db;
    const admin = (await db.select({ id: users.id }).from(users).where(eq(users.account, 'admin')))[0]!;
    await db.insert(userIdentities).values({ issuer: idp.issuer, subject: 'admin@corp', userId: admin.id });
    const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
    const [adminToken, operator] = await Promise.all([apiToken(server), apiToken(server, 'demo', DEMO_PASSWORD)]);
    const wh = await apiCall<AssetRow>(server, adminToken, 'POST', '/api/iot/v2/warehouses', { code: 'SSO-SIGN', name: 'SSO signing DC', orgId: demoOrg });
    const record = await apiCall<RecordRow>(server, operator, 'POST', WAREHOUSE_API.records, { locationId: wh.id, direction: 'in', goodsName: 'Insulin', batchNo: 'SSO-B1', quantity: 3, unit: 'cases', handler: 'Li Na' });

    await withBrowser('en-US', async ({ page }) => {
      await signInAs(page, server, 'admin', ADMIN_PASSWORD);
      await page.goto(`${server.url}/view/warehouse/manage`);
      await page.locator(`tr[data-row-key="${record.id}"] [data-testid=wh-row-approve]`).click();
      const verify = page.locator('[data-testid=wh-review-sso]');
      await expect.poll(() => verify.textContent()).toContain('Company SSO');
      await screenshot(page, 'signature-sso-offer-en');
      const [popup] = await Promise.all([page.waitForEvent('popup'), verify.click()]);
      await signInAtProvider(popup, 'admin@corp');
      // The provider's answer lands in the console's window page, which hands the proof over and closes.
      await popup.waitForEvent('close');
      await page.locator('[data-testid=wh-review-sso-verified]').waitFor();
      await expect.poll(() => page.locator('[data-testid=wh-review-sso-verified]').textContent()).toContain('signed in again at Company SSO');
      expect(await page.locator('#wh-review-password').count()).toBe(0);
      await screenshot(page, 'signature-sso-verified-en');
      await page.locator('[data-testid=wh-review-submit]').click();
      await expect.poll(async () => (await apiCall<RecordRow>(server, adminToken, 'GET', WAREHOUSE_API.record(record.id))).auditStatus).toBe('approved');
      const sigs = await apiCall<SignatureRow[]>(server, adminToken, 'GET', `/api/iot/v2/signatures?recordType=warehouse_record&recordId=${record.id}`);
      expect(sigs).toMatchObject([{ signerAccount: 'admin', method: 'sso', matches: true }]);
      await page.locator(`tr[data-row-key="${record.id}"] [data-testid=wh-row-details]`).click();
      await expect.poll(() => page.locator('[data-testid=signature-method]').first().textContent()).toBe('Signed in again at the external provider');
      await screenshot(page, 'signature-sso-signed-en');
    });
  });
});
