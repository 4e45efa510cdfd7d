// The outbox screen (issue 21, item 9): without SMTP a password retrieval's verification code is
// kept in the outbox; the platform administrator finds it under platform management, in Chinese
// and in English, while the demo operator is refused the screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, DEMO_PASSWORD, screenshot, startServer, type Server, withBrowser } from './harness.ts';

const LANDING = '/view/deviceManage/realTimeMonitoring';
let server: Server;
let code = '';
beforeAll(async () => {
  server = await startServer();
  // The demo operator forgot the password: the code goes to demo@example.com, i.e. the outbox.
  const sent = await server.app.inject({
    method: 'POST',
    url: '/iot-cloud-auth/auth/v1/sendMail',
    headers: { 'content-type': 'application/json', language: 'en-US' },
    payload: JSON.stringify({ account: 'demo', channel: 'email' }),
  });
  expect(sent.statusCode).toBe(200);
  const { outbox } = await import('../apps/server/src/db/schema.ts');
  const [kept] = await server.app.database.db.select().from(outbox);
  code = /(\d{4})/.exec(kept!.body)![1]!;
  // The demo's fleet and past day are seeded at start: on a loaded machine that outlasts the default hook limit.
}, 300_000);
afterAll(async () => {
  await server.close();
});

async function signIn(page: Page, account: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.locator('#login-submit').click();
  await page.waitForURL(`**${LANDING}`);
}

const rows = (page: Page) => page.locator('[data-testid=outbox-page] .ant-table-tbody tr.ant-table-row');

describe('outbox', () => {
  it('the administrator opens it from the platform menu and reads the code (Chinese)', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signIn(page, 'admin', ADMIN_PASSWORD);
      await page.locator('.ant-menu').getByText('平台管理', { exact: true }).click();
      await page.locator('.ant-menu').getByText('发件箱', { exact: true }).click();
      await page.waitForURL(/\/view\/system\/outbox/);
      await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe('发件箱');
      await expect.poll(() => rows(page).count()).toBe(1);
      expect(await rows(page).first().locator('[data-testid=outbox-recipient]').textContent()).toBe('demo@example.com');
      expect(await rows(page).first().locator('[data-testid=outbox-body]').textContent()).toContain(code);
      expect(await rows(page).first().textContent()).toContain('仅保存');
      expect(await page.locator('[data-testid=outbox-page] thead').textContent()).toContain('收件人');
      await screenshot(page, 'outbox-zh-1280');
    });
  });

  it('shows the same in English, and the demo operator is refused it', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page, 'admin', ADMIN_PASSWORD);
      await page.goto(`${server.url}/view/system/outbox`);
      await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe('Outbox');
      await expect.poll(() => rows(page).count()).toBe(1);
      const header = await page.locator('[data-testid=outbox-page] thead').textContent();
      for (const h of ['Time', 'Channel', 'Recipient', 'Subject', 'Content', 'Status']) expect(header).toContain(h);
      expect(await rows(page).first().locator('[data-testid=outbox-subject]').textContent()).toBe('IoT Cloud Console verification code');
      expect(await rows(page).first().locator('[data-testid=outbox-body]').textContent()).toContain(code);
      expect(await rows(page).first().textContent()).toContain('Kept only');
      await screenshot(page, 'outbox-en-1440');
    });
    await withBrowser('en-US', async ({ page }) => {
      await signIn(page, 'demo', DEMO_PASSWORD);
      await page.goto(`${server.url}/view/system/outbox`);
      await page.locator('[data-testid=forbidden-page]').waitFor();
    });
  });
});
