// Browser test of the main list tables at 1280 x 800 (issue 21, item 7), in both languages: with
// its default columns each table fits its place on the page (no sideways scrolling; what does not
// fit is behind custom columns), and every date-time cell shows YYYY-MM-DD HH:mm:ss in full, its
// seconds neither cut nor behind an ellipsis. The demo organisation's fleet, a few hours of its
// readings, its transport tasks and warehouse records give the tables their rows; one hot reading
// with a low battery from every device opens alarms and faults, a push rule mails them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { Page as Paged } from '@iotc/shared/envelope';
import { rekey } from '../apps/server/src/demo/seed-demo.ts';
import { storeBackfill } from '../apps/server/src/sim/demo.ts';
import { apiCall, apiToken, screenshot, seedDemoData, signInAs, startServer, withBrowser, type Server } from './harness.ts';

/**
 * The main tables: the screen's address and the id its DataTable carries (a prefix: some add the
 * user's id). The transport alarms share the real-time alarms' columns (and the task column).
 */
const SCREENS: { path: string; table: string }[] = [
  { path: '/view/deviceManage/realTimeMonitoring', table: 'monitor' },
  { path: '/view/deviceManage/devices', table: 'devices' },
  { path: '/view/deviceManage/jt808Models', table: 'jt808-models' },
  { path: '/view/asset/vehicles', table: 'assets-vehicle' },
  { path: '/view/asset/containers', table: 'assets-container' },
  { path: '/view/asset/coldChain', table: 'assets-warehouse' },
  { path: '/view/asset/remoteControl', table: 'remote-control' },
  { path: '/view/alarm/realtime', table: 'alarm-realtime' },
  { path: '/view/alarm/query', table: 'alarm-query' },
  { path: '/view/alarm/policy', table: 'alarm-policies' },
  { path: '/view/alarm/levels', table: 'alarm-levels' },
  { path: '/view/alarm/push', table: 'push-rules' },
  { path: '/view/alarm/flow', table: 'alarm-flow' },
  { path: '/view/alarm/workOrders', table: 'work-orders' },
  { path: '/view/transport/tasks?type=101', table: 'transport-tasks' },
  { path: '/view/transport/templates?type=101', table: 'transport-templates' },
  { path: '/view/warehouse/manage', table: 'warehouse-records' },
  { path: '/view/fault/list', table: 'faults' },
  { path: '/view/system/users', table: 'users' },
  { path: '/view/system/roles', table: 'roles' },
  { path: '/view/system/auditLogs', table: 'audit-logs' },
  { path: '/view/system/outbox', table: 'outbox' },
  { path: '/view/system/storage', table: 'storage' },
];

let server: Server;
let token: string;
const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

beforeAll(async () => {
  server = await startServer();
  const db = server.app.database.db;
  // As the demo's start does: tasks first, a few past hours, the warehouse records.
  const fleet = await seedDemoData(server, {
    warehouse: true,
    beforeWarehouse: async (f) => {
      await storeBackfill(f, { intake: server.app.intake, items: server.app.jt808Models }, { hours: 4, stepMs: 600_000, now: Date.now() });
      await server.app.readings.flushed();
    },
  });
  token = await apiToken(server);
  const demoOrg = fleet[0]!.orgId;
  await api('POST', '/api/iot/v2/push-rules', {
    name: 'Duty mail',
    orgId: demoOrg,
    language: 'en',
    timezone: 'Asia/Shanghai',
    steps: [{ afterMinutes: 0, channels: ['email'], emails: ['duty@example.com'] }],
  });

  // One reading now from each device: 40 °C and 12 % battery (the demo's policies alarm, the fault detector notes a low battery).
  const secrets = await rekey(db, fleet.map((d) => d.id));
  for (const d of fleet) {
    const report = await server.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${d.deviceId}:${secrets.get(d.id)!}`).toString('base64')}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ deviceId: d.deviceId, time: new Date().toISOString(), lat: 31.2, lon: 121.4, extraData: '{"1":{"batval":120},"3":{"temp":400,"humidity":500}}' }),
    });
    expect(report.statusCode).toBe(200);
  }
  // Alarms open as the readings are processed: wait for them (expect.poll belongs to tests, not hooks).
  let alarms = await api<Paged<AlarmRow>>('GET', '/api/iot/v2/alarms?size=3');
  for (const until = Date.now() + 30_000; alarms.total === 0 && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 200));
    alarms = await api<Paged<AlarmRow>>('GET', '/api/iot/v2/alarms?size=3');
  }
  expect(alarms.total).toBeGreaterThan(0);
  await api('POST', '/api/iot/v2/work-orders', { title: 'Reefer too warm: check the cooling unit', priority: 'high', alarmIds: alarms.rows.map((a) => a.id), dueAt: new Date(Date.now() + 86_400_000).toISOString() });
  await api('POST', '/api/iot/v2/commands', { deviceRef: fleet[0]!.id, kind: 'lock', params: {}, remark: 'Hold the door' });
}, 600_000);
afterAll(async () => {
  await server?.close();
});

interface Fit {
  table: string | null;
  /** Widths of the table's content and of the place it has. */
  content: number;
  room: number;
  pageScroll: number;
  viewport: number;
  dateCells: number;
  /** Date-time cells whose text does not show in full, or (a date-time alone) not on one line. */
  clipped: string[];
}

/** Measures the visible DataTable whose id starts with `id`. */
function measure(page: Page, id: string): Promise<Fit> {
  return page.evaluate((prefix) => {
    const table = Array.from(document.querySelectorAll<HTMLElement>('[data-testid=data-table]')).find((t) => t.offsetParent !== null && (t.dataset.tableId ?? '').startsWith(prefix))!;
    const room = table.querySelector<HTMLElement>('.ant-table-container')!;
    const scroller = table.querySelector<HTMLElement>('.ant-table-content, .ant-table-body') ?? room;
    const grid = table.querySelector<HTMLElement>('.ant-table-container table')!;
    const DATE_TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;
    // Cells that hold a date-time, alone or with a few words (who, '(auto)', 'Overdue'); not a message that quotes one.
    const cells = Array.from(table.querySelectorAll<HTMLElement>('.ant-table-tbody td')).filter((td) => {
      const text = td.textContent ?? '';
      return DATE_TIME.test(text) && text.replace(DATE_TIME, '').trim().length <= 24;
    });
    const clipped = cells
      .filter((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const text = range.getBoundingClientRect();
        const box = td.getBoundingClientRect();
        const style = getComputedStyle(td);
        const inner = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
        const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
        const alone = /^\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\s*$/.test(td.textContent ?? '');
        return text.right > inner + 1 || text.left < box.left || (alone && lines > 1);
      })
      .map((td) => td.textContent ?? '');
    return {
      table: table.dataset.tableId ?? null,
      content: Math.max(scroller.scrollWidth, Math.ceil(grid.getBoundingClientRect().width)),
      room: Math.floor(room.getBoundingClientRect().width),
      pageScroll: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      dateCells: cells.length,
      clipped,
    };
  }, id);
}

describe.each(['en-US', 'zh-CN'] as const)('the main tables at 1280 px in %s', (locale) => {
  it('fit the page with their default columns, and show every date and time in full', async () => {
    await withBrowser(locale, async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInAs(page, server);
      const misfits: string[] = [];
      let dateCells = 0;
      for (const screen of SCREENS) {
        await page.goto(server.url + screen.path);
        const rows = page.locator(`[data-testid=data-table][data-table-id^="${screen.table}"] .ant-table-tbody tr.ant-table-row`);
        await expect.poll(() => rows.count(), { timeout: 20_000, message: `${screen.path} lists rows` }).toBeGreaterThan(0);
        const fit = await measure(page, screen.table);
        await rows.first().scrollIntoViewIfNeeded();
        await screenshot(page, `table-fit-${locale}-${screen.table}`);
        dateCells += fit.dateCells;
        if (fit.content > fit.room + 1) misfits.push(`${screen.path}: ${fit.table} is ${fit.content} px wide in ${fit.room} px`);
        if (fit.pageScroll > fit.viewport) misfits.push(`${screen.path}: the page scrolls sideways (${fit.pageScroll} px in ${fit.viewport} px)`);
        for (const text of fit.clipped) misfits.push(`${screen.path}: date cell "${text}" is cut or wrapped`);
      }
      expect(misfits).toEqual([]);
      // The check above looked at dates: the tables hold some.
      expect(dateCells).toBeGreaterThan(20);
    });
  }, 600_000);
});
