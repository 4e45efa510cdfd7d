// Browser test of the history track's playback on the real server, in both languages: a device
// reports an hour's drive along a straight line over HTTP with the temperature rising and falling;
// the history screen opened for it by address draws the map and the curves; playing at 64x moves
// the playhead, and the marker stands where the track is at that instant; hovering the curves moves
// the marker to the point at the hovered time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TrackAnswer } from '@iotc/shared/track';
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

const POINTS = 360;
const STEP_MS = 10_000;
const FROM_POS: [number, number] = [31.2, 121.4];
const TO_POS: [number, number] = [31.3, 121.6];

/** An hour of reports every 10 s ending ten minutes ago, along a line, temperature 2..9 °C. */
function drive(deviceId: string, start: number) {
  return Array.from({ length: POINTS }, (_, i) => {
    const r = i / (POINTS - 1);
    const temp = 5.5 + 3.5 * Math.sin((i / POINTS) * 2 * Math.PI);
    return {
      deviceId,
      time: new Date(start + i * STEP_MS).toISOString(),
      lat: FROM_POS[0] + (TO_POS[0] - FROM_POS[0]) * r,
      lon: FROM_POS[1] + (TO_POS[1] - FROM_POS[1]) * r,
      positioning: 'GPS',
      network: '4G',
      speed: 60 + 20 * Math.sin(i / 20),
      course: 60,
      extraData: JSON.stringify({ 3: { temp: Math.round(temp * 10), humidity: 600 + (i % 50) } }),
    };
  });
}

function distanceM(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b[0] - a[0]) * rad) / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(((b[1] - a[1]) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}

/** The track's position at `t`, straight between the two points around it (all GPS, no gaps here). */
function interpolate(p: TrackAnswer['points'], t: number): [number, number] {
  let k = 0;
  while (k + 1 < p.t.length && p.t[k + 1]! <= t) k += 1;
  if (k + 1 >= p.t.length || t <= p.t[0]!) return t <= p.t[0]! ? [p.lat[0]!, p.lon[0]!] : [p.lat[k]!, p.lon[k]!];
  const r = (t - p.t[k]!) / (p.t[k + 1]! - p.t[k]!);
  return [p.lat[k]! + (p.lat[k + 1]! - p.lat[k]!) * r, p.lon[k]! + (p.lon[k + 1]! - p.lon[k]!) * r];
}

const LABELS = {
  'en-US': { title: 'History track', follow: 'Follow vehicle', stats: 'Trip statistics' },
  'zh-CN': { title: '历史轨迹', follow: '跟随车辆', stats: '行程统计' },
} as const;

let attempt = 0;

describe.each(['en-US', 'zh-CN'] as const)('history track playback in %s', (locale) => {
  it('plays the track with the marker on it, and follows a hover over the curves', async () => {
    // A new device per attempt: a retried test must not meet the first attempt's device.
    const tag = `${locale === 'en-US' ? 'EN' : 'ZH'}${++attempt}`;
    const device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: `TRACK${tag}0001`, name: `Track truck ${tag}` });
    const start = Math.floor((Date.now() - 70 * 60_000) / 1000) * 1000;
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
      payload: JSON.stringify(drive(device.deviceId, start)),
    });
    expect(res.statusCode, res.body).toBe(200);
    const from = new Date(start - 60_000).toISOString();
    const to = new Date(start + POINTS * STEP_MS + 60_000).toISOString();
    const track = await api<TrackAnswer>('GET', `/api/iot/v2/tracks?deviceId=${device.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&maxPoints=5000`);
    expect(track.points.t).toHaveLength(POINTS);
    expect(track.simplified).toBe(false);

    await withBrowser(locale, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.locator('#account').fill('admin');
      await page.locator('#password').fill(ADMIN_PASSWORD);
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');

      await page.goto(`${server.url}/view/transport/history?type=101&deviceId=${device.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
      const map = page.locator('[data-testid=track-map]');
      const curves = page.locator('[data-testid=track-curves]');
      await map.waitFor();
      await curves.waitFor();
      await page.locator('[data-testid=track-stats]').waitFor();
      const marker = async () => JSON.parse((await map.getAttribute('data-marker')) ?? 'null') as [number, number] | null;
      const playhead = async () => Number(await curves.getAttribute('data-playhead'));
      await expect.poll(playhead).toBe(track.points.t[0]);
      await expect.poll(marker).toEqual([track.points.lat[0], track.points.lon[0]]);

      // The visible labels are in the browser's language.
      const labels = LABELS[locale];
      expect(await page.locator('[data-testid=screen-title]').textContent()).toBe(labels.title);
      expect(await page.locator('[data-testid=playback-bar]').textContent()).toContain(labels.follow);
      expect(await page.locator('.track-side').textContent()).toContain(labels.stats);

      // 64x, play, a moment, pause (an hour at 64x lasts about a second: it may already have ended).
      await page.locator('[data-testid=playback-speed]').click();
      await page.locator('.ant-select-item-option', { hasText: /^64x$/ }).click();
      const play = page.locator('[data-testid=playback-play]');
      await play.click();
      await page.waitForTimeout(350);
      for (let i = 0; i < 3 && (await play.getAttribute('data-playing')) === 'true'; i += 1) {
        await play.click();
        await page.waitForTimeout(50);
      }
      expect(await play.getAttribute('data-playing')).toBe('false');
      const at = await playhead();
      expect(at).toBeGreaterThan(track.points.t[0]!);
      expect(at).toBeLessThanOrEqual(track.points.t[POINTS - 1]!);
      const shown = await marker();
      expect(shown).not.toBeNull();
      expect(distanceM(shown!, interpolate(track.points, at))).toBeLessThan(3);
      // The label shows the same instant in the browser's time zone.
      const label = await page.evaluate((ms) => {
        const d = new Date(ms);
        const p = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
      }, at);
      await expect.poll(() => page.locator('[data-testid=playback-time]').textContent()).toBe(label);
      await screenshot(page, `track-playback-${locale}`);

      // Hovering the temperature curve a third of the way along moves the marker to the point there.
      // The curves sit below the map: bring them into the window first (a pointer outside the
      // window moves nothing), then move onto them in steps so the chart sees the pointer arrive.
      const chart = page.locator('[data-testid=track-curves-chart]');
      await chart.scrollIntoViewIfNeeded();
      const box = (await chart.boundingBox())!;
      const before = await marker();
      await page.mouse.move(box.x + box.width / 2, box.y - 10);
      await page.mouse.move(box.x + 56 + (box.width - 80) * 0.3, box.y + 28 + 44, { steps: 5 });
      await expect.poll(async () => curves.getAttribute('data-hover')).not.toBeNull();
      const hoverT = Number(await curves.getAttribute('data-hover'));
      const i = track.points.t.indexOf(hoverT);
      expect(i).toBeGreaterThan(0);
      await expect.poll(marker).toEqual([track.points.lat[i], track.points.lon[i]]);
      expect(await marker()).not.toEqual(before);
      await screenshot(page, `track-curves-${locale}`);
      // Leaving the curves puts the marker back at the playhead.
      await page.mouse.move(box.x + box.width / 2, box.y - 200);
      await expect.poll(async () => distanceM((await marker())!, interpolate(track.points, at))).toBeLessThan(3);
    });
  });
});
