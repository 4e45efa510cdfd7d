// Browser tests of the console frame read at the spec's smallest widths (issue 21, item 7), in
// both languages at 1280 and 1440 px: every label of the left navigation, in every scenario's menu
// (types 101 to 104 and the cold-chain warehouse), reads in full, no '...' and nothing clipped;
// and on the online-rate report scrolled under the header bar, no table cell (the fixed device
// column, the header row) draws over the header bar, scrolled across the days or not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seedDemoFleet } from '../apps/server/src/demo/seed-demo.ts';
import { ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
  // The demo fleet: the online-rate report lists its 21 devices.
  await seedDemoFleet(server.app.database.db);
});
afterAll(async () => {
  await server.close();
});

const WIDTHS = [1280, 1440] as const;

/** The scenarios' screens: each opens its type's menu (the warehouse is the device scenario's). */
const SCENARIOS = [
  ['transport', 'view/scenario_transport/deviceManage/realTimeMonitoring?type=101'],
  ['device', 'view/deviceManage/realTimeMonitoring?type=102'],
  ['container', 'view/scenario_container/deviceManage/realTimeMonitoring?type=103'],
  ['vehicle', 'view/scenario_vehicle/deviceManage/realTimeMonitoring?type=104'],
  ['warehouse', 'view/warehouse/manage?type=102'],
] as const;

const TEXT = {
  'en-US': { longest: ['Monitoring and alarm management', 'Operational data comparison', 'Equipment asset management'], transport: 'Abnormal-alarm monitoring and push' },
  'zh-CN': { longest: ['监控告警管理', '运营数据对比', '设备资产管理'], transport: '异常告警监控与推送' },
} as const;

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill('admin');
  await page.locator('#password').fill(ADMIN_PASSWORD);
  await page.locator('#login-submit').click();
  await page.waitForURL('**/view/deviceManage/realTimeMonitoring');
}

/** Opens every group of the navigation (a group's subgroups show once it is open). */
async function openAllGroups(page: Page): Promise<void> {
  const closed = page.locator('[data-testid=nav-menu] .ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  await expect
    .poll(
      async () => {
        const n = await closed.count();
        if (n > 0) await closed.first().click();
        return n;
      },
      { timeout: 30_000 },
    )
    .toBe(0);
}

interface Label {
  text: string;
  /** Cut at the end ('...'), or wider than its entry. */
  cut: boolean;
}

/** Every navigation label with whether it shows in full: its text fits its box, its box fits its entry. */
function readLabels(page: Page): Promise<Label[]> {
  // A string, so that no helper of the test's compiler ends up in the page.
  return page.evaluate(`[...document.querySelectorAll('[data-testid=nav-menu] .ant-menu-title-content')].map((label) => {
    const entry = label.closest('.ant-menu-item, .ant-menu-submenu-title').getBoundingClientRect();
    const box = label.getBoundingClientRect();
    const cut = label.scrollWidth > label.clientWidth || label.scrollHeight > label.clientHeight
      || box.right > entry.right + 0.5 || box.bottom > entry.bottom + 0.5 || box.top < entry.top - 0.5;
    return { text: label.textContent, cut };
  })`);
}

/** Elements at sample points over the header bar that are not part of it (class names). */
function overHeaderBar(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const bar = document.querySelector('.header-bar').getBoundingClientRect();
    const found = [];
    for (let x = bar.left + 4; x < bar.right; x += 16) {
      for (let y = bar.top + 2; y < bar.bottom; y += 8) {
        const at = document.elementFromPoint(x, y);
        if (at && !at.closest('.header-bar')) found.push(at.tagName + '.' + String(at.className));
      }
    }
    return [...new Set(found)];
  })()`);
}

describe.each(['en-US', 'zh-CN'] as const)('readable layout (%s)', (locale) => {
  const text = TEXT[locale];

  it('every navigation label reads in full in every scenario at 1280 and 1440 px', async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        for (const [scenario, url] of SCENARIOS) {
          await page.goto(`${server.url}/${url}`);
          await page.locator('[data-testid=nav-menu]').waitFor();
          await openAllGroups(page);
          // Poll: the groups just opened grow to their height.
          await expect.poll(async () => (await readLabels(page)).filter((l) => l.cut).map((l) => l.text), { timeout: 15_000 }).toEqual([]);
          const labels = (await readLabels(page)).map((l) => l.text);
          expect(labels).toEqual(expect.arrayContaining([...text.longest]));
          if (scenario === 'transport') expect(labels).toContain(text.transport);
          expect(labels.length).toBeGreaterThan(30);
          await screenshot(page, `readable-nav-${scenario}-${width}-${locale}`);
        }
      }
    });
  }, 240_000);

  it('the online-rate report scrolled under the header bar draws no cell over it', async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      for (const width of WIDTHS) {
        // A short window, so that the page scrolls the table under the header bar.
        await page.setViewportSize({ width, height: 500 });
        // A month: a column a day, the device column fixed while they scroll across.
        for (const period of ['day', 'month']) {
          await page.goto(`${server.url}/view/report/online?period=${period}`);
          const table = page.locator('[data-testid=ops-table]');
          await table.locator('.ant-table-row').first().waitFor({ timeout: 15_000 });
          // The table's header row and first rows under the header bar.
          await page.evaluate(`(() => {
            const head = document.querySelector('[data-testid=ops-table] thead').getBoundingClientRect();
            window.scrollTo(0, window.scrollY + head.top - 10);
          })()`);
          await expect.poll(() => page.evaluate(`document.querySelector('[data-testid=ops-table] thead').getBoundingClientRect().top`)).toBeLessThan(20);
          expect(await overHeaderBar(page)).toEqual([]);
          await screenshot(page, `readable-online-scrolled-${period}-${width}-${locale}`);
          if (period === 'month') {
            // Across the days too: the fixed column stays where it was, still under the bar.
            await page.evaluate(`document.querySelector('[data-testid=ops-table] .ant-table-content').scrollLeft = 400`);
            await expect.poll(() => page.evaluate(`document.querySelector('[data-testid=ops-table] .ant-table-content').scrollLeft`)).toBeGreaterThan(0);
            expect(await overHeaderBar(page)).toEqual([]);
            await page.evaluate(`window.scrollBy(0, 80)`);
            expect(await overHeaderBar(page)).toEqual([]);
            await screenshot(page, `readable-online-scrolled-across-${width}-${locale}`);
          }
        }
      }
    });
  }, 180_000);
});
