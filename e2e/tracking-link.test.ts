// Browser test of a consignee's tracking link (issue 26) on the real server, in zh-CN and en-US:
// the link is made from the task's details in the console (90 days offered, 7 picked), shown once
// with copy; it opens in a fresh browser never signed in, with the task's status, ETA, position
// map and temperature curve, in the browser's language and after the page's language switch,
// loading no console chunk; revoked from the dialog's list after a confirmation, the same address
// then says it was revoked, an expired one that it expired, and an unknown one that it is not valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TaskDetail } from '@iotc/shared/transport';
import { TRACKING_API, type TrackingLinkAnswer } from '@iotc/shared/transport-tracking';
import { transportTasks, transportTrackingLinks } from '../apps/server/src/db/schema.ts';
import { ADMIN_PASSWORD, apiCall, screenshot, startServer, withBrowser, type Server } from './harness.ts';

const DAY = 86_400_000;
let server: Server;
let token: string;
let device: DeviceWithSecret;
let task: TaskDetail;

const db = () => server.app.database.db;
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;

/** One report of the device over HTTP, `ago` ms before now. */
async function report(r: { lat: number; lon: number; temp: number; ago: number }) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(device), 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: device.deviceId, time: new Date(Date.now() - r.ago).toISOString(), lat: r.lat, lon: r.lon, speed: 55, extraData: JSON.stringify({ 3: { temp: Math.round(r.temp * 10) } }) }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

const TEXT = {
  'zh-CN': { title: '货物运输跟踪', status: '在途', revoked: '此跟踪链接已被撤销', expired: '此跟踪链接已过期', invalid: '此跟踪链接无效', activeTag: '有效', revokedTag: '已撤销', eta: '预计到达时间' },
  'en-US': { title: 'Shipment tracking', status: 'In transit', revoked: 'This tracking link was revoked', expired: 'This tracking link has expired', invalid: 'This tracking link is not valid', activeTag: 'Active', revokedTag: 'Revoked', eta: 'Estimated arrival' },
} as const;
const OTHER = { 'zh-CN': 'en-US', 'en-US': 'zh-CN' } as const;

async function signIn(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill('admin');
  await page.locator('#password').fill(ADMIN_PASSWORD);
  await page.locator('#login-submit').click();
  await page.waitForURL((u) => u.pathname.startsWith('/view'));
}

/** Waits until the last element of `selector` has finished its opening motion. */
async function shown(page: Page, selector: string) {
  await page.locator(selector).last().waitFor();
  await page.waitForFunction((sel) => {
    const all = document.querySelectorAll(sel);
    const el = all[all.length - 1] as HTMLElement | undefined;
    return !!el && el.getAnimations({ subtree: true }).length === 0 && getComputedStyle(el).opacity === '1';
  }, selector);
}

/** Opens the task's tracking dialog from its details. */
async function openDialog(page: Page) {
  await page.goto(`${server.url}/view/transport/tasks?id=${task.id}`);
  await page.locator('[data-testid=tt-detail-tracking]').click();
  await shown(page, '.ant-modal');
  await page.locator('[data-testid=tracking-expiry]').waitFor();
}

const linkRows = (page: Page) => page.locator('[data-testid=tracking-links] tbody tr.ant-table-row');

beforeAll(async () => {
  server = await startServer();
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;
  device = await apiCall<DeviceWithSecret>(server, token, 'POST', '/api/iot/v2/devices', { deviceId: 'TRACKLINK01', name: 'Reefer tracker TL' });
  task = await apiCall<TaskDetail>(server, token, 'POST', '/api/iot/v2/transport-tasks', {
    goodsName: 'Vaccines TL',
    deviceIds: [device.id],
    origin: { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 },
    destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
    plannedStart: new Date(Date.now() - 3_600_000).toISOString(),
    plannedArrival: new Date(Date.now() + 3_600_000).toISOString(),
  });
  await apiCall(server, token, 'POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, { to: 'in_transit', note: '' });
  // Started an hour ago, the agreed range 2 ~ 8 °C; a reading every five minutes since, moving towards Hangzhou.
  await db()
    .update(transportTasks)
    .set({ startedAt: new Date(Date.now() - 3_600_000), settings: sql`${transportTasks.settings} || '{"tempMin": 2, "tempMax": 8}'::jsonb` })
    .where(eq(transportTasks.id, task.id));
  for (let i = 0; i < 12; i++) await report({ lat: 31.1 - i * 0.04, lon: 121.3 - i * 0.05, temp: 4 + Math.sin(i / 2) * 2, ago: (12 - i) * 290_000 });
  await server.app.readings.flushed();
});

afterAll(async () => {
  await server?.close();
});

describe('consignee tracking link', { timeout: 180_000 }, () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    it(`is made in the console, opens without login, and ends when revoked (${locale})`, async () => {
      const text = TEXT[locale];
      let url = '';
      await withBrowser(locale, async ({ page }) => {
        await signIn(page);
        await openDialog(page);
        expect(await page.locator('[data-testid=tracking-expiry] input:checked').getAttribute('value')).toBe('90');
        await screenshot(page, `tracking-dialog-${locale}`);
        await page.locator('[data-testid=tracking-expiry] label:has(input[value="7"])').click();
        await expect.poll(() => page.locator('[data-testid=tracking-expiry] input:checked').getAttribute('value')).toBe('7');
        const before = Date.now();
        await page.locator('[data-testid=tracking-create]').click();
        await expect.poll(() => page.locator('[data-testid=tracking-url]').inputValue()).toMatch(/\/track\/[\w-]{20,}$/);
        url = await page.locator('[data-testid=tracking-url]').inputValue();
        expect(url.startsWith(server.url)).toBe(true);
        // Listed at once, active, without its address.
        await expect.poll(() => linkRows(page).first().locator('[data-testid=tracking-link-status]').textContent()).toBe(text.activeTag);
        expect(await page.locator('[data-testid=tracking-links]').textContent()).not.toContain(url.split('/track/')[1]);
        await screenshot(page, `tracking-dialog-made-${locale}`);
        const [made] = await db().select().from(transportTrackingLinks).where(eq(transportTrackingLinks.taskId, task.id)).orderBy(sql`${transportTrackingLinks.createdAt} desc`).limit(1);
        expect(made!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
        expect(made!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY);
      });

      // The public page in a fresh browser, never signed in: no console chunk comes down.
      await withBrowser(locale, async ({ page }) => {
        const scripts: string[] = [];
        page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
        await page.goto(url);
        await page.locator('[data-testid=tracking-status][data-status=in_transit]').waitFor();
        expect(page.url()).toBe(url);
        expect(await page.locator('[data-testid=screen-title]').textContent()).toBe(text.title);
        expect(await page.locator('[data-testid=tracking-status]').textContent()).toBe(text.status);
        expect(await page.locator('[data-testid=tracking-subject]').textContent()).toContain(task.code);
        expect(await page.locator('[data-testid=tracking-facts]').textContent()).toContain(text.eta);
        expect(await page.locator('[data-testid=tracking-eta]').textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
        await page.locator('[data-testid=tracking-curve] canvas').waitFor();
        await page.locator('[data-testid=tracking-map] .leaflet-container, [data-testid=tracking-map].leaflet-container').first().waitFor();
        const body = (await page.locator('body').textContent())!;
        expect(body).not.toContain('TRACKLINK01');
        expect(body).not.toContain('Reefer tracker TL');
        await screenshot(page, `tracking-public-${locale}`);
        expect(scripts.filter((s) => /\/assets\/console-/.test(s))).toEqual([]);
        // The page's own language switch.
        const other = TEXT[OTHER[locale]];
        await page.locator(locale === 'zh-CN' ? '[data-testid=lang-en]' : '[data-testid=lang-zh]').click();
        await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe(other.title);
        expect(await page.locator('[data-testid=tracking-status]').textContent()).toBe(other.status);
        await page.locator('[data-testid=tracking-curve] canvas').waitFor();
        await screenshot(page, `tracking-public-switched-${locale}`);
        expect(scripts.filter((s) => /\/assets\/console-/.test(s))).toEqual([]);
      });

      // Revoked from the dialog's list, behind a confirmation.
      await withBrowser(locale, async ({ page }) => {
        await signIn(page);
        await openDialog(page);
        const row = linkRows(page).first();
        await row.waitFor();
        await row.locator('[data-testid=tracking-link-revoke]').click();
        await shown(page, '.confirm-dialog');
        await screenshot(page, `tracking-revoke-${locale}`);
        await page.locator('.confirm-dialog .ant-btn-dangerous').click();
        await expect.poll(() => linkRows(page).first().locator('[data-testid=tracking-link-status]').textContent()).toBe(text.revokedTag);
        await page.locator('.confirm-dialog').waitFor({ state: 'detached' });
        expect(await linkRows(page).first().locator('[data-testid=tracking-link-revoke]').count()).toBe(0);
      });

      // An expired one (set in the database: the clock is not waited for).
      const expired = await apiCall<TrackingLinkAnswer>(server, token, 'POST', TRACKING_API.taskLinks(task.id), { expiresInDays: 1 });
      await db().update(transportTrackingLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(transportTrackingLinks.id, expired.id));

      await withBrowser(locale, async ({ page }) => {
        await page.goto(url);
        await page.locator('[data-testid=tracking-ended][data-reason=revoked]').waitFor();
        expect(await page.locator('[data-testid=tracking-ended]').textContent()).toContain(text.revoked);
        expect(await page.locator('[data-testid=tracking-status]').count()).toBe(0);
        await screenshot(page, `tracking-public-revoked-${locale}`);
        await page.goto(`${server.url}${expired.url}`);
        await page.locator('[data-testid=tracking-ended][data-reason=expired]').waitFor();
        expect(await page.locator('[data-testid=tracking-ended]').textContent()).toContain(text.expired);
        await page.goto(`${server.url}/track/${'x'.repeat(43)}`);
        await page.locator('[data-testid=tracking-ended][data-reason=invalid]').waitFor();
        expect(await page.locator('[data-testid=tracking-ended]').textContent()).toContain(text.invalid);
      });
    });
  }
});
