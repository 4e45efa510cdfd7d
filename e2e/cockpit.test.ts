// Browser test of the cockpit on the demo fleet at 1920 x 1080, in zh-CN and en-US: the map
// (provinces registered, vehicle dots) and the KPIs show, nothing overflows the window and no
// KPI text is cut, a label reads in the browser's language; one alarming report sent over HTTP
// intake appears at the top of the ticker without a reload; full screen covers the console
// frame and still fits; and the red theme in full screen. The page (vehicles, ticker) and the
// alarm notifier share one live WebSocket. Screenshots with E2E_SHOTS set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoDevices, rekey, seedDemoFleet, type DemoDevice } from '../apps/server/src/demo/seed-demo.ts';
import { DEMO_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let trucks: DemoDevice[];
let secrets: Map<string, string>;

async function report(d: DemoDevice, body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/iot/v2/device/report`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${d.deviceId}:${secrets.get(d.id)!}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ deviceId: d.deviceId, time: new Date().toISOString(), ...body }),
  });
  expect(res.status, await res.text()).toBe(200);
}

beforeAll(async () => {
  server = await startServer();
  await seedDemoFleet(server.app.database.db);
  trucks = (await demoDevices(server.app.database.db)).filter((d) => d.kind === 'vehicle');
  secrets = await rekey(server.app.database.db, trucks.map((t) => t.id));
  // Trucks on the road in Shanghai, Jiangsu and Guangdong, in range (5 C), battery full.
  const places: [number, number][] = [
    [31.23, 121.47],
    [31.3, 120.59],
    [23.13, 113.26],
  ];
  for (const [i, [lat, lon]] of places.entries()) await report(trucks[i]!, { lat, lon, speed: 50, extraData: '{"1":{"batval":900},"3":{"temp":50}}' });
});
afterAll(async () => {
  await server.close();
});

/** Nothing scrolls the page and every KPI card shows all of its text. */
async function fits(page: Page) {
  const m = await page.evaluate(() => ({
    w: document.documentElement.scrollWidth,
    h: document.documentElement.scrollHeight,
    cut: Array.from(document.querySelectorAll<HTMLElement>('[data-testid^=kpi-]')).filter((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight).map((el) => el.dataset.testid),
    kpis: document.querySelectorAll('[data-testid^=kpi-]').length,
    box: (() => {
      const r = document.querySelector('[data-testid=cockpit]')!.getBoundingClientRect();
      return { right: r.right, bottom: r.bottom };
    })(),
  }));
  expect(m.w).toBeLessThanOrEqual(1920);
  expect(m.h).toBeLessThanOrEqual(1080);
  expect(m.kpis).toBeGreaterThanOrEqual(8);
  expect(m.cut).toEqual([]);
  expect(m.box.right).toBeLessThanOrEqual(1920);
  expect(m.box.bottom).toBeLessThanOrEqual(1080);
}

async function signIn(page: Page) {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill('demo');
  await page.locator('#password').fill(DEMO_PASSWORD);
  await page.locator('#login-submit').click();
  await page.waitForURL((u) => u.pathname.startsWith('/view'));
}

async function openCockpit(page: Page) {
  await page.goto(`${server.url}/view/cockpit/index`);
  await page.locator('[data-testid=cockpit]').waitFor();
  await expect.poll(async () => Number(await page.locator('[data-testid=cockpit-map-state]').getAttribute('data-regions'))).toBeGreaterThan(30);
  await expect.poll(async () => Number(await page.locator('[data-testid=cockpit-map-state]').getAttribute('data-vehicles'))).toBe(3);
  await page.locator('[data-testid=kpi-value-assets]').waitFor();
  await page.locator('[data-testid=cockpit-map] canvas').first().waitFor();
  await page.locator('[data-testid=cockpit-live][data-state=open]').waitFor();
}

describe.each([
  ['zh-CN', 0, { label: '在线资产', title: '冷链运营驾驶舱', lowBattery: '低电量', province: '上海' }],
  ['en-US', 1, { label: 'Assets online', title: 'Cold-chain Operations Cockpit', lowBattery: 'Low battery', province: 'Shanghai' }],
] as const)('cockpit in %s', (locale, truck, text) => {
  it('fits 1920 x 1080, reads in the language and shows a new alarm live', async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      // The live sockets the cockpit page opens: one for its vehicles, its ticker and the alarm notifier.
      const live: { closed: boolean }[] = [];
      page.on('websocket', (ws) => {
        if (!ws.url().includes('/api/iot/v2/live')) return;
        const s = { closed: false };
        live.push(s);
        ws.on('close', () => (s.closed = true));
      });
      await openCockpit(page);
      expect(await page.locator('[data-testid=kpi-assets]').textContent()).toContain(text.label);
      expect(await page.locator('[data-testid=screen-title]').textContent()).toBe(text.title);
      // Two Shanghai-region trucks? One in Shanghai, one in Jiangsu: the province table places them by position.
      await expect.poll(() => page.locator('[data-testid=cockpit-provinces] tr[data-province="310000"] td').last().textContent()).toBe('1');
      expect(await page.locator('[data-testid=cockpit-provinces] tr[data-province="310000"] td').first().textContent()).toBe(text.province);
      expect(await page.locator('[data-testid=cockpit-provinces] tr[data-province="320000"] td').last().textContent()).toBe('1');
      expect(await page.locator('[data-testid=kpi-value-devices]').textContent()).toMatch(/^3/);
      await page.waitForTimeout(500);
      await fits(page);
      await screenshot(page, `cockpit-${locale}`);

      // Low battery on a truck: the alarm engine raises it at once; the ticker shows it on top.
      const before = await page.locator('[data-testid=cockpit-ticker-item]').count();
      const activeBefore = Number(await page.locator('[data-testid=kpi-value-alarms]').textContent());
      const [lat, lon] = truck === 0 ? [31.24, 121.48] : [31.31, 120.6];
      await report(trucks[truck]!, { lat, lon, speed: 40, extraData: '{"1":{"batval":120},"3":{"temp":50}}' });
      await expect.poll(() => page.locator('[data-testid=cockpit-ticker-item]').count(), { timeout: 15_000 }).toBe(before + 1);
      const top = page.locator('[data-testid=cockpit-ticker-item]').first();
      expect(await top.textContent()).toContain(text.lowBattery);
      expect(await top.getAttribute('data-status')).toBe('active');
      // The counters follow shortly after (the summary is read again after live alarms).
      await expect.poll(async () => Number(await page.locator('[data-testid=kpi-value-alarms]').textContent()), { timeout: 10_000 }).toBe(activeBefore + 1);
      // States and alarms came over one connection, still open.
      expect(live).toEqual([{ closed: false }]);

      // Full screen: the cockpit alone on the screen, still without overflow.
      await page.locator('[data-testid=cockpit-fullscreen]').click();
      await page.locator('[data-testid=cockpit][data-wall=true]').waitFor();
      const box = await page.locator('[data-testid=cockpit]').boundingBox();
      expect(box).toMatchObject({ x: 0, y: 0, width: 1920, height: 1080 });
      await page.waitForTimeout(800);
      await fits(page);
      await screenshot(page, `cockpit-wall-${locale}`);

      if (locale === 'zh-CN') {
        // The red theme, full screen.
        await page.evaluate(() => localStorage.setItem('theme', 'red-theme'));
        await openCockpit(page);
        await page.locator('[data-testid=cockpit-fullscreen]').click();
        await page.locator('.cockpit--red[data-wall=true]').waitFor();
        await page.waitForTimeout(800);
        await fits(page);
        await screenshot(page, 'cockpit-wall-red-zh-CN');
        await page.evaluate(() => localStorage.setItem('theme', 'default-theme'));
      }
    });
  });
});
