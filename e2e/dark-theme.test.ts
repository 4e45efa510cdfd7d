// Browser test of the dark theme (issue 23, item 5), in both languages: chosen in the header, it
// darkens the frame, the panels, the tables and the live map, survives a reload, and going back
// to the default brings the light surfaces back. Screenshots with E2E_SHOTS set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, signInAs, startServer, type Server, withBrowser } from './harness.ts';

const MONITOR = '/view/deviceManage/realTimeMonitoring';
let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** The relative luminance (0 black to 1 white) of what the elements matching `selector` are painted with (the first one). */
function luminanceOf(page: Page, selector: string, property: 'backgroundColor' | 'color' = 'backgroundColor'): Promise<number> {
  return page.locator(selector).first().evaluate((el, prop) => {
    const [r, g, b] = getComputedStyle(el)[prop].match(/[\d.]+/g)!.map(Number);
    const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  }, property);
}

/** Frame, panel, table header and map: dark surfaces; the screen's title: light text. */
async function expectDark(page: Page) {
  expect(await page.locator('html').getAttribute('data-theme')).toBe('dark-theme');
  for (const selector of ['body', '.header-bar', '.breadcrumb-bar', '.console-content .ant-card', '.ant-table-thead th', '.iotc-live-map']) {
    await expect.poll(() => luminanceOf(page, selector), { message: selector }).toBeLessThan(0.03);
  }
  expect(await luminanceOf(page, '[data-testid=screen-title]', 'color')).toBeGreaterThan(0.5);
  // The map's land and borders are drawn light on a canvas: the dark theme inverts that pane.
  expect(await page.locator('.leaflet-iotc-offline-pane').evaluate((el) => getComputedStyle(el).filter)).toContain('invert');
}

describe('dark theme', () => {
  for (const locale of ['zh-CN', 'en-US']) {
    it(`is chosen in the header, darkens panels, tables and the map, and stays after a reload (${locale})`, async () => {
      await withBrowser(locale, async ({ page }) => {
        await signInAs(page, server);
        await page.goto(`${server.url}${MONITOR}`);
        await page.locator('.iotc-live-map').waitFor();
        expect(await page.locator('html').getAttribute('data-theme')).toBe('default-theme');
        expect(await luminanceOf(page, '.console-content .ant-card')).toBeGreaterThan(0.9);

        await page.locator('[data-testid=theme-dark]').click();
        await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark-theme');
        await expectDark(page);

        await page.reload();
        await page.locator('.iotc-live-map').waitFor();
        await expectDark(page);
        expect(await page.evaluate(() => localStorage.getItem('theme'))).toContain('dark-theme');
        await screenshot(page, `dark-monitor-${locale}`);

        await page.locator('[data-testid=theme-default]').click();
        await expect.poll(() => luminanceOf(page, '.console-content .ant-card')).toBeGreaterThan(0.9);
        expect(await page.locator('.leaflet-iotc-offline-pane').evaluate((el) => getComputedStyle(el).filter)).toBe('none');
      });
    });
  }
});
