// Browser test of the JT/T 808 terminal models screen, in zh and en: an administrator maps a
// model's items in the form from the keyboard (a bad item id refused on its field in the user's
// language first), sees the mapping listed, and deletes it after a confirmation.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer(process.env.E2E_WEB_DIST ? { webDist: process.env.E2E_WEB_DIST } : {});
});
afterAll(async () => {
  await server.close();
});

async function signIn(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill('admin');
  await page.locator('#password').fill(ADMIN_PASSWORD);
  await page.locator('#login-submit').click();
  await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');
}

const TEXT = {
  'en-US': { title: 'JT/T 808 terminal models', badId: 'An item id is 0x and two hex digits, e.g. 0x51', confirm: 'Delete this mapping?', deleteButton: 'Delete' },
  'zh-CN': { title: 'JT/T 808 终端型号', badId: '附加信息 ID 须为 0x 加两位十六进制数字，如 0x51', confirm: '删除此映射？', deleteButton: '删除' },
} as const;

describe.each(['en-US', 'zh-CN'] as const)('terminal models in %s', (locale) => {
  const text = TEXT[locale];
  // A new model per attempt: a retried test must not meet the mapping its first attempt made.
  let attempt = 0;
  it('maps a model from the keyboard, lists it and deletes it after a confirmation', async () => {
    const model = `E2E-${locale}-${++attempt}`;
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/view/deviceManage/jt808Models`);
      await page.locator('[data-testid=jt808-models-page]').getByText(text.title).first().waitFor();
      await page.locator('[data-testid=model-new]').click();
      await page.locator('[data-testid=model-field-model]').fill(model);
      await page.keyboard.press('Tab');
      await page.keyboard.type('Reefer terminal');
      await page.locator('[data-testid=model-item-id]').first().fill('51');
      await page.keyboard.press('Enter');
      await page.getByText(text.badId).first().waitFor();
      await page.locator('[data-testid=model-item-add]').click();
      await page.locator('[data-testid=model-item-id]').first().fill('0x51');
      await page.locator('[data-testid=model-item-id]').nth(1).fill('0x66');
      await screenshot(page, `jt808-model-form-${locale}`);
      // The second row's channel: humidity (the first row keeps temperature).
      await page.locator('[data-testid=model-item-channel]').nth(1).click();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid=model-field-model]').press('Enter');
      await page.locator('[data-testid=jt808-models-page]').getByText(model).waitFor();
      await screenshot(page, `jt808-models-${locale}`);
      // The row of this model: the list also holds the demo organisation's own mapping.
      await page.locator('[data-testid=jt808-models-page] tr', { has: page.getByText(model, { exact: true }) }).locator('[data-testid=model-action-delete]').click();
      await page.locator('.ant-modal-confirm-title', { hasText: text.confirm }).waitFor();
      await screenshot(page, `jt808-model-delete-${locale}`);
      await page.locator('.ant-modal-confirm-btns').getByRole('button', { name: text.deleteButton }).click();
      await page.locator('[data-testid=jt808-models-page]').getByText(model).waitFor({ state: 'detached' });
    });
  });
});
