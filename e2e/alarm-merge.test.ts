// Browser test of one alarm per problem, in both languages: a demo-like policy, an own policy and
// a transport task's alarm settings all watch one device's door; one door opening shows as one
// alarm in the alarm query list, and its detail drawer lists the three rules and policies behind it;
// the push rule drawer offers quiet hours and a digest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRow, LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { TaskDetail } from '@iotc/shared/transport';
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

/** A report over the HTTP intake away from the task's origin and destination: the door is open (1) or closed (0). */
async function door(device: DeviceWithSecret, gac: 0 | 1) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: device.deviceId, time: new Date().toISOString(), lat: 30.8, lon: 120.9, speed: 0, extraData: JSON.stringify({ 16: { gac } }) }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe.each(['en-US', 'zh-CN'] as const)('one alarm per problem in %s', (locale) => {
  it('lists one alarm for a door opening seen by three rules, and its detail names them', async () => {
    const tag = locale === 'en-US' ? 'EN' : 'ZH';
    const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `MERGE${tag}0001`, name: `Reefer ${tag}` });
    const levels = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100')).rows.filter((l) => l.orgId === device.orgId);
    const level = (code: string) => levels.find((l) => l.code === code)!.id;
    const rule = (levelId: string) => [{ id: 'door', type: 'door_abnormal', threshold: 0, levelId }];
    await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', { name: `Demo doors ${tag}`, scope: 'devices', targets: [device.id], rules: rule(level('minor')) });
    await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', { name: `Own doors ${tag}`, scope: 'devices', targets: [device.id], rules: rule(level('important')) });
    const task = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', {
      goodsName: 'Vaccines',
      deviceIds: [device.id],
      origin: { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 },
      destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
      alarm: { levelId: level('urgent'), durationS: 0, door: true },
      recipients: [{ name: 'Li', email: 'li@example.com' }],
    });
    await api('POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, { to: 'in_transit', note: '' });

    await door(device, 1);
    await expect.poll(async () => (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${device.id}`)).rows.map((a) => a.sources.length), { timeout: 10_000 }).toEqual([3]);
    const [alarm] = (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${device.id}`)).rows;

    await withBrowser(locale, async ({ page }) => {
      await signInAs(page, server);
      await page.goto(`${server.url}/view/alarm/query`);
      const rows = page.locator('tr[data-row-key]').filter({ hasText: device.deviceId });
      await rows.first().waitFor();
      expect(await rows.count()).toBe(1);
      expect(await rows.first().getAttribute('data-row-key')).toBe(alarm!.id);

      await rows.first().click();
      const sources = page.locator('[data-testid=alarm-detail-sources] [data-testid=alarm-source]');
      await sources.first().waitFor();
      expect(await sources.count()).toBe(3);
      const text = (await page.locator('[data-testid=alarm-detail-sources]').textContent()) ?? '';
      expect(text).toContain(`Demo doors ${tag}`);
      expect(text).toContain(`Own doors ${tag}`);
      expect(text).toContain(locale === 'en-US' ? 'Transport task' : '运输任务');
      expect(text).toContain(locale === 'en-US' ? 'still holding' : '仍在告警');
      const label = page.locator('[data-testid=alarm-detail-fields] th').filter({ hasText: locale === 'en-US' ? 'Raised by' : '告警来源' });
      expect(await label.count()).toBe(1);
      await screenshot(page, `alarm-merge-detail-${locale}`);

      // A push rule's quiet hours and digest sit under its time zone.
      await page.goto(`${server.url}/view/alarm/push`);
      await page.locator('[data-testid=push-rule-new]').click();
      const quiet = page.locator('.push-rule-drawer [data-testid=push-quiet-from]');
      await quiet.waitFor();
      await quiet.scrollIntoViewIfNeeded();
      expect(await page.locator('.push-rule-drawer').textContent()).toContain(locale === 'en-US' ? 'Quiet hours' : '免打扰时段');
      expect(await page.locator('.push-rule-drawer #push_digestMinutes').getAttribute('placeholder')).toBe(locale === 'en-US' ? 'Each message at once' : '逐条立即发送');
      await screenshot(page, `alarm-merge-push-rule-${locale}`);
    });
  });
});
