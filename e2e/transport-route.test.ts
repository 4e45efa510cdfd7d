// Browser test of a task's planned route, in both languages (issue 22, item 1): a template with
// the origin at longitude 121.22 and the destination at 121.30 (latitude 31.03, 500 m each),
// three points clicked at 121.24, 121.26 and 121.28 and an off-route limit of 500 m; a task made
// from it; a truck reporting straight along the plan, the first and the last leg included. The
// task's details show the whole planned length (origin, points, destination) and the right
// distance left at three points, no off-route alarm is raised on the plan, and a real detour
// 2 km north raises one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRow, LevelRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { TaskDetail, TemplateRow } from '@iotc/shared/transport';
import { apiCall, ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let token: string;

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

beforeAll(async () => {
  server = await startServer();
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;
});
afterAll(async () => {
  await server.close();
});

const LAT = 31.03;
const ORIGIN_LON = 121.22;
const DESTINATION_LON = 121.3;

function distanceM(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b[0] - a[0]) * rad) / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(((b[1] - a[1]) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}
/** Kilometres left from a point on the line to the destination. */
const leftKm = (lon: number) => distanceM([LAT, lon], [LAT, DESTINATION_LON]) / 1000;
const FULL_KM = leftKm(ORIGIN_LON);

const TEXTS = {
  'en-US': { route: /^3 points, ([\d.]+) km$/, openAlarm: 'open alarms: 1' },
  'zh-CN': { route: /^3 个点，([\d.]+) 公里$/, openAlarm: '未关闭告警 1 条' },
} as const;

let attempt = 0;

describe.each(['en-US', 'zh-CN'] as const)('the planned route of a task in %s', (locale) => {
  it('runs from the origin through the drawn points to the destination', async () => {
    // A new device per attempt: a retried test must not meet the first attempt's running task.
    const tag = `${locale === 'en-US' ? 'EN' : 'ZH'}${++attempt}`;
    const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `ROUTE${tag}0001`, name: `Reefer truck ${tag}` });
    const level = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels?size=100')).rows.find((l) => l.code === 'urgent' && l.orgId === device.orgId)!;
    const template = await api<TemplateRow>('POST', '/api/iot/v2/transport-templates', {
      name: `Songjiang -> Qingpu ${tag}`,
      origin: { name: 'Songjiang DC', lat: LAT, lon: ORIGIN_LON, radiusM: 500 },
      destination: { name: 'Qingpu Store', lat: LAT, lon: DESTINATION_LON, radiusM: 500 },
      routeSource: 'drawn',
      route: [
        [LAT, 121.24],
        [LAT, 121.26],
        [LAT, 121.28],
      ],
      alarm: { levelId: level.id, yawM: 500, durationS: 0 },
    });
    const { origin, destination, routeSource, route, alarm, detection } = template;
    const task = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', {
      goodsName: 'Vaccines',
      deviceIds: [device.id],
      templateId: template.id,
      origin,
      destination,
      routeSource,
      route,
      alarm,
      detection,
      plannedStart: new Date(Date.now() - 30 * 60_000).toISOString(),
      plannedArrival: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    await api('POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, { to: 'in_transit', note: '' });

    let at = Date.now() - 150_000;
    const drive = async (lat: number, lon: number) => {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/iot/v2/device/report',
        headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ deviceId: device.deviceId, time: new Date((at += 10_000)).toISOString(), lat, lon, speed: 50 }),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const yaw = async () => (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?size=100&deviceId=${device.id}`)).rows.filter((a) => a.type === 'yaw');

    await withBrowser(locale, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.locator('#account').fill('admin');
      await page.locator('#password').fill(ADMIN_PASSWORD);
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');

      const remaining = page.locator('[data-testid=tt-live-remaining]');
      /** The task's details opened afresh: the distance left it shows, in km. */
      const shownLeft = async () => {
        await page.goto(`${server.url}/view/transport/tasks?id=${task.id}`);
        await remaining.waitFor({ timeout: 15_000 });
        await expect.poll(() => remaining.textContent(), { timeout: 15_000 }).toMatch(/^[\d.]+ km$/);
        return Number((await remaining.textContent())!.replace(' km', ''));
      };

      // The whole planned way, about 7.6 km, not the 3.8 km between the drawn points.
      const fly = async (lons: number[]) => {
        for (const lon of lons) await drive(LAT, lon);
      };
      // On the first leg, before the first drawn point.
      await fly([121.222, 121.226, 121.23]);
      expect(Math.abs((await shownLeft()) - leftKm(121.23))).toBeLessThan(0.15);
      const summary = (await page.locator('[data-testid=tt-detail-route]').textContent())!;
      const planned = Number(TEXTS[locale].route.exec(summary)?.[1]);
      expect(Math.abs(planned - FULL_KM), summary).toBeLessThan(0.15);

      // On the last leg, past the last drawn point: 1.5 km to go, due in the future.
      await fly([121.25, 121.27, 121.28, 121.284]);
      expect(Math.abs((await shownLeft()) - leftKm(121.284))).toBeLessThan(0.15);
      const eta = (await page.locator('[data-testid=tt-live-eta]').textContent())!;
      expect(eta).not.toBe('-');
      await screenshot(page, `transport-route-${locale}`);
      await page.locator('[data-testid=tt-detail-route]').scrollIntoViewIfNeeded();
      await screenshot(page, `transport-route-length-${locale}`);

      // Nearly there, inside the destination's circle.
      await fly([121.288, 121.292, 121.296]);
      expect(Math.abs((await shownLeft()) - leftKm(121.296))).toBeLessThan(0.15);
      // All the way on the plan: no off-route alarm, and the task is not abnormal.
      await server.app.readings.flushed();
      await server.app.alarmEngine.settled();
      expect(await yaw()).toEqual([]);
      expect(await page.locator('[data-testid=tt-detail] [data-testid=tt-abnormal-tag]').count()).toBe(0);

      // A real detour, 2 km north of the last leg: off route.
      await drive(LAT + 0.018, 121.29);
      await expect.poll(async () => (await yaw()).map((a) => a.status), { timeout: 15_000 }).toEqual(['active']);
      const [off] = await yaw();
      expect(off!.value).toBeGreaterThan(1_900);
      await page.goto(`${server.url}/view/transport/tasks?id=${task.id}`);
      const abnormal = page.locator('[data-testid=tt-detail] [data-testid=tt-abnormal-tag]');
      await abnormal.waitFor({ timeout: 15_000 });
      expect(await abnormal.textContent()).toContain(TEXTS[locale].openAlarm);
    });
  });
});
