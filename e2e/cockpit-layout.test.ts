// Browser test of the cockpit's words and layout at the screen sizes people use (1920 x 1080,
// 1440 x 900, 1280 x 720), in zh-CN and en-US, with whatever fonts the machine has (with
// fonts-noto-cjk, Chinese and the digits beside it are drawn wider than with a fallback font).
// In English no place name reads in Chinese: the province table, the map's region names and
// its tooltip come from the province dictionary (code, Chinese and English names). Every KPI
// card shows its label, value and line below in full: no element of it is wider than itself,
// and each lies inside its card. Screenshots with E2E_SHOTS set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoDevices, rekey, seedDemoFleet } from '../apps/server/src/demo/seed-demo.ts';
import { DEMO_PASSWORD, screenshot, signInAs, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;

const HAN = /\p{Script=Han}/u;

beforeAll(async () => {
  server = await startServer();
  await seedDemoFleet(server.app.database.db);
  const trucks = (await demoDevices(server.app.database.db)).filter((d) => d.kind === 'vehicle');
  const secrets = await rekey(server.app.database.db, trucks.map((t) => t.id));
  // Trucks in Shanghai, Jiangsu and Guangdong; a six-digit-ish reading count for wide KPI numbers.
  const places: [number, number][] = [
    [31.23, 121.47],
    [31.3, 120.59],
    [23.13, 113.26],
  ];
  for (const [i, [lat, lon]] of places.entries()) {
    const d = trucks[i]!;
    const res = await fetch(`${server.url}/api/iot/v2/device/report`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${d.deviceId}:${secrets.get(d.id)!}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: d.deviceId, time: new Date().toISOString(), lat, lon, speed: 50, extraData: '{"1":{"batval":900},"3":{"temp":50}}' }),
    });
    expect(res.status, await res.text()).toBe(200);
  }
});
afterAll(async () => {
  await server.close();
});

async function openCockpit(page: Page) {
  await page.goto(`${server.url}/view/cockpit/index`);
  await page.locator('[data-testid=cockpit]').waitFor();
  await expect.poll(async () => Number(await page.locator('[data-testid=cockpit-map-state]').getAttribute('data-vehicles')), { timeout: 15_000 }).toBe(3);
  await page.locator('[data-testid=kpi-value-assets]').waitFor();
  await page.locator('[data-testid=cockpit-provinces]').waitFor();
  await page.locator('[data-testid=cockpit-map] canvas').first().waitFor();
}

/** KPI cards whose text does not show in full: an element wider (or taller) than itself, or outside its card. */
async function clippedKpis(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const cards = Array.from(document.querySelectorAll<HTMLElement>('.cockpit-kpi'));
    for (const card of cards) {
      const box = card.getBoundingClientRect();
      const id = card.dataset.testid ?? '?';
      if (card.scrollWidth > card.clientWidth || card.scrollHeight > card.clientHeight) out.push(`${id}: card content ${card.scrollWidth}x${card.scrollHeight} > ${card.clientWidth}x${card.clientHeight}`);
      for (const el of Array.from(card.querySelectorAll<HTMLElement>('*'))) {
        const r = el.getBoundingClientRect();
        const what = `${id} ${el.className || el.tagName} "${el.textContent}"`;
        if (getComputedStyle(el).display !== 'inline') {
          if (el.scrollWidth > el.clientWidth) out.push(`${what}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
          // Taller glyph boxes than the line box (a CJK font's metrics in a fixed line height).
          if (el.scrollHeight > el.clientHeight) out.push(`${what}: scrollHeight ${el.scrollHeight} > clientHeight ${el.clientHeight}`);
        }
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
          out.push(`${what}: [${r.left.toFixed(1)}, ${r.right.toFixed(1)}] x [${r.top.toFixed(1)}, ${r.bottom.toFixed(1)}] outside the card [${box.left.toFixed(1)}, ${box.right.toFixed(1)}] x [${box.top.toFixed(1)}, ${box.bottom.toFixed(1)}]`);
      }
    }
    return { cards: cards.length, out };
  });
}

/** Two KPI texts of one card that overlap. */
async function overlapping(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const card of Array.from(document.querySelectorAll<HTMLElement>('.cockpit-kpi'))) {
      const parts = Array.from(card.children).map((el) => el.getBoundingClientRect());
      for (let i = 1; i < parts.length; i++) if (parts[i]!.top < parts[i - 1]!.bottom - 0.5) out.push(`${card.dataset.testid} part ${i}`);
    }
    return out;
  });
}

describe.each([
  ['zh-CN', { shanghai: '上海', jiangsu: '江苏' }],
  ['en-US', { shanghai: 'Shanghai', jiangsu: 'Jiangsu' }],
] as const)('cockpit in %s', (locale, names) => {
  it('shows place names in the language and every KPI in full at 1920, 1440 and 1280 px', async () => {
    await withBrowser(locale, async ({ page }) => {
      await page.setViewportSize({ width: 1920, height: 1080 });
      await signInAs(page, server, 'demo', DEMO_PASSWORD);
      for (const [width, height] of [
        [1920, 1080],
        [1440, 900],
        [1280, 720],
      ] as const) {
        await page.setViewportSize({ width, height });
        await openCockpit(page);
        // The province table: rows keyed by the province's code, names in the language.
        await expect.poll(() => page.locator('[data-testid=cockpit-provinces] tr[data-province="310000"] td').first().textContent(), { timeout: 10_000 }).toBe(names.shanghai);
        expect(await page.locator('[data-testid=cockpit-provinces] tr[data-province="320000"] td').first().textContent()).toBe(names.jiangsu);
        const cells = await page.locator('[data-testid=cockpit-provinces] td:first-child').allTextContents();
        expect(cells.length).toBeGreaterThanOrEqual(3);
        // The map's region names (what its labels and tooltip show).
        const regionNames = JSON.parse((await page.locator('[data-testid=cockpit-map-state]').getAttribute('data-region-names')) ?? '[]') as string[];
        expect(regionNames.length).toBeGreaterThan(30);
        expect(regionNames).toContain(names.shanghai);
        if (locale === 'en-US') {
          expect(cells.filter((c) => HAN.test(c))).toEqual([]);
          expect(regionNames.filter((c) => HAN.test(c))).toEqual([]);
        }
        // The KPIs: every text in full, nothing over another.
        await page.waitForTimeout(300); // the root font follows the window on the next frame
        await expect.poll(async () => (await clippedKpis(page)).out, { timeout: 5_000 }).toEqual([]);
        expect((await clippedKpis(page)).cards).toBe(4);
        expect(await overlapping(page)).toEqual([]);
        await screenshot(page, `cockpit-layout-${locale}-${width}`);
      }

      // The map's tooltip over China's middle names its province in the language.
      await page.setViewportSize({ width: 1920, height: 1080 });
      await openCockpit(page);
      const canvas = page.locator('[data-testid=cockpit-map]');
      const box = (await canvas.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.5);
      // One move onto the map: its first also fetches the tooltip's piece (components/chart/
      // echart.tsx), which must then show for that move, not wait for the next.
      const tip = page.locator('[data-testid=cockpit-map] > div').filter({ hasText: /:/ }).last();
      const shown = () => tip.evaluate((el) => getComputedStyle(el).visibility !== 'hidden' && getComputedStyle(el).opacity !== '0' && (el.textContent ?? '')).catch(() => '');
      await expect.poll(shown, { timeout: 10_000 }).toMatch(/\S/);
      const text = (await tip.textContent()) ?? '';
      if (locale === 'en-US') expect(text).not.toMatch(HAN);
      else expect(text).toMatch(HAN);
      await screenshot(page, `cockpit-layout-tooltip-${locale}`);
    });
  });
});
