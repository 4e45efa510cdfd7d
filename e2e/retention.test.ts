// The data-retention screen (issue 24, item 3), in Chinese as the demo organisation's
// administrator and in English as the platform administrator (with the floor): the rules tree
// shows each organisation's effective rows and packs retention and where they come from; a rule
// is edited and shown as the organisation's own; a legal hold is placed with a reason and
// released after confirming; the removals tab lists what the retention job removed. At 1280 px
// the lists fit the page with their default columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, ADMIN_PASSWORD, screenshot, signInAs, startServer, type Server, withBrowser } from './harness.ts';
import { addOrgUser } from '../apps/server/src/test/fixtures.ts';
import { rowsOf } from '../apps/server/src/db/client.ts';
import { packDay } from '../apps/server/src/modules/archive/job.ts';
import { retentionTick } from '../apps/server/src/modules/retention/job.ts';

const DAY = 86_400_000;
let server: Server;

beforeAll(async () => {
  server = await startServer({ retentionMs: 0 });
  const db = server.app.database.db;
  const [demo] = rowsOf<{ id: string }>(await db.execute(sql`select id from orgs where code = 'demo'`));
  await addOrgUser(db, { orgId: demo!.id, account: 'keeper', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  // A device whose readings of a day 120 days ago are packed: the job removes their rows (rows kept 90 days).
  const [dev] = rowsOf<{ id: string }>(await db.execute(sql`insert into devices (org_id, device_id, name, secret_hash) values (${demo!.id}, 'RET-E2E-1', 'Reefer 7', 'x') returning id`));
  const day = new Date(Math.floor(Date.now() / DAY) * DAY - 120 * DAY).toISOString().slice(0, 10);
  await db.execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, positioning, raw, sensors)
    select ${demo!.id}::uuid, ${dev!.id}::uuid, t, t + interval '1 minute', 31, 121.5, 'GPS', '{}'::jsonb, '{"temperature":4}'::jsonb
    from generate_series(${day}::timestamptz, ${day}::timestamptz + interval '23 hours', interval '1 hour') as t`);
  await packDay(db, dev!.id, day, new Date());
  const r = await retentionTick(db, { audit: async () => undefined });
  expect(r.rowsRemoved).toBe(24);
}, 300_000);
afterAll(async () => {
  await server?.close();
});

// An antd InputNumber puts its test id on the input itself, or on its wrapper.
const SELF_INPUT = 'xpath=descendant-or-self::input';
const row = (page: Page, name: string) => page.locator(`[data-testid=retention-rules] tr[data-org="${name}"]`);
const holdRows = (page: Page) => page.locator('[data-testid=retention-page] .ant-table-tbody tr.ant-table-row');

/** Whether the visible list table fits its place at this width (no sideways scrolling of the table or the page). */
function fits(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const table = Array.from(document.querySelectorAll<HTMLElement>('[data-testid=retention-page] [data-testid=data-table]')).find((t) => t.offsetParent !== null)!;
    const room = table.querySelector<HTMLElement>('.ant-table-container')!;
    const scroller = table.querySelector<HTMLElement>('.ant-table-content, .ant-table-body') ?? room;
    const content = Math.max(scroller.scrollWidth, Math.ceil(table.querySelector('.ant-table-container table')!.getBoundingClientRect().width));
    const width = Math.floor(room.getBoundingClientRect().width);
    if (content > width + 1) return `${table.dataset.tableId}: ${content} px in ${width} px`;
    if (document.documentElement.scrollWidth > window.innerWidth) return `the page scrolls sideways`;
    return null;
  });
}

async function editRule(page: Page, org: string, rows: number, packs: number, floor?: number) {
  await row(page, org).locator('[data-testid=retention-edit]').click();
  const modal = page.locator('.retention-rule-modal');
  await modal.waitFor();
  await modal.locator('[data-testid=retention-rows-mode] input[value=days]').check();
  await modal.locator('[data-testid=retention-rows-days]').locator(SELF_INPUT).fill(String(rows));
  await modal.locator('[data-testid=retention-packs-mode] input[value=days]').check();
  await modal.locator('[data-testid=retention-packs-days]').locator(SELF_INPUT).fill(String(packs));
  if (floor !== undefined) {
    await modal.locator('[data-testid=retention-floor-mode] input[value=days]').check();
    await modal.locator('[data-testid=retention-floor-days]').locator(SELF_INPUT).fill(String(floor));
  }
  await screenshot(page, `retention-edit-${floor === undefined ? 'org' : 'platform'}`);
  await page.locator('#retention-rule-submit').click();
  await modal.waitFor({ state: 'hidden' });
}

async function placeAndRelease(page: Page, org: string, reason: string, texts: { active: string; released: string; release: string }) {
  await page.locator('[data-testid=retention-tab-holds]').click();
  await page.locator('[data-testid=retention-hold-add]').click();
  const modal = page.locator('.retention-hold-modal');
  await modal.waitFor();
  await modal.locator('.ant-select').first().click();
  await page.locator('.org-select-popup').getByTitle(org, { exact: true }).click();
  await modal.locator('[data-testid=retention-hold-reason]').fill(reason);
  await page.locator('#retention-hold-submit').click();
  await modal.waitFor({ state: 'hidden' });
  // Holds in force come first.
  const first = holdRows(page).first();
  await expect.poll(() => first.locator('[data-testid=hold-reason]').textContent()).toBe(reason);
  expect(await first.locator('[data-testid=hold-state]').textContent()).toBe(texts.active);
  expect(await first.locator('[data-testid=hold-subject]').textContent()).toBe(org);
  await screenshot(page, `retention-holds-${texts.release}`);
  expect(await fits(page)).toBeNull();
  await first.locator('[data-testid=hold-release]').click();
  const confirm = page.locator('.confirm-dialog');
  await confirm.waitFor();
  await confirm.locator('.ant-btn-dangerous').click();
  await expect.poll(() => holdRows(page).first().locator('[data-testid=hold-state]').textContent()).toBe(texts.released);
  expect(await holdRows(page).first().locator('[data-testid=hold-release]').count()).toBe(0);
}

describe('data retention screen', () => {
  it('the organisation administrator edits a rule, places and releases a hold, and reads the removals (Chinese)', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInAs(page, server, 'keeper', DEMO_PASSWORD);
      await page.goto(`${server.url}/view/system/retention`);
      await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe('数据保留');
      const demo = row(page, 'Demo Cold Chain Co.');
      await expect.poll(() => demo.locator('[data-testid=retention-rows]').textContent()).toBe('90 天系统默认');
      expect(await demo.locator('[data-testid=retention-packs]').textContent()).toBe('永久系统默认');
      await screenshot(page, 'retention-rules-zh');
      await editRule(page, 'Demo Cold Chain Co.', 60, 3650);
      await expect.poll(() => demo.locator('[data-testid=retention-rows]').textContent()).toBe('60 天本组织规则');
      expect(await demo.locator('[data-testid=retention-packs]').textContent()).toBe('3650 天本组织规则');
      await placeAndRelease(page, 'Demo Cold Chain Co.', '质量纠纷取证', { active: '生效中', released: '已解除', release: 'zh' });
      await page.locator('[data-testid=retention-tab-removals]').click();
      await expect.poll(() => holdRows(page).count()).toBe(1);
      expect(await holdRows(page).first().locator('[data-testid=removal-what]').textContent()).toBe('明细（已归档）');
      expect(await holdRows(page).first().locator('[data-testid=removal-device]').textContent()).toBe('Reefer 7 (RET-E2E-1)');
      expect(await holdRows(page).first().locator('[data-testid=removal-policy]').textContent()).toBe('明细保留 90 天（系统默认）');
      await screenshot(page, 'retention-removals-zh');
      expect(await fits(page)).toBeNull();
    });
  });

  it('the platform administrator sets the platform rule with a floor, places and releases a hold (English)', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInAs(page, server, 'admin', ADMIN_PASSWORD);
      await page.goto(`${server.url}/view/system/retention`);
      await expect.poll(() => page.locator('[data-testid=screen-title]').textContent()).toBe('Data retention');
      const platform = row(page, 'IoT Cloud Platform');
      await expect.poll(() => platform.locator('[data-testid=retention-rows]').textContent()).toBe('90 daysBuilt-in default');
      await editRule(page, 'IoT Cloud Platform', 30, 6000, 5000);
      // The floor raises the demo organisation's 3650 days.
      await expect.poll(() => platform.locator('[data-testid=retention-packs]').textContent()).toBe('6000 daysOwn rule');
      expect(await platform.locator('[data-testid=retention-rows]').textContent()).toBe('30 daysOwn rule');
      expect(await row(page, 'Demo Cold Chain Co.').locator('[data-testid=retention-packs]').textContent()).toBe('5000 daysRaised to the platform floor');
      expect(await row(page, 'Demo Cold Chain Co.').locator('[data-testid=retention-rows]').textContent()).toBe('60 daysOwn rule');
      await expect.poll(() => page.locator('[data-testid=retention-floor]').textContent()).toContain('5000 days');
      await screenshot(page, 'retention-rules-en');
      // Saving the demo organisation's own 3650 days again, now below the floor: refused in the form.
      await row(page, 'Demo Cold Chain Co.').locator('[data-testid=retention-edit]').click();
      const modal = page.locator('.retention-rule-modal');
      await modal.waitFor();
      await page.locator('#retention-rule-submit').click();
      await expect.poll(() => modal.locator('[data-testid=form-error]').textContent()).toBe('Packs cannot be kept for fewer days than the platform floor');
      expect(await modal.locator('[data-testid=retention-floor-note]').textContent()).toBe('Platform floor: packs are kept at least 5000 days.');
      await screenshot(page, 'retention-edit-below-floor');
      await modal.getByRole('button', { name: 'Cancel' }).click();
      await modal.waitFor({ state: 'hidden' });
      await placeAndRelease(page, 'IoT Cloud Platform', 'Regulator audit 2026-41', { active: 'In force', released: 'Released', release: 'en' });
      await page.locator('[data-testid=retention-tab-removals]').click();
      await expect.poll(() => holdRows(page).count()).toBe(1);
      expect(await holdRows(page).first().locator('[data-testid=removal-what]').textContent()).toBe('Rows (packed)');
      await screenshot(page, 'retention-removals-en');
      expect(await fits(page)).toBeNull();
    });
  });
});
