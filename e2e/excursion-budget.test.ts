// Browser test of the excursion budgets in both languages (issue 27 item 3): a product profile made
// on its screen (2-8 °C, 60 minutes above), a batch added to a transport task on the batches
// screen with that profile, and the batch's budget seen on the batch screens, in the task's
// shipment report and in the task's form: the task's logger read 9 °C and 10.5 °C
// for 10 minutes each, so 20 of 60 minutes above are used and 40 left. Then the profile is
// picked in the task's form: the task's details name it and the shipment report judges the trip
// against it (the same 20 of 60 minutes, this trip alone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TaskDetail } from '@iotc/shared/transport';
import { transportTasks } from '../apps/server/src/db/schema.ts';
import { apiCall, apiToken, screenshot, signInAs, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let token: string;
const MIN = 60_000;

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

beforeAll(async () => {
  server = await startServer();
  token = await apiToken(server);
});
afterAll(async () => {
  await server.close();
});

/** A task that ran from 3 hours ago for 2 hours, its logger 5, 9, 10.5, then 6 °C every 10 to 30 minutes. */
async function ranTask(tag: string): Promise<TaskDetail> {
  const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `BUDGET${tag}${Date.now() % 1_000_000}`, name: `Logger ${tag}` });
  const task = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', {
    goodsName: `Vaccine ${tag}`,
    deviceIds: [device.id],
    origin: { name: 'Shanghai DC', lat: 31.23, lon: 121.47, radiusM: 800 },
    destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
  });
  const start = Math.floor((Date.now() - 180 * MIN) / MIN) * MIN;
  const db = server.app.database.db;
  await db.update(transportTasks).set({ status: 'arrived', startedAt: new Date(start), startMode: 'manual', arrivedAt: new Date(start + 120 * MIN), arriveMode: 'manual' }).where(eq(transportTasks.id, task.id));
  const rows = [[0, 5], [10, 9], [20, 10.5], [30, 6], [60, 6], [90, 6]].map(([m, temperature]) => ({ time: new Date(start + m! * MIN).toISOString(), temperature }));
  await db.execute(sql`insert into telemetry (org_id, device_ref, time, raw, sensors)
    select ${task.orgId}::uuid, ${device.id}::uuid, time, '{}'::jsonb, jsonb_build_object('temperature', temperature)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(time timestamptz, temperature float8)`);
  return task;
}

describe.each(['en-US', 'zh-CN'] as const)('excursion budgets in %s', (locale) => {
  it('makes a profile, adds a batch with it to a task, and shows the budget used and left', async () => {
    const tag = locale === 'en-US' ? 'EN' : 'ZH';
    const task = await ranTask(tag);
    const profileName = `Vaccine ${tag} 2-8 ${Date.now() % 100_000}`;
    const batchNo = `VAX-${tag}-${Date.now() % 100_000}`;
    await withBrowser(locale, async ({ page }) => {
      await signInAs(page, server);
      await page.goto(`${server.url}/view/warehouse/profiles`);
      await page.locator('[data-testid=profiles-page]').waitFor();
      await page.locator('[data-testid=profile-new]').click();
      const drawer = page.locator('[data-testid=profile-drawer]');
      await drawer.locator('#name').waitFor();
      await drawer.locator('#name').fill(profileName);
      await screenshot(page, `budget-profile-form-${locale}`);
      await drawer.locator('[data-testid=profile-submit]').click();
      await page.locator('[data-testid=profile-cell-name]').filter({ hasText: profileName }).first().waitFor();
      await screenshot(page, `budget-profiles-${locale}`);

      await page.goto(`${server.url}/view/warehouse/batches`);
      await page.locator('[data-testid=batches-page]').waitFor();
      await page.locator('[data-testid=batch-add-to-task]').click();
      const modal = page.locator('.ant-modal').filter({ has: page.locator('#batchNo') });
      await modal.locator('#batchNo').waitFor();
      await modal.locator('[data-testid=batch-task]').click();
      await page.keyboard.type(task.code);
      await page.locator('.ant-select-item-option').filter({ hasText: task.code }).first().click();
      await modal.locator('#batchNo').fill(batchNo);
      await modal.locator('#goodsName').fill(`Vaccine ${tag}`);
      await modal.locator('[data-testid=batch-profile]').click();
      await page.locator('.ant-select-item-option').filter({ hasText: profileName }).first().click();
      await screenshot(page, `budget-add-to-task-${locale}`);
      await modal.locator('[data-testid=batch-submit]').click();

      const row = page.locator('tr[data-row-key]').filter({ hasText: batchNo }).first();
      await row.waitFor();
      const usedLeft = locale === 'en-US' ? 'used 20 min, left 40 min' : '已用 20 分钟，剩余 40 分钟';
      await expect.poll(async () => row.locator('[data-testid=batch-cell-above]').textContent()).toContain(usedLeft);
      await screenshot(page, `budget-batches-${locale}`);

      await row.locator('[data-testid=batch-view]').click();
      const detail = page.locator('[data-testid=batch-detail]');
      await detail.locator('[data-testid=batch-used-above]').waitFor();
      expect(await detail.locator('[data-testid=batch-used-above]').textContent()).toContain(usedLeft);
      expect(await detail.locator('[data-testid=batch-periods]').textContent()).toContain(task.code);
      // The drawer's title names the batch, and the periods table fits the drawer (no column cut off).
      expect(await page.locator('[data-testid=batch-detail-title]').textContent()).toContain(batchNo);
      const fits = await detail.locator('[data-testid=batch-periods] table').evaluate((t) => {
        const holder = t.closest('.ant-drawer-body')!.getBoundingClientRect();
        return t.getBoundingClientRect().right <= holder.right + 1;
      });
      expect(fits).toBe(true);
      await page.locator('.ant-message-notice').waitFor({ state: 'detached' });
      await screenshot(page, `budget-batch-detail-${locale}`);

      // The task's shipment report lists the batch with its budget; the task's form shows its batches.
      await page.goto(`${server.url}/view/transport/tasks?id=${task.id}`);
      await page.locator('[data-testid=tt-detail-report]').click();
      const batches = page.locator('[data-testid=sr-batches]');
      await batches.waitFor({ timeout: 20_000 });
      expect(await batches.textContent()).toContain(batchNo);
      expect(await batches.textContent()).toContain(usedLeft);
      await batches.scrollIntoViewIfNeeded();
      await screenshot(page, `budget-shipment-report-${locale}`);
      await page.keyboard.press('Escape');
      await batches.waitFor({ state: 'hidden' });
      await page.locator('[data-testid=tt-detail-edit]').click();
      const field = page.locator('[data-testid=ttEdit-batches]');
      await expect.poll(async () => (await field.count()) > 0 && ((await field.first().textContent()) ?? '').includes(batchNo), { timeout: 20_000 }).toBe(true);
      await field.first().scrollIntoViewIfNeeded();
      await screenshot(page, `budget-task-form-${locale}`);

      // The task's own profile, picked in its form.
      const editDrawer = page.locator('.ant-drawer').filter({ has: page.locator('[data-testid=ttEdit-profile]') });
      await editDrawer.locator('[data-testid=ttEdit-profile]').click();
      await page.keyboard.type(profileName);
      await page.locator('.ant-select-item-option').filter({ hasText: profileName }).first().click();
      await editDrawer.locator('[data-testid=ttEdit-profile]').scrollIntoViewIfNeeded();
      await screenshot(page, `budget-task-form-profile-${locale}`);
      await editDrawer.locator('[data-testid=ttEdit-submit]').click();
      await expect.poll(async () => (await api<TaskDetail>('GET', `/api/iot/v2/transport-tasks/${task.id}`)).profile?.name, { timeout: 20_000 }).toBe(profileName);
      await expect.poll(async () => page.locator('[data-testid=tt-detail-profile]').first().textContent(), { timeout: 20_000 }).toBe(profileName);
      await page.locator('[data-testid=tt-detail-report]').click();
      const trip = page.locator('[data-testid=sr-trip-budget]');
      await trip.waitFor({ timeout: 20_000 });
      expect(await trip.locator('[data-testid=sr-trip-profile]').textContent()).toContain(profileName);
      expect(await trip.locator('[data-testid=sr-trip-above]').textContent()).toContain(usedLeft);
      expect(await trip.locator('[data-testid=sr-trip-max]').textContent()).toContain('10.5 °C');
      await trip.scrollIntoViewIfNeeded();
      await screenshot(page, `budget-shipment-trip-${locale}`);
    });
  }, 300_000);
});
