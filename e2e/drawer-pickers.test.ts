// Pickers in drawers are usable at wide screens (issue 22 item 2): the policy's "Applies to:
// Assets" search and the device drawer's asset search take the row beside their kind select,
// in both languages at 1600 and 1920 px (the search was 16 px wide at the right edge). The
// policy's device search names a device as every picker of the console does: "name (id)"
// (issue 25 item 7; it read "id · name" here). Screenshots of it open with E2E_SHOTS set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, launchBrowser, pageToken, screenshot, signInAs, startServer, type Browser, type Server } from './harness.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

/** Width of the select holding `testId`, and of its kind select, in px. */
async function widths(page: Page, kindTestId: string, searchTestId: string) {
  const width = (id: string) => page.locator(`[data-testid=${id}]`).first().evaluate((e) => (e.closest('.ant-select') ?? e).getBoundingClientRect().width);
  return { kind: await width(kindTestId), search: await width(searchTestId) };
}

const LOCALES = [
  ['en-US', /^Assets$/, /^Devices$/],
  ['zh-CN', /^指定资产$/, /^指定设备$/],
] as const;

describe('pickers in drawers', () => {
  for (const [locale, assets, devices] of LOCALES) {
    it(`keep their search usable beside the kind at 1600 and 1920 px (${locale})`, async () => {
      const b: Browser = await launchBrowser({ locale });
      try {
        const { page } = b;
        await signInAs(page, server);
        // A device of its own to open, found by its id.
        const deviceId = `PICK${locale === 'en-US' ? 'EN' : 'ZH'}0001`;
        await apiCall(server, await pageToken(page), 'POST', '/api/iot/v2/devices', { deviceId, name: 'Picker tracker' }).catch(() => undefined);
        for (const width of [1600, 1920]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${server.url}/view/alarm/policy?type=102`);
          await page.locator('[data-testid=policy-new]').click();
          await page.locator('[data-testid=policy-scope] label').filter({ hasText: assets }).first().click();
          await page.locator('[data-testid=policy-asset-kind]').waitFor();
          await expect.poll(() => widths(page, 'policy-asset-kind', 'policy-targets')).toMatchObject({ kind: 140 });
          const policy = await widths(page, 'policy-asset-kind', 'policy-targets');
          expect(policy.search, `policy drawer at ${width}`).toBeGreaterThan(300);
          // The search opens its list where it is, wider than the 16 px it had.
          await page.locator('[data-testid=policy-targets]').first().click();
          const list = page.locator('.ant-select-dropdown:visible').last();
          await list.waitFor();
          expect((await list.boundingBox())!.width).toBeGreaterThan(300);
          await page.keyboard.press('Escape');

          await page.goto(`${server.url}/view/deviceManage/devices?type=102`);
          await page.locator('[data-testid=devices-page]').waitFor();
          await page.locator('[data-testid=filter-keyword]').fill(deviceId);
          await page.locator('[data-testid=filter-search]').click();
          await page.locator('.iotc-cell-link', { hasText: deviceId }).first().click();
          const drawer = page.locator('[data-testid=device-drawer]');
          await drawer.locator('[data-testid=asset-picker-kind]').waitFor();
          const device = await widths(page, 'asset-picker-kind', 'asset-picker');
          expect(device.kind).toBe(140);
          expect(device.search, `device drawer at ${width}`).toBeGreaterThan(200);
        }

        // The policy's device search finds the device by its id and names it "name (id)".
        await page.goto(`${server.url}/view/alarm/policy?type=102`);
        await page.locator('[data-testid=policy-new]').click();
        await page.locator('[data-testid=policy-scope] label').filter({ hasText: devices }).first().click();
        await page.locator('[data-testid=policy-targets]').first().click();
        await page.keyboard.type(deviceId);
        const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
        await expect.poll(() => option.allTextContents()).toEqual([`Picker tracker (${deviceId})`]);
        await screenshot(page, `picker-device-open-${locale}`);
      } finally {
        await b.close();
      }
    });
  }
});
