// Browser tests of the account flows built so far: the initial-password prompt that keeps
// coming back until the password is changed, and changing the password with the server's
// captcha, in English and Chinese, including refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { captchas } from '../apps/server/src/db/schema.ts';
import { createTenantUser } from '../apps/server/src/test/fixtures.ts';
import { chooseUserMenu, screenshot, startServer, type Server, withBrowser } from './harness.ts';

const LANDING = '/view/deviceManage/realTimeMonitoring';
let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

let n = 0;
/** An operator created by an administrator: it carries an initial password. */
async function initialUser(password = 'Init#2026') {
  n += 1;
  const account = `newbie${n}`;
  await createTenantUser(server.app.database.db, { code: `e2e${n}`, account, password, mustChangePassword: true });
  return { account, password };
}

async function signIn(page: Page, account: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.locator('#login-submit').click();
}

/** The answer of the captcha on screen, read from the server's own store. */
async function captchaAnswer(page: Page): Promise<{ id: string; answer: string }> {
  const img = page.locator('[data-testid=captcha-image]');
  await expect.poll(() => img.getAttribute('data-captcha-id')).toBeTruthy();
  const id = (await img.getAttribute('data-captcha-id'))!;
  const [row] = await server.app.database.db.select().from(captchas).where(eq(captchas.id, id));
  return { id, answer: row!.answer };
}

async function fillChange(page: Page, f: { old: string; next: string; confirm?: string; captcha?: string }) {
  await page.locator('#oldPassword').fill(f.old);
  await page.locator('#newPassword').fill(f.next);
  await page.locator('#confirmPassword').fill(f.confirm ?? f.next);
  await page.locator('#captcha').fill(f.captcha ?? (await captchaAnswer(page)).answer);
  await page.locator('#change-submit').click();
}

describe('initial password', () => {
  it('is offered at every sign-in until changed, then changed with the captcha (English)', async () => {
    const u = await initialUser();
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page, u.account, u.password);
      const prompt = page.locator('.must-change-password-modal');
      await prompt.waitFor();
      expect(await prompt.textContent()).toContain('Change it now');
      expect(await prompt.textContent()).toContain('Do not modify it yet');
      await page.locator('#change-password-later').click();
      await page.waitForURL(`**${LANDING}`);

      // Next sign-in: offered again.
      await page.evaluate(() => sessionStorage.clear());
      await signIn(page, u.account, u.password);
      await prompt.waitFor();
      await page.locator('#change-password-now').click();
      await page.waitForURL('**/view/login/confirmPassword');
      expect(await page.locator('#account').inputValue()).toBe(u.account);
      await screenshot(page, 'change-password-en');

      // Client-side rules, in the spec's words.
      await page.locator('#oldPassword').fill(u.password);
      await page.locator('#newPassword').fill('weakweak');
      await page.locator('#confirmPassword').fill('weakweak');
      await page.locator('#change-submit').click();
      await page.getByText('The password you entered is in the wrong format, please re-enter it').first().waitFor();
      await page.locator('#newPassword').fill(u.password);
      await page.locator('#confirmPassword').fill(u.password);
      await page.locator('#change-submit').click();
      await page.getByText('The new password you entered cannot be the same as the original password').first().waitFor();

      // The server's refusal: wrong original password; a new captcha comes with it.
      const before = await captchaAnswer(page);
      await fillChange(page, { old: 'Wrong#2026', next: 'Fresh#2026', captcha: before.answer });
      await expect.poll(() => page.locator('[data-testid=change-error]').textContent()).toContain('Old password error');
      await expect.poll(async () => (await captchaAnswer(page)).id).not.toBe(before.id);

      await fillChange(page, { old: u.password, next: 'Fresh#2026' });
      await page.locator('[data-testid=success-page]').waitFor();
      expect(await page.locator('[data-testid=success-page]').textContent()).toContain('Your password has been modified');
      await screenshot(page, 'success-en');

      // Signed in again with the new password: no more prompt.
      await page.evaluate(() => sessionStorage.clear());
      await signIn(page, u.account, 'Fresh#2026');
      await page.waitForURL(`**${LANDING}`);
      await page.waitForTimeout(500);
      expect(await prompt.count()).toBe(0);
    });
  });
});

describe('change password from the user menu (Chinese)', () => {
  it('refuses a mismatch and a wrong captcha in Chinese, then changes it; the session stays', async () => {
    const u = await initialUser();
    await withBrowser('zh-CN', async ({ page }) => {
      await signIn(page, u.account, u.password);
      await page.locator('#change-password-later').click();
      await page.waitForURL(`**${LANDING}`);
      await chooseUserMenu(page, 'change-password');
      await page.waitForURL('**/view/login/confirmPassword');
      expect(await page.title()).toBe('物联网云平台');

      await page.locator('#oldPassword').fill(u.password);
      await page.locator('#newPassword').fill('Fresh#2026');
      await page.locator('#confirmPassword').fill('Other#2026');
      await page.locator('#change-submit').click();
      await page.getByText('您输入的新密码与确认密码不一致').first().waitFor();

      await fillChange(page, { old: u.password, next: 'Fresh#2026', captcha: 'zzzz' });
      await expect.poll(() => page.locator('[data-testid=change-error]').textContent()).toContain('验证码输入有误，请重新输入');
      await screenshot(page, 'change-password-zh');

      await fillChange(page, { old: u.password, next: 'Fresh#2026' });
      await page.locator('[data-testid=success-page]').waitFor();
      expect(await page.locator('[data-testid=success-page]').textContent()).toContain('密码修改成功');
      await screenshot(page, 'success-zh');
      // The session that made the change is still signed in.
      await page.goto(server.url + LANDING);
      await page.locator('[data-testid=screen-title]').waitFor();
      expect(new URL(page.url()).pathname).toBe(LANDING);
    });
  });
});

describe('product service selection', () => {
  it('lists the services, opens one in a new window with its type, and logs out (English, operator)', async () => {
    await withBrowser('en-US', async ({ page, context }) => {
      await signIn(page, 'demo', 'Demo@2026');
      await page.waitForURL(`**${LANDING}`);
      await chooseUserMenu(page, 'my-services');
      await page.waitForURL('**/view/login/productService');
      await page.locator('[data-testid=service-transport]').waitFor();
      expect(await page.locator('[data-testid=screen-title]').textContent()).toBe('My Services');
      const tiles = await page.locator('.service-tile').allTextContents();
      expect(tiles).toEqual(['Cold-chain warehouse', 'Transport (high-value goods)', 'Devices', 'Containers', 'Vehicles']);
      expect(await page.locator('[data-testid=service-platform]').count()).toBe(0);
      await screenshot(page, 'services-en');

      const [popup] = await Promise.all([context.waitForEvent('page'), page.locator('[data-testid=service-transport]').click()]);
      await popup.waitForURL(/\/view\/scenario_transport\/deviceManage\/realTimeMonitoring\?type=101/);
      await popup.close();

      await page.locator('[data-testid=services-logout]').click();
      await page.locator('.logout-confirm .ant-btn-primary').click();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.goto(server.url + '/view/login/productService');
      await page.waitForURL(/\/login\?redirect=/);
    });
  });

  it('shows the platform-management entry to the administrator (Chinese)', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await signIn(page, 'admin', 'Admin#2026');
      await page.waitForURL(`**${LANDING}`);
      await page.goto(server.url + '/view/login/productService');
      await page.locator('[data-testid=service-platform]').waitFor();
      expect(await page.locator('[data-testid=screen-title]').textContent()).toBe('我的服务');
      expect(await page.locator('[data-testid=service-platform]').textContent()).toBe('平台管理');
      expect(await page.locator('[data-testid=service-warehouse]').textContent()).toBe('冷链仓库');
      await screenshot(page, 'services-zh');
    });
  });
});
