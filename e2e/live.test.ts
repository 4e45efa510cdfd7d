// Browser test of live monitoring on the real server and the real MQTT path: a device's marker
// and row are on the real-time monitoring screen; when the device publishes a report over MQTT
// (QoS 1, embedded broker), its marker moves and its temperature changes in the details panel
// without a reload, in both languages; a temperature outside the bound vehicle's range is red.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { AssetRow } from '@iotc/shared/asset';
import { startMqtt, type MqttLink } from '../apps/server/src/ingest/mqtt.ts';
import { ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let link: MqttLink;
let token: string;

async function api<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const res = await server.app.inject({ method, url, headers: { access_token: token, 'content-type': 'application/json' }, payload: body === undefined ? undefined : JSON.stringify(body) });
  return (res.json() as { data: T }).data;
}

beforeAll(async () => {
  server = await startServer();
  link = await startMqtt({ port: 0, host: '127.0.0.1', log: server.app.log, authenticate: server.app.intake.authenticate, sink: server.app.intake });
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;
});
afterAll(async () => {
  await link.close();
  await server.close();
});

/** Publishes one report over MQTT as the device; resolves on the broker's acknowledgement (after storage). */
async function publish(device: DeviceWithSecret, report: Record<string, unknown>) {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: device.deviceId, password: device.secret, reconnectPeriod: 0 });
  try {
    await client.publishAsync(`devices/${device.deviceId}/report`, JSON.stringify({ deviceId: device.deviceId, time: new Date().toISOString(), ...report }), { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

describe.each(['en-US', 'zh-CN'] as const)('real-time monitoring in %s', (locale) => {
  it('moves the marker and changes the temperature when the device publishes', async () => {
    const tag = locale === 'en-US' ? 'EN' : 'ZH';
    const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `LIVE${tag}0001`, name: `Live truck ${tag}` });
    const truck = await api<AssetRow>('POST', '/api/iot/v2/vehicles', { code: `LIVE-${tag}`, name: 'Reefer', tempMin: 2, tempMax: 8 });
    await api('POST', `/api/iot/v2/devices/${device.id}/bind`, { assetId: truck.id });
    // 5.0 C at Shanghai, moving.
    await publish(device, { lat: 31.2304, lon: 121.4737, speed: 50, acc: true, extraData: '{"3":{"temp":50,"humidity":600}}' });

    await withBrowser(locale, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.locator('#account').fill('admin');
      await page.locator('#password').fill(ADMIN_PASSWORD);
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');
      await page.locator('[data-testid=real-time-monitoring]').waitFor();
      await page.locator('[data-testid=monitor-keyword] input, input[data-testid=monitor-keyword]').first().fill(device.deviceId);
      await page.keyboard.press('Enter');
      const row = page.locator(`tr[data-row-key="${device.id}"]`);
      await row.waitFor();
      await page.locator('[data-testid=monitor-live][data-state=open]').waitFor();
      const marker = page.locator(`[data-testid=map-marker][data-device-id="${device.id}"]`);
      await expect.poll(async () => Number(await marker.getAttribute('data-lat'))).toBeCloseTo(31.2304, 4);

      await row.click();
      const detail = page.locator('[data-testid=monitor-detail]');
      await detail.waitFor();
      await expect.poll(() => detail.locator('[data-testid=monitor-detail-temperature]').textContent()).toMatch(/5(\.0)?\s*°C/);
      await screenshot(page, `monitoring-before-${locale}`);

      // The device moves to Suzhou and warms to 9.3 C (above the vehicle's 8 C).
      await publish(device, { lat: 31.2989, lon: 120.5853, speed: 72, acc: true, extraData: '{"3":{"temp":93,"humidity":610}}' });
      await expect.poll(async () => Number(await marker.getAttribute('data-lat')), { timeout: 10_000 }).toBeCloseTo(31.2989, 4);
      expect(Number(await marker.getAttribute('data-lon'))).toBeCloseTo(120.5853, 4);
      await expect.poll(() => detail.locator('[data-testid=monitor-detail-temperature]').textContent(), { timeout: 10_000 }).toMatch(/9\.3\s*°C/);
      await expect.poll(() => row.locator('[data-testid=monitor-cell-temperature]').getAttribute('data-out-of-range'), { timeout: 10_000 }).toBe('true');
      await screenshot(page, `monitoring-after-${locale}`);
    });
  });
});
