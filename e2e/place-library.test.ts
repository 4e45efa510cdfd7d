// Browser test of the place library in both languages: a place made on the screen (a click on
// the drawer's map for the centre, a radius), used by an alarm policy's allowed places and a
// transport task's origin (by its id, through the API) and a warehouse (picked in the warehouse
// form from the library), renamed and moved on the screen — the policy, the task and the
// warehouse follow — and a delete refused naming them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { PlaceRow } from '@iotc/shared/place';
import type { TaskDetail } from '@iotc/shared/transport';
import type { AssetRow } from '@iotc/shared/asset';
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

describe.each(['en-US', 'zh-CN'] as const)('the place library in %s', (locale) => {
  it('makes a place on the map, a policy and a task follow its change, and its delete names them', async () => {
    const tag = locale === 'en-US' ? 'EN' : 'ZH';
    const name = `Depot ${tag} ${Date.now() % 100_000}`;
    await withBrowser(locale, async ({ page }) => {
      await signInAs(page, server);
      await page.goto(`${server.url}/view/alarm/places`);
      await page.locator('[data-testid=places-page]').waitFor();
      await page.locator('[data-testid=place-new]').click();
      const drawer = page.locator('[data-testid=place-drawer]');
      await drawer.locator('[data-testid=place-map]').waitFor();
      await drawer.locator('#name').fill(name);
      // A click in the middle of the map sets the centre.
      await drawer.locator('[data-testid=place-map]').click();
      await expect.poll(async () => drawer.locator('#lat').inputValue()).not.toBe('');
      await drawer.locator('#radiusM').fill('800');
      await screenshot(page, `place-drawer-${locale}`);
      await drawer.locator('[data-testid=place-submit]').click();
      await page.locator('[data-testid=place-cell-name]').filter({ hasText: name }).first().waitFor();
      await screenshot(page, `place-library-${locale}`);

      // The place used by a policy's allowed places and a task's origin, by its id.
      const place = (await api<Page<PlaceRow>>('GET', `/api/iot/v2/places?keyword=${encodeURIComponent(name)}`)).rows[0]!;
      expect(place).toMatchObject({ shape: 'circle', radiusM: 800 });
      const copy = { placeId: place.id, name: place.name, lat: place.lat, lon: place.lon, radiusM: place.radiusM };
      const level = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100')).rows.find((l) => l.orgId === place.orgId)!;
      const policy = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', { name: `Doors ${name}`, scope: 'all', rules: [{ id: 'door', type: 'door_abnormal', threshold: 0, levelId: level.id, places: [copy] }] });
      const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `PLACE${tag}${Date.now() % 1_000_000}`, name: `Tracker ${tag}` });
      const task = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', {
        goodsName: 'Vaccines',
        deviceIds: [device.id],
        origin: copy,
        destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
      });

      // A warehouse picks the place in its form: its position is the place's centre.
      const whCode = `WH-${tag}-${Date.now() % 100_000}`;
      await page.goto(`${server.url}/view/asset/coldChain`);
      await page.locator('[data-testid=warehouse-new]').click();
      await page.locator('#asset-warehouse_code').fill(whCode);
      await page.locator('#asset-warehouse_name').fill(`Store ${tag}`);
      await page.locator('[data-testid=asset-place-pick]').click();
      await page.keyboard.type(name);
      await page.locator('.ant-select-item-option').filter({ hasText: name }).first().click();
      await expect.poll(() => page.locator('[data-testid=asset-place-name]').textContent()).toBe(name);
      await expect.poll(() => page.locator('#asset-warehouse_attrs_lat').inputValue()).toBe(String(place.lat));
      expect(await page.locator('#asset-warehouse_attrs_lat').isDisabled()).toBe(true);
      await screenshot(page, `place-warehouse-form-${locale}`);
      await page.locator('[data-testid=asset-form-submit]').click();
      await page.locator('[data-testid=asset-table-warehouse]').getByText(whCode).waitFor();
      const warehouse = (await api<Page<AssetRow>>('GET', `/api/iot/v2/warehouses?keyword=${whCode}`)).rows[0]!;
      expect(warehouse).toMatchObject({ placeId: place.id, placeName: name, attrs: { lat: place.lat, lon: place.lon } });
      await page.goto(`${server.url}/view/alarm/places`);
      await page.locator('[data-testid=place-cell-name]').filter({ hasText: name }).first().waitFor();

      // Renamed and made larger on the screen.
      const renamed = `${name} moved`;
      await page.locator('tr[data-row-key]').filter({ hasText: name }).first().locator('[data-testid=place-edit]').click();
      await drawer.locator('#name').waitFor();
      await expect.poll(async () => drawer.locator('#name').inputValue()).toBe(name);
      await drawer.locator('#name').fill(renamed);
      await drawer.locator('#radiusM').fill('1200');
      await drawer.locator('[data-testid=place-submit]').click();
      await page.locator('[data-testid=place-cell-name]').filter({ hasText: renamed }).first().waitFor();
      await expect
        .poll(async () => (await api<PolicyRow>('GET', `/api/iot/v2/alarm-policies/${policy.id}`)).rules[0]!.places[0])
        .toMatchObject({ placeId: place.id, name: renamed, radiusM: 1200 });
      await expect.poll(async () => (await api<TaskDetail>('GET', `/api/iot/v2/transport-tasks/${task.id}`)).origin).toMatchObject({ placeId: place.id, name: renamed, radiusM: 1200 });

      // A delete is refused, naming the policy and the task.
      await page.locator('tr[data-row-key]').filter({ hasText: renamed }).first().locator('[data-testid=place-delete]').click();
      await page.locator('.confirm-dialog .ant-btn-dangerous').click();
      const refusal = page.locator('.action-error');
      await refusal.waitFor();
      const text = (await refusal.textContent()) ?? '';
      expect(text).toContain(locale === 'en-US' ? 'The place is in use and cannot be deleted' : '地点正在使用中，不能删除');
      expect(text).toContain(`Doors ${name}`);
      expect(text).toContain(task.code);
      expect(text).toContain(`Store ${tag}`);
      await screenshot(page, `place-in-use-${locale}`);
    });
  });
});
