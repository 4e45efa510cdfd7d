// Browser test of platform notices and the full inbox (issue 26 items 5 and 6), in both languages,
// on the real server: the platform administrator publishes a notice on the notices screen; the
// demo user's console, open meanwhile, counts it in the bell without a reload; the drawer's
// "view all" opens the full inbox page, which lists it in the user's language under the notices
// filter and shows its text when opened (marking it read). Withdrawn by the administrator after a
// confirmation, it leaves the demo user's inbox page live. Then the ledger screen's "Tracking
// links" tab lists the organisation's consignee tracking links and revokes one after a confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { INBOX_API } from '@iotc/shared/inbox';
import { apiCall, apiToken, DEMO_PASSWORD, launchBrowser, screenshot, signInAs, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let admin: string;
let demo: string;
let taskId: string;

beforeAll(async () => {
  server = await startServer({ alarmTickMs: 3_600_000 });
  admin = await apiToken(server);
  demo = await apiToken(server, 'demo', DEMO_PASSWORD);
  const device = await apiCall<DeviceWithSecret>(server, admin, 'POST', '/api/iot/v2/devices', { deviceId: 'NOTICE-TRK-1', name: 'Notice reefer' });
  const task = await apiCall<{ id: string }>(server, admin, 'POST', '/api/iot/v2/transport-tasks', {
    goodsName: 'Vaccines NT',
    deviceIds: [device.id],
    origin: { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 },
    destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
  });
  taskId = task.id;
});
afterAll(async () => {
  await server?.close();
});

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the last element matching `selector` has finished opening, so a screenshot shows it. */
async function shown(page: Page, selector: string) {
  await page.locator(selector).last().waitFor();
  await page.waitForFunction((sel) => {
    const all = document.querySelectorAll(sel);
    const el = all[all.length - 1];
    return !!el && el.getAnimations({ subtree: true }).length === 0 && getComputedStyle(el).opacity === '1';
  }, selector);
}

const TEXT = {
  en: { none: 'Inbox, no unread messages', one: 'Inbox, 1 unread', viewAll: 'View all messages', notices: 'Notices', revoked: 'Revoked', tab: 'Tracking links' },
  zh: { none: '消息中心，没有未读消息', one: '消息中心，1 条未读', viewAll: '查看全部消息', notices: '公告', revoked: '已撤销', tab: '跟踪链接' },
};

describe.each(['en-US', 'zh-CN'] as const)('notices and the full inbox in %s', (locale) => {
  const lang = locale === 'en-US' ? 'en' : 'zh';
  const text = TEXT[lang];
  const stamp = `${lang.toUpperCase()} ${Date.now() % 100000}`;
  const titleZh = `冷库停电演练 ${stamp}`;
  const titleEn = `Cold store power drill ${stamp}`;
  const mine = lang === 'en' ? titleEn : titleZh;

  it('a published notice reaches another user live; the drawer opens the full inbox page; withdrawn, it leaves it', async () => {
    await apiCall(server, demo, 'POST', INBOX_API.readAll);
    const user = await launchBrowser({ locale });
    try {
      let greeted = false;
      user.page.on('websocket', (ws) => ws.on('framereceived', (f) => void (String(f.payload).includes('"type":"hello"') && (greeted = true))));
      await signInAs(user.page, server, 'demo', DEMO_PASSWORD);
      const bell = user.page.locator('[data-testid=inbox-bell]');
      await until(async () => (await bell.getAttribute('aria-label')) === text.none);
      await until(() => greeted);

      await withBrowser(locale, async ({ page }) => {
        await signInAs(page, server);
        await page.goto(`${server.url}/view/system/notices`);
        await page.locator('[data-testid=notices-page]').waitFor();
        await page.locator('[data-testid=notice-new]').click();
        await shown(page, '.ant-modal');
        // Publishing without titles is refused by the form, in the interface language.
        await page.locator('[data-testid=notice-submit]').click();
        await page.locator('.ant-form-item-explain-error').first().waitFor();
        expect(await page.locator('.ant-form-item-explain-error').allTextContents()).toEqual(lang === 'en' ? ['Please give the title in Chinese', 'Please give the title in English'] : ['请填写中文标题', '请填写英文标题']);
        await page.locator('[data-testid=notice-title-zh]').fill(titleZh);
        await page.locator('[data-testid=notice-title-en]').fill(titleEn);
        await page.locator('[data-testid=notice-body-zh]').fill('周六 22:00 起冷库停电两小时，请提前转移货物。');
        await page.locator('[data-testid=notice-body-en]').fill('Power is off for two hours from 22:00 on Saturday; move the goods beforehand.');
        await page.locator('[data-testid=notice-level-important]').click();
        await screenshot(page, `notices-publish-${lang}`);
        await page.locator('[data-testid=notice-submit]').click();
        await page.locator('.ant-modal').waitFor({ state: 'detached' });
        const row = page.locator('[data-testid=notices-page] tbody tr.ant-table-row').first();
        await until(async () => ((await row.textContent()) ?? '').includes(mine));
        await screenshot(page, `notices-list-${lang}`);

        // The demo user's bell counts it without a reload; "view all" opens the full inbox page.
        await until(async () => (await bell.getAttribute('aria-label')) === text.one);
        await bell.click();
        await user.page.locator('[data-testid=inbox-view-all]').click();
        await user.page.waitForURL((u) => u.pathname === '/view/inbox');
        const items = user.page.locator('[data-testid=inbox-page] [data-testid=inbox-item]');
        await until(async () => ((await items.first().textContent()) ?? '').includes(mine));
        expect(await user.page.locator('[data-testid=inbox-view-all]').isVisible()).toBe(false);
        await user.page.locator('[data-testid=inbox-page-filter]').getByText(text.notices, { exact: true }).click();
        await user.page.waitForURL((u) => u.searchParams.get('filter') === 'notices');
        await until(async () => (await items.first().getAttribute('data-read')) === 'false' && ((await items.first().textContent()) ?? '').includes(mine));
        await screenshot(user.page, `inbox-page-${lang}`);
        await items.first().locator('button').first().click();
        await user.page.locator('[data-testid=inbox-item-body]').waitFor();
        expect(await user.page.locator('[data-testid=inbox-item-body]').textContent()).toBe(lang === 'en' ? 'Power is off for two hours from 22:00 on Saturday; move the goods beforehand.' : '周六 22:00 起冷库停电两小时，请提前转移货物。');
        await until(async () => (await items.first().getAttribute('data-read')) === 'true');
        await until(async () => (await bell.getAttribute('aria-label')) === text.none);
        await screenshot(user.page, `inbox-page-opened-${lang}`);

        // Withdrawn after a confirmation: it leaves the list and the user's inbox page, live.
        await row.locator('[data-testid=notice-withdraw]').click();
        await shown(page, '.confirm-dialog');
        expect(await page.locator('[data-testid=notice-withdraw-content]').textContent()).toContain(mine);
        await screenshot(page, `notices-withdraw-${lang}`);
        await page.locator('.confirm-dialog .ant-btn-dangerous').click();
        await page.locator('.confirm-dialog').waitFor({ state: 'detached' });
        await until(async () => !((await page.locator('[data-testid=notices-page] tbody').textContent()) ?? '').includes(mine));
        await until(async () => !((await user.page.locator('[data-testid=inbox-page]').textContent()) ?? '').includes(mine));
      });
    } finally {
      await user.close();
    }
  });

  it("lists the organisation's tracking links beside the share links and revokes one after a confirmation", async () => {
    await apiCall(server, admin, 'POST', `/api/iot/v2/transport-tasks/${taskId}/tracking-links`, {});
    await withBrowser(locale, async ({ page }) => {
      await signInAs(page, server);
      await page.goto(`${server.url}/view/ledger/verify`);
      await page.locator('[data-testid=ledger-tab-tracking]').click();
      await page.waitForURL((u) => u.searchParams.get('view') === 'tracking');
      const rows = page.locator('[data-testid=tracking-links-org] tbody tr.ant-table-row');
      await until(async () => (await rows.count()) >= 1);
      expect(await page.locator('[data-testid=ledger-tab-tracking]').textContent()).toBe(text.tab);
      await screenshot(page, `tracking-links-org-${lang}`);
      const first = rows.first();
      await first.locator('[data-testid=tracking-links-revoke]').click();
      await shown(page, '.confirm-dialog');
      await screenshot(page, `tracking-links-revoke-${lang}`);
      await page.locator('.confirm-dialog .ant-btn-dangerous').click();
      await until(async () => (await first.locator('[data-testid=tracking-links-status]').textContent()) === text.revoked);
      expect(await first.locator('[data-testid=tracking-links-revoke]').count()).toBe(0);
    });
  });
});
