// Browser tests of what a newcomer tripped over (issue 21, items 4, 5 and 8), in both languages:
// the spec's 'lastweekdate' on the home alerts and the real-time alarms (earlier days disabled);
// the report tables paged as section 9 says (10 a page, 10/50/100, total, sizes, jumper); the
// bind page without external sign-in saying it is not configured; the home counting vehicles;
// the transport scenario's monitoring listing its own devices; My Services' way back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import dayjs from 'dayjs';
import type { AlarmRow, LevelRow } from '@iotc/shared/alarm';
import type { Page as Paged } from '@iotc/shared/envelope';
import { demoDevices, rekey, seedDemoFleet } from '../apps/server/src/demo/seed-demo.ts';
import { ADMIN_PASSWORD, apiCall, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
  // The demo fleet: 3 warehouses' probes, 8 trucks, 4 containers (21 devices), none reporting.
  await seedDemoFleet(server.app.database.db);
});

/** One reading now from each device of the fleet (4.0 °C, 100 km on the odometer). */
async function reportOnce(): Promise<void> {
  const fleet = await demoDevices(server.app.database.db);
  const secrets = await rekey(server.app.database.db, fleet.map((d) => d.id));
  for (const d of fleet) {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${d.deviceId}:${secrets.get(d.id)!}`).toString('base64')}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ deviceId: d.deviceId, time: new Date().toISOString(), lat: 31.2, lon: 121.4, extraData: '{"3":{"temp":40},"14":{"mileage":1000}}' }),
    });
    expect(res.statusCode).toBe(200);
  }
}

/**
 * Rows for the three reports, put in once for both languages: the online-rate report lists the
 * fleet's 21 devices and the mileage report its 12 vehicles and containers whatever they
 * reported; for the alarm report a policy of the demo organisation over all its devices
 * (above 2 °C) and one reading of 4 °C from each device open an alarm on each of its 21 assets.
 */
let reportData: Promise<void> | undefined;
function withReportData(): Promise<void> {
  reportData ??= (async () => {
    const login = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
    const token = (login.json() as { data: { token: string } }).data.token;
    const fleet = await demoDevices(server.app.database.db);
    const orgId = fleet[0]!.orgId;
    const levels = await apiCall<Paged<LevelRow>>(server, token, 'GET', '/api/iot/v2/alarm-levels?size=100');
    const urgent = levels.rows.find((l) => l.code === 'urgent' && l.orgId === orgId)!;
    await apiCall(server, token, 'POST', '/api/iot/v2/alarm-policies', { name: 'Newcomer: above 2 °C', orgId, scope: 'all', rules: [{ id: 'warm', type: 'temp_high', threshold: 2, levelId: urgent.id }] });
    await reportOnce();
    await expect
      .poll(async () => (await apiCall<Paged<AlarmRow>>(server, token, 'GET', '/api/iot/v2/alarms?status=active&size=100')).total, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(fleet.length);
  })();
  return reportData;
}
afterAll(async () => {
  await server.close();
});

const LANDING = '/view/deviceManage/realTimeMonitoring';

const TEXT = {
  'en-US': {
    totalOf: (n: number) => `Total ${n} items`,
    perPage: (n: number) => `${n} / page`,
    jumper: 'Go to',
    allVehicles: 'Total vehicles',
    notConfigured: 'External sign-in is not configured',
    back: 'Back to the console',
  },
  'zh-CN': {
    totalOf: (n: number) => `共 ${n} 条`,
    perPage: (n: number) => `${n} 条/页`,
    jumper: '跳至',
    allVehicles: '车辆总数',
    notConfigured: '未配置第三方登录',
    back: '返回控制台',
  },
} as const;

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill('admin');
  await page.locator('#password').fill(ADMIN_PASSWORD);
  await page.locator('#login-submit').click();
  await page.waitForURL(`**${LANDING}`);
}

/** Whether the open picker's day `date` (YYYY-MM-DD) can be picked; earlier months are paged to. */
async function dayDisabled(page: Page, date: string): Promise<boolean> {
  const dropdown = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
  await dropdown.waitFor();
  for (let i = 0; i < 3; i += 1) {
    const cell = dropdown.locator(`td.ant-picker-cell-in-view[title="${date}"]`).first();
    if ((await cell.count()) > 0) return ((await cell.getAttribute('class')) ?? '').includes('ant-picker-cell-disabled');
    await dropdown.locator('.ant-picker-header-prev-btn').first().click();
  }
  throw new Error(`day ${date} not found in the picker`);
}

async function expectLastWeekOnly(page: Page, field: Locator, shot: string): Promise<void> {
  await field.locator('input').first().click();
  const today = dayjs();
  // Today and seven days ago can be picked; the eighth day back and tomorrow cannot.
  expect(await dayDisabled(page, today.format('YYYY-MM-DD'))).toBe(false);
  expect(await dayDisabled(page, today.add(1, 'day').format('YYYY-MM-DD'))).toBe(true);
  expect(await dayDisabled(page, today.subtract(7, 'day').format('YYYY-MM-DD'))).toBe(false);
  expect(await dayDisabled(page, today.subtract(8, 'day').format('YYYY-MM-DD'))).toBe(true);
  await screenshot(page, shot);
  await page.keyboard.press('Escape');
}

describe.each(['en-US', 'zh-CN'] as const)('newcomer (%s)', (locale) => {
  const text = TEXT[locale];

  it('home: counts vehicles, opens them, and its alerts window takes the last week only', async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/view/home/home`);
      await page.locator('[data-testid=home-page]').waitFor();
      // The demo fleet has 8 trucks among its 21 devices: the vehicle card counts the trucks.
      await expect.poll(() => page.locator('[data-testid=home-status-all-count]').textContent()).toBe('8');
      expect(await page.locator('[data-testid=home-status-all]').textContent()).toContain(text.allVehicles);
      await expectLastWeekOnly(page, page.locator('[data-testid=home-alerts-window]'), `newcomer-home-window-${locale}`);
      await page.locator('[data-testid=home-status-unused]').click();
      await page.waitForURL((u) => u.pathname === '/view/scenario_vehicle/deviceManage/realTimeMonitoring' && u.searchParams.get('status') === 'unused');
    });
  });

  it('real-time alarms: the time filter takes the last week only', async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/view/alarm/realtime`);
      await page.locator('[data-testid=alarm-realtime]').waitFor();
      await expectLastWeekOnly(page, page.locator('[data-testid=filter-time]'), `newcomer-alarm-realtime-window-${locale}`);
    });
  });

  it('report tables page by 10 with 10/50/100, the total, sizes, prev, pager, next and jumper', async () => {
    await withReportData();
    // Today's report: the readings and alarms were put in now (the screens open on yesterday).
    const today = dayjs().format('YYYY-MM-DD');
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      for (const [report, total] of [
        ['online', 21],
        ['mileage', 12],
        ['alarm', 21],
      ] as const) {
        await page.goto(`${server.url}/view/report/${report}?period=day&date=${today}`);
        const rows = page.locator('[data-testid=ops-table] .ant-table-tbody tr.ant-table-row');
        // antd puts the test id on the table, the pager beside it in the table's wrapper.
        const pager = page.locator('.ant-table-wrapper:has([data-testid=ops-table]) .ant-pagination').first();
        await expect.poll(() => pager.locator('.ant-pagination-total-text').textContent(), { timeout: 15_000 }).toBe(text.totalOf(total));
        expect(await rows.count()).toBe(10);
        expect(await pager.locator('.ant-pagination-options-size-changer').textContent()).toBe(text.perPage(10));
        expect(await pager.locator('.ant-pagination-options-quick-jumper').textContent()).toContain(text.jumper);
        // Section 9's layout, left to right: total, sizes, prev, pager, next, jumper.
        const parts = ['.ant-pagination-total-text', '.ant-pagination-options-size-changer', '.ant-pagination-prev', '.ant-pagination-item-1', '.ant-pagination-item-2', '.ant-pagination-next', '.ant-pagination-options-quick-jumper'];
        const lefts = await Promise.all(parts.map(async (css) => (await pager.locator(css).boundingBox())!.x));
        expect(lefts).toEqual([...lefts].sort((a, b) => a - b));
        await pager.locator('.ant-pagination-options-size-changer').click();
        const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content');
        await options.first().waitFor();
        expect(await options.allTextContents()).toEqual([10, 50, 100].map(text.perPage));
        await screenshot(page, `newcomer-report-${report}-${locale}`);
        // 50 a page: every row on one page.
        await options.filter({ hasText: text.perPage(50) }).click();
        await expect.poll(() => rows.count()).toBe(total);
        await page.keyboard.press('Escape');
      }
    });
  }, 180_000);

  it('bind page without external sign-in configured says so', async () => {
    await withBrowser(locale, async ({ page }) => {
      await page.goto(`${server.url}/view/login/bindUserPage`);
      await expect.poll(() => page.locator('[data-testid=bind-page]').getAttribute('data-state')).toBe('disabled');
      expect(await page.locator('[data-testid=bind-not-configured]').textContent()).toBe(text.notConfigured);
      expect(await page.locator('[data-testid=bind-expired]').count()).toBe(0);
      await screenshot(page, `newcomer-bind-${locale}`);
    });
  });

  it("transport monitoring lists the transport scenario's devices (vehicles and containers) only", async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      const total = page.locator('[data-testid=data-table] .ant-pagination-total-text');
      await expect.poll(async () => Number((await total.textContent())?.replace(/\D/g, '') ?? 0)).toBeGreaterThanOrEqual(21);
      await page.goto(`${server.url}/view/scenario_transport/deviceManage/realTimeMonitoring?type=101`);
      // 8 trucks and 4 containers, none of the warehouse probes.
      await expect.poll(() => total.textContent()).toBe(text.totalOf(12));
      await screenshot(page, `newcomer-transport-monitoring-${locale}`);
    });
  });

  it('My Services leads back to the console', async () => {
    await withBrowser(locale, async ({ page }) => {
      await signIn(page);
      await page.goto(`${server.url}/view/login/productService`);
      const back = page.locator('[data-testid=services-back]');
      await back.waitFor();
      expect(await back.textContent()).toContain(text.back);
      await screenshot(page, `newcomer-services-${locale}`);
      await back.click();
      await page.waitForURL(`**${LANDING}`);
      await page.locator('[data-testid=screen-title]').waitFor();
    });
  });
});
