// Browser test of names as text in map and chart tooltips (issue 19), in both languages: a
// transport task whose origin and destination names, a vehicle whose code and name, and an alarm
// level whose name hold markup are made through the API; transport status monitoring (origin and
// destination circles, Leaflet), the cockpit (the vehicle's dot, ECharts) and the history track
// (the alarm's marker, Leaflet) show the markup as literal text in their tooltips, and no element
// of it (#pwn1, #pwn2, #pwn3) ever reaches the page. The shapes are drawn on canvases, so each is
// found by its colour and hovered there. Screenshots of the tooltips with E2E_SHOTS set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetRow } from '@iotc/shared/asset';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { LevelRow } from '@iotc/shared/alarm';
import type { TaskDetail } from '@iotc/shared/transport';
import { STATUS_COLORS } from '@iotc/shared/live';
import { DESTINATION_COLOR, ORIGIN_COLOR } from '../apps/web/src/features/transport-monitor/components/monitor-model.ts';
import { apiCall, ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

const ORIGIN = '<img src=x id=pwn1>';
const DESTINATION = '<b id=pwn2>bold</b>';
const VEHICLE_CODE = '<img src=x id=pwn1>';
const VEHICLE_NAME = '<b id=pwn2>bold</b>';
const LEVEL_NAME = { 'en-US': '<b id=pwn3>alert</b>', 'zh-CN': '<b id=pwn3>告警</b>' } as const;
/** The alarm level's colour: the only shape of that colour on the history map. */
const LEVEL_COLOR = '#ff00ff';
const FROM_POS: [number, number] = [31.23, 121.47];
const TO_POS: [number, number] = [31.32, 120.62];

let server: Server;
let token: string;
let device: DeviceWithSecret;
let span: { from: string; to: string };

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

beforeAll(async () => {
  server = await startServer();
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;

  const vehicle = await api<AssetRow>('POST', '/api/iot/v2/vehicles', { code: VEHICLE_CODE, name: VEHICLE_NAME });
  device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: 'MARKUP-TRUCK-1', name: 'Markup truck' });
  await api('POST', `/api/iot/v2/devices/${device.id}/bind`, { assetId: vehicle.id });
  const level = await api<LevelRow>('POST', '/api/iot/v2/alarm-levels', { code: 'markup', nameZh: LEVEL_NAME['zh-CN'], nameEn: LEVEL_NAME['en-US'], color: LEVEL_COLOR, priority: 9, sound: false });
  await api('POST', '/api/iot/v2/alarm-policies', { name: 'Too warm', scope: 'devices', targets: [device.id], rules: [{ id: 'warm', type: 'temp_high', threshold: 8, levelId: level.id }] });
  const place = (name: string, [lat, lon]: [number, number]) => ({ name, address: '', lat, lon, radiusM: 3000 });
  const task = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', { goodsName: 'Vaccines', deviceIds: [device.id], assetId: vehicle.id, origin: place(ORIGIN, FROM_POS), destination: place(DESTINATION, TO_POS) });
  await api('POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, { to: 'in_transit', note: '' });

  // Twenty minutes of driving from the origin to half way, warm (12 °C) for a while on the way.
  const start = Math.floor((Date.now() - 21 * 60_000) / 1000) * 1000;
  const reports = Array.from({ length: 21 }, (_, i) => {
    const r = (0.5 * i) / 20;
    return {
      deviceId: device.deviceId,
      time: new Date(start + i * 60_000).toISOString(),
      lat: FROM_POS[0] + (TO_POS[0] - FROM_POS[0]) * r,
      lon: FROM_POS[1] + (TO_POS[1] - FROM_POS[1]) * r,
      speed: 50,
      extraData: JSON.stringify({ 3: { temp: i >= 8 && i <= 12 ? 120 : 50, humidity: 600 } }),
    };
  });
  const intake = await server.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
    payload: JSON.stringify(reports),
  });
  expect(intake.statusCode, intake.body).toBe(200);
  await server.app.readings.flushed();
  await server.app.alarmEngine.settled();
  span = { from: new Date(start - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
});
afterAll(async () => {
  await server?.close();
});

/**
 * The middle of what the canvases under `selector` draw in `hex` (opaque pixels only), in page
 * coordinates; null while nothing is drawn in it.
 */
async function colourAt(page: Page, selector: string, hex: string): Promise<{ x: number; y: number } | null> {
  return page.evaluate(
    ({ selector, hex }) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
      let sx = 0;
      let sy = 0;
      let n = 0;
      for (const canvas of Array.from(document.querySelectorAll<HTMLCanvasElement>(selector))) {
        const ctx = canvas.width && canvas.height ? canvas.getContext('2d') : null;
        if (!ctx) continue;
        const rect = canvas.getBoundingClientRect();
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3]! < 200 || Math.abs(data[i]! - r) > 3 || Math.abs(data[i + 1]! - g) > 3 || Math.abs(data[i + 2]! - b) > 3) continue;
          const p = i / 4;
          sx += rect.left + ((p % canvas.width) + 0.5) * (rect.width / canvas.width);
          sy += rect.top + (Math.floor(p / canvas.width) + 0.5) * (rect.height / canvas.height);
          n++;
        }
      }
      return n ? { x: sx / n, y: sy / n } : null;
    },
    { selector, hex },
  );
}

/**
 * Hovers the shape drawn in `hex` until `tooltip` shows `text`. Each attempt looks for the shape
 * with the mouse off it (a hovered shape is drawn lighter) and moves onto it one poll interval
 * after the last (Leaflet's canvas handles one move per 32 ms and drops the others; a refresh
 * redraws the screen and closes an open tooltip).
 */
async function hoverUntil(page: Page, canvases: string, hex: string, tooltip: string, text: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.mouse.move(1, 1);
        const at = await colourAt(page, canvases, hex);
        if (!at) return `nothing drawn in ${hex}`;
        await page.mouse.move(at.x, at.y);
        const shown = await page.locator(tooltip).allTextContents();
        return shown.some((s) => s.includes(text)) ? 'shown' : `tooltips: ${JSON.stringify(shown)}`;
      },
      { timeout: 30_000, interval: 100 },
    )
    .toBe('shown');
}

/** No element of the planted markup exists anywhere in the page. */
async function noInjectedElements(page: Page): Promise<void> {
  expect(await page.locator('#pwn1, #pwn2, #pwn3').count()).toBe(0);
}

describe.each(['en-US', 'zh-CN'] as const)('names as text in map and chart tooltips (%s)', (locale) => {
  it('shows markup in task places, vehicle codes and names, and level names as literal text', async () => {
    await withBrowser(locale, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.locator('#account').fill('admin');
      await page.locator('#password').fill(ADMIN_PASSWORD);
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname.startsWith('/view'));

      // Transport status monitoring: the origin and destination circles.
      await page.goto(`${server.url}/view/transport/status?type=101`);
      await page.locator('[data-testid=status-task]').waitFor();
      expect(await page.locator('[data-testid=status-task] .status-route').textContent()).toBe(`${ORIGIN} → ${DESTINATION}`);
      const overlay = '[data-testid=status-map] .leaflet-overlay-pane canvas';
      await hoverUntil(page, overlay, ORIGIN_COLOR, '[data-testid=status-map] .leaflet-tooltip', ORIGIN);
      await screenshot(page, `markup-as-text-status-${locale}`);
      await noInjectedElements(page);
      await hoverUntil(page, overlay, DESTINATION_COLOR, '[data-testid=status-map] .leaflet-tooltip', DESTINATION);
      await noInjectedElements(page);

      // The cockpit: the vehicle's dot on the province map.
      await page.goto(`${server.url}/view/cockpit/index`);
      await page.locator('[data-testid=cockpit-map-state][data-vehicles="1"]').waitFor({ state: 'attached' });
      await hoverUntil(page, '[data-testid=cockpit-map] canvas', STATUS_COLORS.driving, '[data-testid=cockpit-map] div', `${VEHICLE_CODE} ${VEHICLE_NAME}`);
      await screenshot(page, `markup-as-text-cockpit-${locale}`);
      await noInjectedElements(page);

      // The history track: the alarm's marker, in the level's colour.
      await page.goto(`${server.url}/view/transport/history?type=101&deviceId=${device.id}&from=${encodeURIComponent(span.from)}&to=${encodeURIComponent(span.to)}`);
      await page.locator('[data-testid=track-stats]').waitFor();
      await hoverUntil(page, '[data-testid=track-map] .leaflet-overlay-pane canvas', LEVEL_COLOR, '[data-testid=track-map] .leaflet-tooltip', LEVEL_NAME[locale]);
      await screenshot(page, `markup-as-text-history-${locale}`);
      await noInjectedElements(page);
    });
  });
});
