// The login page's first load in Chromium against the built app on the real server (issue 23):
// no chart library, no map library, no schema library, and only the account screens' messages of
// the language in use come down; switching language fetches the other language's texts and shows
// them at once, with no raw message key. Signing in brings the console's messages before the
// console shows, in either language: the console frame's part and each screen's own parts
// (app/locale-parts.ts), not the other screens'.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { alarmLevels, alarms } from '../apps/server/src/db/schema.ts';
import { demoDevices, seedDemoFleet } from '../apps/server/src/demo/seed-demo.ts';
import { DEMO_PASSWORD, screenshot, signInAs, startServer, type Server, withBrowser } from './harness.ts';

const en = JSON.parse(readFileSync('apps/web/src/locales/en.json', 'utf8')) as Record<string, string>;
const zh = JSON.parse(readFileSync('apps/web/src/locales/zh.json', 'utf8')) as Record<string, string>;

// Texts found only in what each part brings: Leaflet's map class, the attribute ECharts marks its
// boxes with (a minified build keeps no "zrender"), and a sentence of each language's messages.
const LEAFLET = 'leaflet-container';
const ECHARTS = '_echarts_instance_';
const EN_TEXT = en['app.subtitle']!;
const ZH_TEXT = zh['app.subtitle']!;
// A console text (the monitoring screen's part of the messages) and Zod's own error class name.
const CONSOLE_TEXT = en['monitor.placeholder']!;
// Texts of the alarm screens' part and of the cockpit's.
const ALARM_TEXT = en['alarm.query.none']!;
const COCKPIT_TEXT = en['cockpit.title']!;
const ZOD = 'ZodError';
// A raw message key of any of the files' prefixes, as a page shows it when its texts are missing.
const RAW_KEY = new RegExp(`\\b(${[...new Set(Object.keys(en).map((k) => k.split('.')[0]))].join('|')})\\.[a-zA-Z]+`);

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** Keeps the body of every script and JSON answer the page receives. */
function recordBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (r) => {
    if (!/\.js$|\/api\/|\/iot-cloud-auth\//.test(new URL(r.url()).pathname)) return;
    r.text().then(
      (text) => bodies.push(text),
      () => undefined,
    );
  });
  return bodies;
}

/** Holds back the answers to the requests matching `url` until `release()`, counting the requests. */
async function holdBack(page: Page, url: string | RegExp): Promise<{ readonly calls: number; release: () => void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = { calls: 0, release };
  await page.route(url, async (route) => {
    hold.calls += 1;
    await held;
    await route.continue();
  });
  return hold;
}

async function openLogin(page: Page): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.locator('#login-submit').waitFor();
  await page.waitForLoadState('networkidle');
}

describe('the login page first load', () => {
  it('brings neither charts nor maps, and only English for an English browser', async () => {
    await withBrowser('en-US', async ({ page }) => {
      const bodies = recordBodies(page);
      await openLogin(page);
      await expect.poll(() => bodies.some((b) => b.includes(EN_TEXT))).toBe(true);
      expect(await page.getByTestId('product-title').textContent()).toBe(en['app.title']);
      expect(bodies.filter((b) => b.includes(LEAFLET))).toHaveLength(0);
      expect(bodies.filter((b) => b.includes(ECHARTS))).toHaveLength(0);
      expect(bodies.filter((b) => b.includes(ZH_TEXT))).toHaveLength(0);
      expect(bodies.filter((b) => b.includes(CONSOLE_TEXT))).toHaveLength(0);
      expect(bodies.filter((b) => b.includes(ZOD))).toHaveLength(0);

      // Chinese is fetched on the switch, and the page speaks it without a raw key in between.
      await page.getByTestId('lang-zh').click();
      await expect.poll(() => page.getByTestId('product-title').textContent()).toBe(zh['app.title']);
      // The body is read from the response after the page has it: wait for the read too.
      await expect.poll(() => bodies.some((b) => b.includes(ZH_TEXT))).toBe(true);
      expect(await page.locator('#login-submit').textContent()).toContain(zh['login.submit'] ?? '');
      expect(await page.locator('body').innerText()).not.toMatch(/\b(app|login|lang|common)\.[a-zA-Z]+/);
    });
  });

  it('brings only Chinese for a Chinese browser', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      const bodies = recordBodies(page);
      await openLogin(page);
      await expect.poll(() => bodies.some((b) => b.includes(ZH_TEXT))).toBe(true);
      expect(await page.getByTestId('product-title').textContent()).toBe(zh['app.title']);
      expect(bodies.filter((b) => b.includes(EN_TEXT))).toHaveLength(0);
      expect(bodies.filter((b) => b.includes(LEAFLET) || b.includes(ECHARTS))).toHaveLength(0);
    });
  });

  it('brings the console messages with the console, before it shows, in both languages', async () => {
    await withBrowser('en-US', async ({ page }) => {
      const bodies = recordBodies(page);
      await signInAs(page, server);
      await page.getByTestId('console-layout').waitFor();
      await expect.poll(() => bodies.some((b) => b.includes(CONSOLE_TEXT))).toBe(true);
      await expect.poll(() => page.locator('body').innerText()).toContain(en['monitor.status.shutdown']);
      expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
      // Chinese in the console: both parts of it come before the switch shows.
      await page.locator('[data-testid=lang-zh]').click();
      await expect.poll(() => page.locator('body').innerText()).toContain(zh['monitor.status.shutdown']);
      expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
      expect(await page.getByTestId('page-title').textContent()).not.toMatch(RAW_KEY);
    });
  });

  it('asks for the code of the screen a console address names at once, beside the menu, and for the menu once', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signInAs(page, server);
      await page.getByTestId('console-layout').waitFor();
      // The menu's answer is held back on the next load: the view host waits for it before it
      // shows a screen, but the screen's code must be on its way already (app/router.tsx).
      const menu = await holdBack(page, '**/iot-cloud-auth/menu/v1/loadMenu');
      const screenAsked = page.waitForRequest((r) => /\/alarm-query-page-[^/]*\.js$/.test(new URL(r.url()).pathname));
      await page.goto(`${server.url}/view/alarm/query`, { waitUntil: 'commit' });
      await screenAsked;
      await expect.poll(() => menu.calls).toBe(1);
      menu.release();
      await expect.poll(() => page.locator('body').innerText()).toContain(en['alarm.col.deviceName']);
      await page.waitForLoadState('networkidle');
      // The frame read the menu the page had asked for: one call.
      expect(menu.calls).toBe(1);
      expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
    });
  });

  it('asks for the menu before the frame has its code, and draws the navigation before the screen', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signInAs(page, server);
      await page.getByTestId('console-layout').waitFor();
      // The frame's code is held back on the next load: the menu is asked for meanwhile (the
      // frame used to ask for it only once it had rendered, app/router.tsx).
      const frame = await holdBack(page, /\/assets\/console-[^/]*\.js$/);
      // Whenever the page changes: is the menu there, is the screen there.
      await page.addInitScript(() => {
        const seen: { menu: boolean; screen: boolean }[] = [];
        (window as unknown as { drawn: typeof seen }).drawn = seen;
        new MutationObserver(() => {
          const menu = !!document.querySelector('.ant-menu-title-content');
          const screen = !!document.querySelector('[data-testid=screen-title]');
          if (menu || screen) seen.push({ menu, screen });
        }).observe(document, { subtree: true, childList: true });
      });
      const menuAsked = page.waitForRequest((r) => r.url().endsWith('/iot-cloud-auth/menu/v1/loadMenu'));
      await page.goto(`${server.url}/view/alarm/query`, { waitUntil: 'commit' });
      await menuAsked;
      frame.release();
      await page.getByTestId('screen-title').waitFor();
      // The navigation was drawn (and painted) on its own first; the screen came after it.
      const drawn = await page.evaluate(() => (window as unknown as { drawn: { menu: boolean; screen: boolean }[] }).drawn);
      expect(drawn[0]).toEqual({ menu: true, screen: false });
      expect(drawn.at(-1)).toEqual({ menu: true, screen: true });
    });
  });

  it('draws the charts of the alarm query as images from the server, and brings the chart library only when the pointer comes onto one', async () => {
    const db = server.app.database.db;
    await seedDemoFleet(db);
    const [device] = await demoDevices(db);
    await withBrowser('en-US', async ({ page }) => {
      const bodies = recordBodies(page);
      await signInAs(page, server, 'demo', DEMO_PASSWORD);
      await page.goto(`${server.url}/view/alarm/query`);
      // No alarm in the period: the three statistics say so.
      await expect.poll(() => page.getByText(en['alarm.stats.none']!).count()).toBe(3);

      // An alarm of the demo organisation in the period: the screen opened again shows its charts
      // as images (drawn by the server, with what they show in words), and ECharts is not fetched.
      const [level] = await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, device!.orgId));
      const at = new Date(Date.now() - 3_600_000);
      await db.insert(alarms).values({ orgId: device!.orgId, policyName: 'Cold chain', ruleId: 'r1', type: 'temp_high', levelId: level!.id, deviceRef: device!.id, status: 'active', startedAt: at, lastAt: at, threshold: 8, value: 9.3, peak: 10 });
      await page.reload();
      const ring = page.getByTestId('alarm-chart-level-image');
      await ring.waitFor();
      expect(await ring.getAttribute('alt')).toBe(`${en['alarm.stats.byLevel']}: 1 ${level!.nameEn}`);
      // The image is drawn: a real picture of the chart's size, not a broken one.
      await expect.poll(() => ring.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
      await page.getByTestId('alarm-chart-type-image').waitFor();
      await page.getByTestId('alarm-chart-time-image').waitFor();
      await page.waitForLoadState('networkidle');
      expect(bodies.filter((b) => b.includes(ECHARTS))).toHaveLength(0);

      // The pointer on the ring: the live chart takes its place, and shows its tooltip.
      await page.getByTestId('alarm-chart-level').hover();
      await page.getByTestId('alarm-chart-level-live').locator('canvas').waitFor();
      await expect.poll(() => bodies.some((b) => b.includes(ECHARTS))).toBe(true);
      const box = (await page.getByTestId('alarm-chart-level-live').boundingBox())!;
      // Onto the ring itself (its one slice goes all the way round): the tip names the level.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.4 - box.height * 0.45 * 0.45);
      await expect.poll(() => page.locator('body').innerText()).toContain(`${level!.nameEn}: 1`);
    });
  });

  it('brings the messages of a screen with it and not those of the others, in both languages on a switch there', async () => {
    await withBrowser('en-US', async ({ page }) => {
      const bodies = recordBodies(page);
      await signInAs(page, server);
      await page.getByTestId('console-layout').waitFor();
      await page.waitForLoadState('networkidle');
      expect(bodies.filter((b) => b.includes(ALARM_TEXT))).toHaveLength(0);
      await page.goto(`${server.url}/view/alarm/query`);
      await expect.poll(() => page.locator('body').innerText()).toContain(en['alarm.col.deviceName']);
      await page.waitForLoadState('networkidle');
      expect(bodies.some((b) => b.includes(ALARM_TEXT))).toBe(true);
      expect(bodies.filter((b) => b.includes(COCKPIT_TEXT))).toHaveLength(0);
      expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
      await screenshot(page, 'locale-parts-alarm-query-en');
      // Chinese comes with the frame's and this screen's parts before the switch shows.
      await page.locator('[data-testid=lang-zh]').click();
      await expect.poll(() => page.locator('body').innerText()).toContain(zh['alarm.col.deviceName']);
      expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
      await screenshot(page, 'locale-parts-alarm-query-zh');
      // A screen opened now brings its part in Chinese.
      await page.goto(`${server.url}/view/cockpit/index`);
      await expect.poll(() => page.locator('body').innerText()).toContain(zh['cockpit.title']);
      expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
    });
  });
});
