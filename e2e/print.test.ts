// Browser test of printing (issue 23, item 6), in both languages: in print media the alarm list
// shows its content without the side menu, header, breadcrumb, toolbar or pager, its table as wide
// as the content with nothing scrolled away, and a short list prints on one A4 page; an open task
// drawer prints alone, without the screen under it. Set E2E_SHOTS to keep the PDFs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { alarmLevels, alarms } from '../apps/server/src/db/schema.ts';
import { seedDemoData, signInAs, startServer, type Server, withBrowser } from './harness.ts';

const ALARMS = 5;
let server: Server;
beforeAll(async () => {
  server = await startServer();
  const db = server.app.database.db;
  const fleet = await seedDemoData(server);
  const [level] = await db.select().from(alarmLevels).where(eq(alarmLevels.orgId, fleet[0]!.orgId));
  for (let i = 0; i < ALARMS; i++) {
    const at = new Date(Date.now() - (i + 1) * 3_600_000);
    await db.insert(alarms).values({ orgId: fleet[0]!.orgId, policyName: `Cold chain ${i}`, ruleId: 'r1', type: 'temp_high', levelId: level!.id, deviceRef: fleet[i]!.id, status: 'active', startedAt: at, lastAt: at, threshold: 8, value: 9.3 + i, peak: 10 + i });
  }
});
afterAll(async () => {
  await server.close();
});

/** The A4 PDF of the page as Chromium prints it, and its number of pages. */
async function printed(page: Page, name: string): Promise<number> {
  const pdf = await page.pdf({ format: 'A4' });
  if (process.env.E2E_SHOTS) writeFileSync(join(process.env.E2E_SHOTS, `${name}.pdf`), pdf);
  return pdf.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0;
}

const visible = (page: Page, selector: string) => page.locator(selector).first().isVisible();

describe('print', () => {
  for (const locale of ['zh-CN', 'en-US']) {
    it(`prints the alarm list without navigation, its table at the page's width, on one A4 page (${locale})`, async () => {
      await withBrowser(locale, async ({ page }) => {
        await signInAs(page, server);
        await page.goto(`${server.url}/view/alarm/query`);
        await expect.poll(() => page.locator('.ant-table-row').count()).toBe(ALARMS);
        for (const part of ['.side-nav', '.header-bar', '.breadcrumb-bar', '[data-testid=toolbar]', '.ant-pagination']) expect(await visible(page, part), part).toBe(true);

        await page.emulateMedia({ media: 'print' });
        for (const part of ['.side-nav', '.header-bar', '.breadcrumb-bar', '[data-testid=filter-bar]', '[data-testid=toolbar]', '.ant-pagination']) expect(await visible(page, part), part).toBe(false);
        expect(await visible(page, '[data-testid=screen-title]')).toBe(true);
        const fit = await page.evaluate(() => {
          const content = document.querySelector('.console-content')!.getBoundingClientRect().width;
          const table = document.querySelector('[data-testid=data-table] table')!.getBoundingClientRect().width;
          const scroller = document.querySelector('[data-testid=data-table] .ant-table-content, [data-testid=data-table] .ant-table-body')!;
          const sticky = Array.from(document.querySelectorAll('[data-testid=data-table] td, [data-testid=data-table] th')).filter((c) => getComputedStyle(c).position === 'sticky').length;
          return { ratio: table / content, hidden: scroller.scrollWidth - scroller.clientWidth, sticky };
        });
        expect(fit.ratio).toBeGreaterThan(0.98);
        expect(fit.ratio).toBeLessThan(1.01);
        expect(fit.hidden).toBeLessThanOrEqual(1);
        expect(fit.sticky).toBe(0);
        expect(await printed(page, `print-alarms-${locale}`)).toBe(1);
      });
    });

    it(`prints an open task drawer alone (${locale})`, async () => {
      await withBrowser(locale, async ({ page }) => {
        await signInAs(page, server);
        await page.goto(`${server.url}/view/transport/tasks`);
        await page.locator('.ant-table-row').first().click();
        await page.locator('[data-testid=tt-detail-fields]').waitFor();
        await page.emulateMedia({ media: 'print' });
        expect(await visible(page, '#root')).toBe(false);
        expect(await visible(page, '[data-testid=tt-detail-fields]')).toBe(true);
        expect(await visible(page, '.ant-drawer-mask')).toBe(false);
        // In the page's flow at its width, not a fixed panel at the right.
        const drawer = await page.locator('[data-testid=tt-detail-fields]').evaluate((el) => el.getBoundingClientRect().width / document.documentElement.clientWidth);
        expect(drawer).toBeGreaterThan(0.9);
        expect(await printed(page, `print-task-drawer-${locale}`)).toBeGreaterThanOrEqual(1);
      });
    });
  }
});
