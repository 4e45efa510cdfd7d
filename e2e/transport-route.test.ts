// Browser test of a task's planned route, in both languages (issue 22, item 1): a template with
// the origin at longitude 121.22 and the destination at 121.30 (latitude 31.03, 500 m each),
// three points clicked at 121.24, 121.26 and 121.28 and an off-route limit of 500 m; a task made
// from it; a truck reporting straight along the plan, the first and the last leg included. The
// task's details show the whole planned length (origin, points, destination) and the right
// distance left at three points, no off-route alarm is raised on the plan (none on the task alarm
// screen, the task not abnormal), and a real detour 2 km north raises one, seen on the task alarm
// screen as 'Yaw' / '偏航'. The truck reports through the device intake (HTTP report, Basic
// authentication). Then a short temperature excursion: the shipment dialog and the shipment PDF
// say the same time out of range and that their figures are of every reading (issue 22 item 4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRow, LevelRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { ShipmentReport } from '@iotc/shared/report';
import type { TaskDetail, TemplateRow } from '@iotc/shared/transport';
import { HAS_PDFTOTEXT, pdfText } from '../apps/server/src/test/pdf-text.ts';
import { apiCall, ADMIN_PASSWORD, pageToken, screenshot, signInAs, startServer, withBrowser, type Server } from './harness.ts';

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
  'en-US': { route: /^3 points, ([\d.]+) km$/, openAlarm: 'open alarms: 1', yaw: 'Yaw', everyReading: /^Every reading \(\d+ readings\), not a sampled record$/, outOfRange: 'Time out of range (cumulative)' },
  'zh-CN': { route: /^3 个点，([\d.]+) 公里$/, openAlarm: '未关闭告警 1 条', yaw: '偏航', everyReading: /^全部读数（共 \d+ 条），非采样记录$/, outOfRange: '超温累计时长' },
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
      // A cold chain: 2-8 °C, for the excursion at the end.
      tempMin: 2,
      tempMax: 8,
      alarm,
      detection,
      plannedStart: new Date(Date.now() - 30 * 60_000).toISOString(),
      plannedArrival: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    await api('POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, { to: 'in_transit', note: '' });

    let at = Date.now() - 150_000;
    /** One report through the device intake, `stepMs` after the last; 5.0 °C unless told. */
    const drive = async (lat: number, lon: number, temp = 5, stepMs = 10_000) => {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/iot/v2/device/report',
        headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ deviceId: device.deviceId, time: new Date((at += stepMs)).toISOString(), lat, lon, speed: 50, extraData: JSON.stringify({ 3: { temp: Math.round(temp * 10) } }) }),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const yaw = async () => (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?size=100&deviceId=${device.id}`)).rows.filter((a) => a.type === 'yaw');

    await withBrowser(locale, async ({ page }) => {
      await signInAs(page, server);

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
      // The task alarm screen, live, has no alarm of this truck.
      await page.goto(`${server.url}/view/transport/alarms`);
      await page.locator('[data-testid=alarm-live][data-state=open]').waitFor({ timeout: 15_000 });
      const taskRows = page.locator('[data-testid=alarm-realtime] tr[data-row-key]', { hasText: device.deviceId });
      expect(await taskRows.count()).toBe(0);

      // A real detour, 2 km north of the last leg: off route.
      await drive(LAT + 0.018, 121.29);
      await expect.poll(async () => (await yaw()).map((a) => a.status), { timeout: 15_000 }).toEqual(['active']);
      const [off] = await yaw();
      expect(off!.value).toBeGreaterThan(1_900);
      // It arrives on the task alarm screen, still open there, as 'Yaw' of this truck.
      const offRow = page.locator(`[data-testid=alarm-realtime] tr[data-row-key="${off!.id}"]`);
      await offRow.waitFor({ timeout: 15_000 });
      expect(await offRow.textContent()).toContain(TEXTS[locale].yaw);
      expect(await taskRows.count()).toBe(1);
      await screenshot(page, `transport-route-yaw-${locale}`);
      await page.goto(`${server.url}/view/transport/tasks?id=${task.id}`);
      const abnormal = page.locator('[data-testid=tt-detail] [data-testid=tt-abnormal-tag]');
      await abnormal.waitFor({ timeout: 15_000 });
      expect(await abnormal.textContent()).toContain(TEXTS[locale].openAlarm);

      // Back on the plan, a short excursion above 8 °C at uneven seconds, then in range again. The
      // report covers the task from its start to now: these readings come after the start, and
      // the dialog opens once now is past them all (the report counts every one).
      const startedAt = Date.parse((await api<TaskDetail>('GET', `/api/iot/v2/transport-tasks/${task.id}`)).startedAt!);
      at = Math.max(at, startedAt);
      const before = (await api<ShipmentReport>('GET', `/api/iot/v2/reports/shipment/${task.id}`)).readings;
      await drive(LAT, 121.297, 5, 5_000);
      for (const temp of [9.1, 9.6, 10.2, 9.4, 9.8, 9.3]) await drive(LAT, 121.298, temp, 13_000);
      await drive(LAT, 121.299, 5.5, 9_000);
      await server.app.readings.flushed();
      await expect.poll(async () => (await api<ShipmentReport>('GET', `/api/iot/v2/reports/shipment/${task.id}`)).readings, { timeout: 120_000, interval: 2_000 }).toBe(before + 8);
      // The shipment dialog and the PDF say the same time out of range, of every reading.
      await page.locator('[data-testid=tt-detail-report]').click();
      const outOfRange = page.locator('[data-testid=sr-out-of-range]');
      await outOfRange.waitFor({ timeout: 15_000 });
      const shown = (await outOfRange.textContent())!;
      expect(shown).toMatch(locale === 'en-US' ? /^\d+ min \d\d s$/ : /^\d+分\d\d秒$/);
      expect(shown).not.toMatch(/^0/);
      expect(await page.locator('[data-testid=sr-basis]').textContent()).toMatch(TEXTS[locale].everyReading);
      await screenshot(page, `transport-route-report-${locale}`);
      if (HAS_PDFTOTEXT) {
        const res = await server.app.inject({ method: 'GET', url: `/api/iot/v2/reports/shipment/${task.id}?format=pdf`, headers: { access_token: await pageToken(page), language: locale, timezone: 'Asia/Shanghai' } });
        expect(res.statusCode).toBe(200);
        const text = await pdfText(res.rawPayload);
        expect(text).toContain(`${TEXTS[locale].outOfRange} ${shown}`);
        expect(text).toMatch(new RegExp(TEXTS[locale].everyReading.source.slice(1, -1)));
      }
    });
  }, 240_000);
});
