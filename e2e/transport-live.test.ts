// Browser test of a device-limited live screen: the transport status monitor subscribes the live
// channel to the devices of the tasks it shows (not the whole fleet) and to task changes. A report
// of the task's device changes its temperature and last report on the screen, and a task started
// elsewhere appears, well before the screen's one-minute re-read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TaskDetail } from '@iotc/shared/transport';
import { ADMIN_PASSWORD, apiCall, apiToken, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await apiToken(server);
});
afterAll(async () => {
  await server.close();
});

const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
/** One report of the device over HTTP, stored once this resolves. */
async function report(d: DeviceWithSecret, r: { lat: number; lon: number; temp: number }) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: d.deviceId, time: new Date().toISOString(), lat: r.lat, lon: r.lon, speed: 60, acc: true, extraData: JSON.stringify({ 3: { temp: Math.round(r.temp * 10) } }) }),
  });
  expect(res.statusCode, res.body).toBe(200);
  await server.app.readings.flushed();
}

const shanghai = { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 };
const hangzhou = { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 };
async function runningTask(tag: string): Promise<{ device: DeviceWithSecret; task: TaskDetail }> {
  const device = await apiCall<DeviceWithSecret>(server, token, 'POST', '/api/iot/v2/devices', { deviceId: `TTLIVE${tag}`, name: `Reefer tracker ${tag}` });
  // Reported away from both places: the recogniser neither starts nor ends it; it is started by hand.
  const task = await apiCall<TaskDetail>(server, token, 'POST', '/api/iot/v2/transport-tasks', { goodsName: `Vaccines ${tag}`, deviceIds: [device.id], origin: shanghai, destination: hangzhou });
  await report(device, { lat: 31.1, lon: 121.2, temp: 4.5 });
  await apiCall(server, token, 'POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, { to: 'in_transit', note: '' });
  return { device, task };
}

describe('transport status monitor on the live channel', () => {
  it("follows the shown task's device and task changes, subscribed to those devices only", async () => {
    const { device, task } = await runningTask('A1');
    await withBrowser('en-US', async ({ page }) => {
      const sent: unknown[] = [];
      page.on('websocket', (ws) => ws.on('framesent', (f) => typeof f.payload === 'string' && sent.push(JSON.parse(f.payload))));
      await page.goto(`${server.url}/login`);
      await page.locator('#account').fill('admin');
      await page.locator('#password').fill(ADMIN_PASSWORD);
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname.startsWith('/view'));
      await page.goto(`${server.url}/view/transport/status?type=101`);
      const row = page.locator(`[data-testid=status-task][data-id="${task.id}"]`);
      await row.waitFor();
      await expect.poll(() => row.locator('.status-facts').textContent()).toMatch(/4\.5 °C/);
      // The screen's subscription names the shown task's device, never every device.
      await expect
        .poll(() => sent.some((m) => JSON.stringify(m).includes(`"devices":["${device.id}"]`) && JSON.stringify(m).includes('"tasks":true')))
        .toBe(true);
      expect(sent.some((m) => JSON.stringify(m).includes('"states":true'))).toBe(false);

      await report(device, { lat: 30.9, lon: 120.9, temp: 9.3 });
      await expect.poll(() => row.locator('.status-facts').textContent(), { timeout: 15_000 }).toMatch(/9\.3 °C/);
      await screenshot(page, 'transport-status-live');

      // A task started elsewhere appears without a reload, and the subscription widens to its device.
      const other = await runningTask('B2');
      await page.locator(`[data-testid=status-task][data-id="${other.task.id}"]`).waitFor({ timeout: 15_000 });
      await expect.poll(() => sent.some((m) => JSON.stringify(m).includes(other.device.id))).toBe(true);
    });
  });
});
