// The storage screen (issue 24, item 5): the platform administrator opens platform management >
// Storage and sees the platform's figures and the demo organisation's row with its readings, in
// Chinese and in English; the demo organisation's own administrator, who has the other
// management screens, has no Storage entry and is refused the screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { rowsOf } from '../apps/server/src/db/client.ts';
import { archiveTick } from '../apps/server/src/modules/archive/job.ts';
import { takeSnapshot } from '../apps/server/src/modules/storage/job.ts';
import { addOrgUser } from '../apps/server/src/test/fixtures.ts';
import { ORG_ADMIN_ROLE } from '../apps/server/src/db/seed.ts';
import { screenshot, seedDemoData, signInAs, startServer, type Server, withBrowser } from './harness.ts';

const DAY = 86_400_000;
let server: Server;
beforeAll(async () => {
  server = await startServer();
  const fleet = await seedDemoData(server);
  const db = server.app.database.db;
  // Readings of two demo devices, one a minute: yesterday (packed by the archive) and today (rows only).
  const today = Math.floor(Date.now() / DAY) * DAY;
  for (const d of fleet.slice(0, 2)) {
    await db.execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, positioning, speed, raw, sensors)
      select d.org_id, d.id, ${new Date(today - DAY).toISOString()}::timestamptz + make_interval(mins => g), now() - interval '10 minutes',
        31 + g / 10000.0, 121 + g / 10000.0, 'GPS', g % 60, jsonb_build_object('3', jsonb_build_object('temp', 40 + g % 7)), jsonb_build_object('temperature', 4 + (g % 7) / 10.0)
      from devices d, generate_series(0, 1439 + least(60, floor(extract(epoch from now() - ${new Date(today).toISOString()}::timestamptz) / 60)::int)) as g
      where d.id = ${d.id}`);
  }
  let r = await archiveTick(db);
  while (!r.caughtUp) r = await archiveTick(db);
  await takeSnapshot(db);
  const [demo] = rowsOf<{ id: string }>(await db.execute(sql`select id from orgs where code = 'demo'`));
  await addOrgUser(db, { orgId: demo!.id, account: 'storage_org_admin', password: 'OrgAdmin#2026', roleCodes: [ORG_ADMIN_ROLE.code] });
  // The demo's fleet is seeded here: on a loaded machine that outlasts the default hook limit.
}, 300_000);
afterAll(async () => {
  await server?.close();
});

const rows = (page: Page) => page.locator('[data-testid=storage-page] .ant-table-tbody tr.ant-table-row');
const demoRow = (page: Page, name: string) => rows(page).filter({ has: page.locator('[data-testid=storage-org]', { hasText: name }) });
const number = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

describe('storage screen', () => {
  it('the administrator opens it from the platform menu and sees the demo organisation with its readings (Chinese)', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signInAs(page, server);
      await page.locator('.ant-menu').getByText('平台管理', { exact: true }).click();
      await page.locator('.ant-menu').getByText('存储', { exact: true }).click();
      await page.waitForURL(/\/view\/system\/storage/);
      await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe('存储');
      await expect.poll(() => demoRow(page, 'Demo Cold Chain Co.').count()).toBe(1);
      const row = demoRow(page, 'Demo Cold Chain Co.');
      expect(number(await row.locator('[data-testid=storage-row-readings]').textContent())).toBeGreaterThan(2880);
      expect(number(await row.locator('[data-testid=storage-packed-readings]').textContent())).toBe(2880);
      expect(await row.locator('[data-testid=storage-packs]').textContent()).toBe('2');
      expect(await row.locator('[data-testid=storage-bytes]').textContent()).toMatch(/\d (kB|MB)$/);
      expect(await row.locator('[data-testid=storage-bytes-per-reading]').textContent()).toMatch(/\d/);
      const header = await page.locator('[data-testid=storage-page] thead').textContent();
      for (const h of ['组织', '行存读数', '归档包内读数', '归档包', '占用空间', '每条读数字节', '日增长', '占比']) expect(header).toContain(h);
      // PGlite on its data directory: the free space is known; one snapshot gives no growth, so no days left yet.
      expect(await page.locator('[data-testid=storage-card-daysLeft]').textContent()).toContain('未知');
      expect(await page.locator('[data-testid=storage-card-daysLeft-hint]').textContent()).toMatch(/^剩余空间 [\d.]+ (MB|GB|TB)$/);
      expect(number(await page.locator('[data-testid=storage-card-packs]').textContent())).toBeGreaterThanOrEqual(2);
      await screenshot(page, 'storage-zh-1440');
    });
  });

  it('shows the same in English and reads it again on refresh', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInAs(page, server);
      await page.goto(`${server.url}/view/system/storage`);
      await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe('Storage');
      await expect.poll(() => demoRow(page, 'Demo Cold Chain Co.').count()).toBe(1);
      const header = await page.locator('[data-testid=storage-page] thead').textContent();
      for (const h of ['Organisation', 'Readings as rows', 'Readings in packs', 'Packs', 'Bytes', 'Bytes per reading', 'Growth per day', 'Share']) expect(header).toContain(h);
      expect(await page.locator('[data-testid=storage-card-daysLeft]').textContent()).toContain('Unknown');
      const before = number(await demoRow(page, 'Demo Cold Chain Co.').locator('[data-testid=storage-row-readings]').textContent());
      // A later snapshot with more readings: the refresh button shows it.
      const db = server.app.database.db;
      await db.execute(sql`insert into telemetry (org_id, device_ref, time, lat, lon, positioning, raw, sensors)
        select org_id, device_ref, time + interval '1 second', lat, lon, positioning, raw, sensors from telemetry
        where org_id = (select id from orgs where code = 'demo') and time >= (now() at time zone 'UTC')::date order by time limit 5`);
      await takeSnapshot(db);
      await page.locator('[data-testid=storage-refresh]').click();
      await expect.poll(async () => number(await demoRow(page, 'Demo Cold Chain Co.').locator('[data-testid=storage-row-readings]').textContent())).toBe(before + 5);
      await screenshot(page, 'storage-en-1280');
    });
  });

  it('tells the growth per day and the days left once snapshots of two days exist', async () => {
    const db = server.app.database.db;
    // Yesterday's snapshot with half of today's bytes: a day's growth of the other half.
    await takeSnapshot(db, { day: new Date(Date.now() - DAY).toISOString().slice(0, 10) });
    await db.execute(sql`update storage_daily set row_bytes = row_bytes / 2, pack_bytes = pack_bytes / 2 where day = ((now() at time zone 'UTC')::date - 1)`);
    await withBrowser('zh-CN', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInAs(page, server);
      await page.goto(`${server.url}/view/system/storage`);
      await expect.poll(() => demoRow(page, 'Demo Cold Chain Co.').locator('[data-testid=storage-growth]').textContent()).toMatch(/^[\d.]+ (kB|MB)\/天$/);
      expect(await page.locator('[data-testid=storage-card-growth]').textContent()).toMatch(/[\d.]+ (kB|MB)\/天/);
      // The free space of the data directory's disk over that growth: many days, in whole days.
      expect(await page.locator('[data-testid=storage-card-daysLeft]').textContent()).toMatch(/[\d,]+天/);
      await screenshot(page, 'storage-zh-growth-1280');
    });
  });

  it("is not in an organisation administrator's menu, and the screen is refused to them", async () => {
    await withBrowser('en-US', async ({ page }) => {
      await signInAs(page, server, 'storage_org_admin', 'OrgAdmin#2026');
      await page.goto(`${server.url}/view/system/orgs`);
      // On a management screen its menu group is open: its entries show, Storage not among them.
      await page.locator('.ant-menu').getByText('Organisations', { exact: true }).waitFor();
      expect(await page.locator('.ant-menu').getByText('Outbox', { exact: true }).count()).toBe(0);
      expect(await page.locator('.ant-menu').getByText('Storage', { exact: true }).count()).toBe(0);
      await page.goto(`${server.url}/view/system/storage`);
      await page.locator('[data-testid=forbidden-page]').waitFor();
    });
  });
});
