// The spec's error texts in the browser (issue 21, item 6): a failed `info` call (the signed-in
// user) says 'User information request failed!' rather than the generic server error, right
// after signing in (Chinese) and when an open console is reloaded (English).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { DEMO_PASSWORD, screenshot, startServer, type Server, withBrowser } from './harness.ts';

const LANDING = '/view/deviceManage/realTimeMonitoring';
let server: Server;
beforeAll(async () => {
  server = await startServer();
  // The demo's fleet and past day are seeded at start: on a loaded machine that outlasts the default hook limit.
}, 300_000);
afterAll(async () => {
  await server.close();
});

async function signIn(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill('demo');
  await page.locator('#password').fill(DEMO_PASSWORD);
  await page.locator('#login-submit').click();
}

/** The info call answers as a failing server would. */
const failInfo = (route: Route) =>
  route.fulfill({
    status: 500,
    contentType: 'application/json',
    body: JSON.stringify({ isSuccess: 'N', data: null, errorcode: 'INTERNAL', errormsg: 'Boom from the server' }),
  });

describe('the info call fails', () => {
  it('right after signing in: 用户信息请求失败！ (Chinese)', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await page.route('**/iot-cloud-auth/auth/v1/info', failInfo);
      await signIn(page);
      await page.waitForURL(`**${LANDING}`);
      const note = page.locator('.server-error-notification');
      await note.first().waitFor();
      const text = await note.first().textContent();
      expect(text).toContain('用户信息请求失败！');
      expect(text).not.toContain('服务器错误');
      await screenshot(page, 'info-failed-zh');
    });
  });

  it('when an open console is reloaded: User information request failed! (English)', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page);
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=user-menu]').waitFor();
      await page.route('**/iot-cloud-auth/auth/v1/info', failInfo);
      await page.reload();
      const note = page.locator('.server-error-notification');
      await note.first().waitFor();
      const text = await note.first().textContent();
      expect(text).toContain('User information request failed!');
      expect(text).not.toContain('Server error, please contact the administrator!');
      await screenshot(page, 'info-failed-en');
    });
  });
});
