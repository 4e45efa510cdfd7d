// Browser tests of equipment asset management and the home screen on the real server: a
// vehicle is registered through its form (a wrong range refused in the user's language), a
// device is registered with its secret shown once and bound to the vehicle from its drawer,
// the binding history shows it; the home screen counts the devices and opens a notification
// without details as 'No details!'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';
import { seedDemoFleet } from '../apps/server/src/demo/seed-demo.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
  await seedDemoFleet(server.app.database.db);
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
  'en-US': { plate: 'E2E-EN-001', rangeError: 'The lower limit must not be above the upper limit', noDetails: 'No details!', jt808: 'JT/T 808', terminal: 'JT/T 808 terminal', notRegistered: 'The terminal has not registered yet', noFrames: 'No frames yet' },
  'zh-CN': { plate: 'E2E-ZH-001', rangeError: '下限不能高于上限', noDetails: '暂无详情！', jt808: 'JT/T 808', terminal: 'JT/T 808 终端', notRegistered: '终端尚未注册', noFrames: '暂无报文' },
} as const;

describe.each(['en-US', 'zh-CN'] as const)('asset management in %s', (locale) => {
  const text = TEXT[locale];
  // A new device per attempt: a retried test must not meet the device its first attempt made.
  let attempt = 0;
  let deviceId = '';

  it('registers a vehicle, refusing an inverted range first', async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/view/asset/vehicles`);
      await page.locator('[data-testid=vehicles-page]').waitFor();
      await page.locator('[data-testid=vehicle-new]').click();
      await page.locator('#asset-vehicle_code').fill(text.plate);
      await page.locator('#asset-vehicle_name').fill('Browser truck');
      await page.locator('#asset-vehicle_tempMin').fill('9');
      await page.locator('#asset-vehicle_tempMax').fill('2');
      await page.locator('[data-testid=asset-form-submit]').click();
      await page.getByText(text.rangeError).first().waitFor();
      await page.locator('#asset-vehicle_tempMin').fill('2');
      await page.locator('#asset-vehicle_tempMax').fill('8');
      await page.locator('[data-testid=asset-form-submit]').click();
      await page.locator('[data-testid=asset-table-vehicle]').getByText(text.plate).waitFor();
      await screenshot(page, `vehicles-${locale}`);
    });
  });

  it('registers a device with its secret shown once and binds it to the vehicle, with history', async () => {
    deviceId = `E2E${locale === 'en-US' ? 'EN' : 'ZH'}${String(++attempt).padStart(4, '0')}`;
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/view/deviceManage/devices`);
      await page.locator('[data-testid=devices-page]').waitFor();
      await page.locator('[data-testid=device-new]').click();
      await page.locator('#device-form_deviceId').fill(deviceId);
      await page.locator('#device-form_name').fill('Browser tracker');
      await page.locator('#device-form-submit').click();
      const secret = (await page.locator('[data-testid=device-secret-value]').textContent())!.trim();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      await page.locator('[data-testid=device-secret-done]').click();
      await expect.poll(() => page.locator('[data-testid=device-secret-value]').count(), { timeout: 10_000 }).toBe(0);

      // The demo fleet fills the first pages: find it by its id.
      await page.locator('[data-testid=filter-keyword]').fill(deviceId);
      await page.locator('[data-testid=filter-search]').click();
      await page.locator('.iotc-cell-link', { hasText: deviceId }).first().click();
      const drawer = page.locator('[data-testid=device-drawer]');
      await drawer.waitFor();
      await drawer.locator('[data-testid=asset-picker-kind]').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: locale === 'en-US' ? 'Vehicle' : '车辆' }).first().click();
      await drawer.locator('[data-testid=asset-picker]').click();
      await page.keyboard.type(text.plate);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text.plate }).first().click();
      await drawer.locator('[data-testid=device-bind]').click();
      await expect.poll(() => drawer.locator('[data-testid=device-bound-asset-text]').textContent()).toContain(text.plate);
      await expect.poll(() => drawer.locator('[data-testid=binding-history]').textContent()).toContain(text.plate);
      await screenshot(page, `device-drawer-${locale}`);
    });
    // The server agrees: the vehicle carries the device.
    const vehicles = await server.app.inject({ method: 'GET', url: `/api/iot/v2/vehicles?keyword=${text.plate}`, headers: { access_token: await token() } });
    expect((vehicles.json() as { data: { rows: { devices: { deviceId: string }[] }[] } }).data.rows[0]!.devices.map((d) => d.deviceId)).toContain(deviceId);
  });

  it('shows a JT/T 808 device made through the API with its protocol and an empty terminal section', async () => {
    const phone = `0139${locale === 'en-US' ? '1' : '2'}${String(Date.now()).slice(-7)}`;
    const made = await server.app.inject({
      method: 'POST',
      url: '/api/iot/v2/devices',
      headers: { access_token: await token(), 'content-type': 'application/json' },
      payload: JSON.stringify({ deviceId: phone, name: 'JT/T 808 truck', protocol: 'jt808' }),
    });
    expect(made.statusCode).toBe(200);
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/view/deviceManage/devices`);
      await page.locator('[data-testid=devices-page]').waitFor();
      await page.locator('[data-testid=filter-keyword]').fill(phone);
      await page.locator('[data-testid=filter-search]').click();
      const row = page.locator('.ant-table-row', { hasText: phone });
      await expect.poll(() => row.locator('[data-testid=device-protocol]').textContent()).toBe(text.jt808);
      await row.locator('.iotc-cell-link', { hasText: phone }).click();
      const drawer = page.locator('[data-testid=device-drawer]');
      await expect.poll(() => drawer.locator('[data-testid=device-detail-protocol]').textContent()).toBe(text.jt808);
      const section = drawer.locator('[data-testid=jt808-section]');
      await expect.poll(() => section.textContent()).toContain(text.terminal);
      await expect.poll(() => section.locator('[data-testid=jt808-not-registered]').textContent()).toContain(text.notRegistered);
      await expect.poll(() => section.locator('[data-testid=jt808-frames]').textContent()).toContain(text.noFrames);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `device-jt808-empty-${locale}`);
    });
  });
});

async function token(): Promise<string> {
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  return (res.json() as { data: { token: string } }).data.token;
}

describe.each(['en-US', 'zh-CN'] as const)('home in %s', (locale) => {
  it('counts the vehicles by status and opens a notification without details', async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/view/home/home`);
      await page.locator('[data-testid=home-page]').waitFor();
      // The home counts vehicles: the demo fleet's 8 trucks (and any device bound to a vehicle above), none reporting yet.
      await expect.poll(async () => Number(await page.locator('[data-testid=home-status-all-count]').textContent())).toBeGreaterThanOrEqual(8);
      await expect.poll(async () => page.locator('[data-testid=home-status-unused-count]').textContent()).toBe(await page.locator('[data-testid=home-status-all-count]').textContent());
      await page.locator('[data-testid=home-notices] [data-testid=home-notices-all-loaded]').waitFor();
      await page.locator('[data-testid=home-notice-details]').nth(1).click();
      await page.locator('[data-testid=home-notice-no-details]').waitFor();
      expect(await page.locator('[data-testid=home-notice-no-details]').textContent()).toContain(TEXT[locale].noDetails);
      await screenshot(page, `home-${locale}`);
    });
  });
});
