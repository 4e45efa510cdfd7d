// Browser test of a transport task's places picked from the place library in the task form (issue
// 26 items 2 and 7), in both languages: origin, destination and one stop chosen through the
// library picker, the task saved, and its details listing the stop between the origin and the
// destination (and the API holding the places' ids); an alarm policy's allowed place picked in
// its drawer the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { PlaceRow } from '@iotc/shared/place';
import type { TaskDetail } from '@iotc/shared/transport';
import type { Page as ListPage } from '@iotc/shared/envelope';
import type { Page } from 'playwright-core';
import { apiCall, apiToken, screenshot, signInAs, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let token: string;

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

beforeAll(async () => {
  server = await startServer();
  token = await apiToken(server);
});
afterAll(async () => {
  await server.close();
});

/** Opens the library picker `testId`, searches `name` and takes it. */
async function pickPlace(page: Page, testId: string, name: string) {
  await page.locator(`[data-testid=${testId}]`).click();
  await page.keyboard.type(name);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).first().click();
}

describe.each(['en-US', 'zh-CN'] as const)('a task with stops from the library in %s', (locale) => {
  it('picks origin, destination and a stop in the task form and an allowed place in the policy drawer, saves, and the details list the stop in order', async () => {
    const tag = `${locale === 'en-US' ? 'EN' : 'ZH'}${Date.now() % 100_000}`;
    const made = async (name: string, lat: number, lon: number) => api<PlaceRow>('POST', '/api/iot/v2/places', { name, shape: 'circle', lat, lon, radiusM: 500 });
    const from = await made(`Origin ${tag}`, 31.2, 121.5);
    const via = await made(`Stop ${tag}`, 31.3, 121.0);
    const to = await made(`Dest ${tag}`, 31.3, 120.6);
    const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `STOP${tag}`, name: `Stops tracker ${tag}` });

    await withBrowser(locale, async ({ page }) => {
      await signInAs(page, server);
      await page.goto(`${server.url}/view/transport/tasks?type=101`);
      await page.locator('[data-testid=tt-new]').click();
      await page.locator('#ttNew_goodsName').fill(`Stops goods ${tag}`);
      await page.locator('[data-testid=ttNew-devices]').click();
      await page.keyboard.type(device.name);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: device.name }).first().click();
      await page.keyboard.press('Escape');
      await pickPlace(page, 'ttNew-origin-library', from.name);
      await expect.poll(() => page.locator('#ttNew_origin_name').inputValue()).toBe(from.name);
      await pickPlace(page, 'ttNew-destination-library', to.name);
      await expect.poll(() => page.locator('#ttNew_destination_name').inputValue()).toBe(to.name);
      await pickPlace(page, 'ttNew-stops-add', via.name);
      await expect.poll(() => page.locator('[data-testid=ttNew-stops-name]').allTextContents()).toEqual([via.name]);
      await page.locator('[data-testid=ttNew-stops-set]').scrollIntoViewIfNeeded();
      await screenshot(page, `task-form-stops-${locale}`);
      await page.locator('[data-testid=ttNew-submit]').click();

      const detail = page.locator('[data-testid=tt-detail]');
      await detail.locator('[data-testid=tt-detail-stops]').waitFor();
      expect(await detail.locator('[data-testid=tt-detail-stop]').allTextContents()).toEqual([expect.stringContaining(via.name)]);
      const fields = (await detail.locator('[data-testid=tt-detail-fields]').textContent()) ?? '';
      // Origin, then the stop, then the destination.
      expect(fields.indexOf(from.name)).toBeLessThan(fields.indexOf(via.name));
      expect(fields.indexOf(via.name)).toBeLessThan(fields.indexOf(to.name));
      expect(fields).toContain(locale === 'en-US' ? 'Stops' : '途经点');
      await screenshot(page, `task-detail-stops-${locale}`);

      // An alarm policy's allowed places: the place picked in the policy drawer through the same picker.
      const level = (await api<ListPage<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100')).rows.find((l) => l.orgId === via.orgId)!;
      const policy = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', { name: `Doors ${tag}`, scope: 'all', rules: [{ id: 'door', type: 'door_abnormal', threshold: 0, levelId: level.id, places: [] }] });
      await page.goto(`${server.url}/view/alarm/policy?type=102`);
      await page.locator('tr[data-row-key]').filter({ hasText: policy.name }).first().locator('[data-testid=policy-action-edit]').click();
      await pickPlace(page, 'rule-places-library', via.name);
      await expect.poll(() => page.locator('[data-testid=rule-places-row] input').first().inputValue()).toBe(via.name);
      await screenshot(page, `policy-place-picked-${locale}`);
      await page.locator('[data-testid=policy-submit]').click();
      await expect.poll(async () => (await api<PolicyRow>('GET', `/api/iot/v2/alarm-policies/${policy.id}`)).rules[0]!.places).toEqual([expect.objectContaining({ placeId: via.id, name: via.name })]);

      const tasks = await api<ListPage<TaskDetail>>('GET', `/api/iot/v2/transport-tasks?keyword=${encodeURIComponent(`Stops goods ${tag}`)}`);
      expect(tasks.rows).toHaveLength(1);
      expect(tasks.rows[0]).toMatchObject({ origin: { placeId: from.id }, destination: { placeId: to.id }, stops: [{ placeId: via.id, name: via.name }] });
    });
  });
});
