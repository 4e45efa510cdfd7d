// External sign-in in the browser against a real OpenID Connect provider started here
// (oidc-provider with its development sign-in pages): the first time, the identity is unknown and
// the console's bind page binds it with the account's password (Chinese); the next time the same
// identity goes straight into the console (English).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { OIDC_CLIENT, startOidcProvider } from '../apps/server/src/test/oidc.ts';
import { DEMO_PASSWORD, screenshot, startServer, type Server, withBrowser } from './harness.ts';

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
});
