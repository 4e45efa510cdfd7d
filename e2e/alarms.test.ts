// Browser test of alarms on the real server and the real MQTT path, in both languages: an
// operator signed in anywhere in the console gets a bottom-right notification when a device's
// report over MQTT (QoS 1, embedded broker) breaks a policy's rule; acknowledging it there
// records who acknowledged; the real-time alarm screen lists the alarm with its level and value,
// and a report back in range clears it from that list without a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { startMqtt, type MqttLink } from '../apps/server/src/ingest/mqtt.ts';
import { apiCall, ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let link: MqttLink;
let token: string;

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

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
    await client.publishAsync(`devices/${device.deviceId}/report`, JSON.stringify({ deviceId: device.deviceId, time: new Date().toISOString(), lat: 31.2304, lon: 121.4737, ...report }), { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

describe.each(['en-US', 'zh-CN'] as const)('alarms in %s', (locale) => {
  it('notifies at the bottom right, acknowledges from the notification, and lists and clears the alarm live', async () => {
    const tag = locale === 'en-US' ? 'EN' : 'ZH';
    const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `ALARM${tag}0001`, name: `Reefer ${tag}` });
    const urgent = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100')).rows.find((l) => l.code === 'urgent' && l.orgId === device.orgId)!;
    await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', {
      name: `Reefer ${tag} limits`,
      scope: 'devices',
      targets: [device.id],
      rules: [{ id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: urgent.id }],
    });
    await publish(device, { extraData: '{"3":{"temp":50}}' });

    await withBrowser(locale, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.locator('#account').fill('admin');
      await page.locator('#password').fill(ADMIN_PASSWORD);
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');
      await page.locator('[data-testid=real-time-monitoring]').waitFor();
      // The layout's notifier opens its own live channel as the console mounts, before the
      // monitoring screen's; once the screen's is open, give the notifier's a moment too.
      await page.locator('[data-testid=monitor-live][data-state=open]').waitFor();
      await page.waitForTimeout(1000);

      // 9.3 C: above the 8 C limit.
      await publish(device, { extraData: '{"3":{"temp":93}}' });
      const note = page.locator('.ant-notification-notice').filter({ has: page.locator('[data-testid=alarm-notification]') });
      await note.waitFor({ timeout: 10_000 });
      const box = (await note.boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(box.x + box.width).toBeGreaterThan(viewport.width - 60);
      expect(box.y + box.height).toBeGreaterThan(viewport.height / 2);
      await expect.poll(() => note.textContent()).toContain(locale === 'en-US' ? 'Temperature high' : '温度过高');
      expect(await note.textContent()).toContain(device.deviceId);
      await screenshot(page, `alarm-notification-${locale}`);

      const [alarm] = (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${device.id}&status=active`)).rows;
      expect(alarm).toMatchObject({ type: 'temp_high', value: 9.3, acknowledgedAt: null });
      await note.locator('[data-testid=alarm-notification-acknowledge]').click();
      await note.waitFor({ state: 'detached' });
      await expect.poll(async () => (await api<AlarmRow>('GET', `/api/iot/v2/alarms/${alarm!.id}`)).acknowledgedBy).toBe('admin');

      await page.goto(`${server.url}/view/alarm/realtime`);
      const row = page.locator(`tr[data-row-key="${alarm!.id}"]`);
      await row.waitFor();
      await page.locator('[data-testid=alarm-live][data-state=open]').waitFor();
      expect(await row.locator('[data-testid=alarm-cell-level]').textContent()).toBe(locale === 'en-US' ? 'Urgent' : '紧急');
      expect(await row.locator('[data-testid=alarm-cell-value]').textContent()).toMatch(/9\.3/);
      await screenshot(page, `alarm-realtime-${locale}`);

      // Back to 5.0 C: cleared, so it leaves the list of active alarms without a reload.
      await publish(device, { extraData: '{"3":{"temp":50}}' });
      await row.waitFor({ state: 'detached', timeout: 10_000 });
      expect((await api<AlarmRow>('GET', `/api/iot/v2/alarms/${alarm!.id}`)).status).toBe('cleared');
    });
  });
});
