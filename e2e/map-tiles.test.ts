// Street maps (issue 26, item 1), offline: the tile address points at this test's own HTTP server,
// which answers every tile with a PNG; the map settings screen's preview shows those tiles and
// their attribution. The platform administrator then saves a custom address on a closed port
// (with confirmation): the preview hides the failing tiles and says, discreetly, that the offline
// outline is shown, in English and in Chinese, and the setting reached the server (map
// configuration and the CSP's img-src).
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_API, type MapConfig } from '@iotc/shared/live';
import { apiCall, apiToken, screenshot, signInAs, startServer, type Server, withBrowser } from './harness.ts';

/** A 1×1 PNG (Leaflet stretches it over the 256×256 tile). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mO88f//fwAI/gO/4VfhZQAAAABJRU5ErkJggg==', 'base64');

let server: Server;
let tiles: HttpServer;
let tileRequests = 0;
let closedPort = 0;

function listen(s: HttpServer): Promise<number> {
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
}

beforeAll(async () => {
  tiles = createServer((req, res) => {
    tileRequests += 1;
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    res.end(PNG);
  });
  const tilePort = await listen(tiles);
  // A port that was free a moment ago and is closed now: nothing answers there.
  const probe = createServer();
  closedPort = await listen(probe);
  await new Promise((r) => probe.close(r));
  server = await startServer({
    map: { tileUrl: `http://127.0.0.1:${tilePort}/{z}/{x}/{y}.png`, tileSubdomains: null, tileAttribution: '© Test tiles', tileCrs: 'wgs84', tileMaxZoom: 18 },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await new Promise((r) => tiles?.close(r));
});

const preview = '[data-testid=map-settings-preview]';

describe('street map tiles', () => {
  it('shows the local server’s tiles with their attribution; a closed port leaves the offline outline and a note', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signInAs(page, server);
      await page.goto(`${server.url}/view/system/map`);
      await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe('Map settings');
      await expect.poll(() => page.locator(`${preview} img.leaflet-tile-loaded`).count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(tileRequests).toBeGreaterThan(0);
      await expect.poll(() => page.locator(`${preview} .leaflet-control-attribution`).textContent()).toContain('© Test tiles');
      expect(await page.locator(`${preview} [data-testid=map-tiles-unreachable]`).count()).toBe(0);
      expect(await page.locator('[data-testid=map-settings-env]').textContent()).toContain(`http://127.0.0.1:`);
      await screenshot(page, 'map-settings-en-tiles');

      await page.locator('[data-testid=map-source-custom]').click();
      await page.locator('[data-testid=map-settings-url]').fill(`http://127.0.0.1:${closedPort}/{z}/{x}/{y}.png`);
      await page.locator('[data-testid=map-settings-attribution]').fill('© Closed');
      await expect
        .poll(() => page.locator(`${preview} [data-testid=map-tiles-unreachable]`).textContent(), { timeout: 20_000 })
        .toBe('Street map unreachable: offline outline shown');
      // The offline outline is drawn (its own pane), the failing tiles are hidden.
      expect(await page.locator(`${preview} .leaflet-iotc-offline-pane > *`).count()).toBeGreaterThan(0);
      expect(await page.locator(`${preview} .leaflet-tile-pane .leaflet-layer`).evaluate((e) => getComputedStyle(e).opacity)).toBe('0');

      await page.locator('[data-testid=map-settings-save]').click();
      await page.locator('.confirm-dialog .ant-btn-primary').click();
      await expect.poll(() => page.locator('.ant-message').textContent()).toContain('Map settings saved');
      await screenshot(page, 'map-settings-en-unreachable');
    });
    const token = await apiToken(server);
    const config = await apiCall<MapConfig>(server, token, 'GET', LIVE_API.mapConfig);
    expect(config).toMatchObject({ tileUrl: `http://127.0.0.1:${closedPort}/{z}/{x}/{y}.png`, tileAttribution: '© Closed' });
    const res = await fetch(`${server.url}/login`);
    expect(res.headers.get('content-security-policy')).toContain(`img-src 'self' data: blob: http://127.0.0.1:${closedPort};`);
  });

  it('the Chinese console has the menu entry and the note', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInAs(page, server);
      await page.locator('.ant-menu').getByText('平台管理', { exact: true }).click();
      await page.locator('.ant-menu').getByText('地图设置', { exact: true }).click();
      await page.waitForURL(/\/view\/system\/map/);
      await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe('地图设置');
      // The saved choice, once the setting has come (the form shows the start-up default until then).
      await expect.poll(() => page.locator('[data-testid=map-source-custom]').isChecked()).toBe(true);
      await expect
        .poll(() => page.locator(`${preview} [data-testid=map-tiles-unreachable]`).textContent(), { timeout: 20_000 })
        .toBe('街道地图无法访问：显示离线轮廓');
      await screenshot(page, 'map-settings-zh');
    });
  });
});
