// Browser tests of the data-view kit on a real server table (the audit log): paging, sorting
// and filtering reflected in the address, column settings kept in cookies across a reload, and
// export of the filtered list, in both languages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { auditLogs, orgs } from '../apps/server/src/db/schema.ts';
import { eq } from 'drizzle-orm';
import { ADMIN_PASSWORD, launchBrowser, screenshot, startServer, type Browser, type Server } from './harness.ts';

const SCREEN = '/view/system/auditLogs';
let server: Server;
beforeAll(async () => {
  server = await startServer();
  const db = server.app.database.db;
  const [demo] = await db.select().from(orgs).where(eq(orgs.code, 'demo'));
  const base = Date.parse('2026-11-20T00:00:00Z');
  await db.insert(auditLogs).values(
    Array.from({ length: 35 }, (_, i) => ({
      orgId: demo!.id,
      at: new Date(base + i * 60_000),
      account: `bulk-${String(i).padStart(2, '0')}`,
      action: i % 2 ? 'logout' : 'login',
      result: (i % 7 ? 'success' : 'failure') as 'success' | 'failure',
      ip: `10.0.0.${i}`,
    })),
  );
});
afterAll(async () => {
  await server.close();
});

async function withAdmin(locale: string, fn: (b: Browser) => Promise<void>) {
  const b = await launchBrowser({ locale });
  try {
    await b.page.goto(`${server.url}/login`);
    await b.page.locator('#account').fill('admin');
    await b.page.locator('#password').fill(ADMIN_PASSWORD);
    await b.page.locator('#login-submit').click();
    await b.page.waitForURL('**/view/deviceManage/realTimeMonitoring');
    await fn(b);
  } finally {
    await b.close();
  }
}

const rows = (page: Page) => page.locator('[data-testid=data-table] .ant-table-tbody tr.ant-table-row');
const column = (page: Page, n: number) => rows(page).locator(`td:nth-child(${n})`).allTextContents();
const headers = (page: Page) => page.locator('[data-testid=data-table] thead th').allTextContents();
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

describe('a server table: paging, sorting, filtering', () => {
  it('pages, sorts and filters the audit log, and the address keeps the view', async () => {
    await withAdmin('en-US', async ({ page }) => {
      await page.goto(server.url + SCREEN);
      await page.locator('[data-testid=screen-title]').waitFor();
      await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(10);
      expect(await headers(page)).toEqual(expect.arrayContaining(['No.', 'Time', 'Organisation', 'Account', 'Action', 'Result', 'IP address']));
      expect(await page.locator('.ant-pagination-total-text').textContent()).toMatch(/^Total \d+ items$/);
      await screenshot(page, 'audit-logs-en');

      // Page 2: serial numbers go on, the address says so.
      await page.locator('.ant-pagination-item-2').click();
      await expect.poll(() => param(page, 'page')).toBe('2');
      await expect.poll(async () => (await column(page, 1))[0]).toBe('11');

      // Sort by account, ascending: back to page 1, in account order.
      await page.locator('[data-testid=data-table] thead th', { hasText: 'Account' }).click();
      await expect.poll(() => param(page, 'sort')).toBe('account,asc');
      expect(param(page, 'page')).toBeNull();
      await expect.poll(async () => {
        const accounts = await column(page, 4);
        return accounts.length === 10 && accounts.every((a, i, all) => i === 0 || all[i - 1]!.localeCompare(a) <= 0);
      }).toBe(true);

      // Filter by account and by result.
      await page.locator('[data-testid=filter-account]').fill('bulk-0');
      await page.locator('[data-testid=filter-search]').click();
      await expect.poll(() => param(page, 'f.account')).toBe('bulk-0');
      await expect.poll(() => page.locator('.ant-pagination-total-text').textContent()).toBe('Total 10 items');
      expect((await column(page, 4)).every((a) => a.startsWith('bulk-0'))).toBe(true);

      // A colleague opens the same address: after signing in it shows the same view.
      const shared = page.url();
      const other = await page.context().newPage();
      await other.goto(shared);
      await other.waitForURL(/\/login\?redirect=/);
      await other.locator('#account').fill('admin');
      await other.locator('#password').fill(ADMIN_PASSWORD);
      await other.locator('#login-submit').click();
      await other.waitForURL((u) => u.pathname === SCREEN && u.searchParams.get('f.account') === 'bulk-0');
      await expect.poll(() => other.locator('.ant-pagination-total-text').textContent()).toBe('Total 10 items');
      expect(await other.locator('[data-testid=filter-account]').inputValue()).toBe('bulk-0');
      await other.close();

      // Reset clears the filters (and raises the reset flag for a moment).
      await page.locator('[data-testid=filter-reset]').click();
      await expect.poll(() => param(page, 'f.account')).toBeNull();
      expect(await page.locator('[data-testid=filter-account]').inputValue()).toBe('');
    });
  });

  it('exports the filtered list to CSV with the headers of the user language', async () => {
    await withAdmin('zh-CN', async ({ page }) => {
      await page.goto(`${server.url}${SCREEN}?f.account=bulk-1&sort=account,asc`);
      await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(10);
      expect(await headers(page)).toEqual(expect.arrayContaining(['序号', '时间', '账号', '操作', '结果']));
      await screenshot(page, 'audit-logs-zh');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByText('导出 CSV').click()]);
      expect(download.suggestedFilename()).toMatch(/^操作日志-\d{8}-\d{6}\.csv$/);
      const text = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '');
      const lines = text.trim().split('\n');
      expect(lines[0]).toBe('时间,组织,账号,操作,结果,IP 地址,详情,客户端');
      expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(Array.from({ length: 10 }, (_, i) => `bulk-1${i}`));
    });
  });
});

describe('column settings', () => {
  it('hides a column, keeps it hidden across a reload in session cookies', async () => {
    await withAdmin('en-US', async ({ page, context }) => {
      await page.goto(server.url + SCREEN);
      await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(10);
      expect(await headers(page)).toContain('IP address');

      await page.locator('[data-testid=column-settings-open]').click();
      const dialog = page.locator('[data-testid=column-settings]');
      await dialog.waitFor();
      expect(await page.locator('.ant-modal-title').last().textContent()).toBe('Custom columns');
      await screenshot(page, 'column-settings-en');
      await page.locator('[data-testid=column-switch-ip]').click();
      await page.locator('[data-testid=column-settings-ok]').click();
      await expect.poll(() => headers(page)).not.toContain('IP address');

      const cookie = (await context.cookies()).find((c) => c.name === 'iotc-cols-audit-logs-0');
      expect(cookie).toBeDefined();
      expect(cookie!.expires).toBe(-1); // no expiry attribute: a session cookie, as the spec says

      await page.reload();
      await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBe(10);
      const after = await headers(page);
      expect(after).not.toContain('IP address');
      expect(after).toContain('Account');

      // Shown again, it comes back.
      await page.locator('[data-testid=column-settings-open]').click();
      await page.locator('[data-testid=column-switch-ip]').click();
      await page.locator('[data-testid=column-settings-ok]').click();
      await expect.poll(() => headers(page)).toContain('IP address');
    });
  });
});
