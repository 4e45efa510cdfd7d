// Addresses (issue 26, item 3) in the browser, offline: GEOCODER_URL points at this test's own
// stand-in for Nominatim. In English and in Chinese, the new-template form finds the origin by
// its address (the answer in the page's language) and fills its coordinates, and a task's details
// show the address of an origin that has none typed, under its coordinates, as an alarm's details
// do for the alarm's position, the task's shipment report for its origin and destination, and the
// GSP record of a cold room for its warehouse.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRow, LevelRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { TaskDetail } from '@iotc/shared/transport';
import { apiCall, apiToken, screenshot, signInAs, startServer, type Server, withBrowser } from './harness.ts';

let server: Server;
let nominatim: HttpServer;
let token: string;
const asked: URL[] = [];

const PLACE = {
  en: { display_name: 'The Bund, Huangpu District, Shanghai, 200002, China', lat: '31.2400', lon: '121.4900' },
  zh: { display_name: '外滩, 黄浦区, 上海市, 200002, 中国', lat: '31.2400', lon: '121.4900' },
};
const ADDRESS = { en: 'Songjiang Industrial Zone, Songjiang District, Shanghai, China', zh: '松江工业区, 松江区, 上海市, 中国' };

function playNominatim(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://nominatim');
  asked.push(url);
  const lang = url.searchParams.get('accept-language') === 'zh' ? 'zh' : 'en';
  res.writeHead(200, { 'content-type': 'application/json' });
  if (url.pathname === '/search') return res.end(JSON.stringify([PLACE[lang]]));
  if (url.pathname === '/reverse') return res.end(JSON.stringify({ lat: url.searchParams.get('lat'), lon: url.searchParams.get('lon'), display_name: ADDRESS[lang] }));
  res.end('[]');
}

beforeAll(async () => {
  nominatim = createServer(playNominatim);
  await new Promise<void>((resolve) => nominatim.listen(0, '127.0.0.1', resolve));
  server = await startServer({ geocoder: { url: `http://127.0.0.1:${(nominatim.address() as AddressInfo).port}`, ratePerSecond: 50, timeoutMs: 5_000 } });
  token = await apiToken(server);
}, 120_000);
afterAll(async () => {
  await server?.close();
  nominatim?.closeAllConnections();
  await new Promise((r) => nominatim?.close(r));
});

const TEXTS = {
  'en-US': { lang: 'en', typed: 'The Bund', option: PLACE.en.display_name, address: ADDRESS.en, tag: 'EN' },
  'zh-CN': { lang: 'zh', typed: '外滩', option: PLACE.zh.display_name, address: ADDRESS.zh, tag: 'ZH' },
} as const;

let attempt = 0;

describe.each(['en-US', 'zh-CN'] as const)('addresses in %s', (locale) => {
  it('finds a place by its address in a form and shows the address of a task’s origin', async () => {
    const text = TEXTS[locale];
    // A new device per attempt: a retried test must not meet the first attempt's.
    const device = await apiCall<DeviceWithSecret>(server, token, 'POST', '/api/iot/v2/devices', { deviceId: `GEO${text.tag}${++attempt}0001`, name: `Geo truck ${text.tag}` });
    const task = await apiCall<TaskDetail>(server, token, 'POST', '/api/iot/v2/transport-tasks', {
      goodsName: 'Vaccines',
      deviceIds: [device.id],
      origin: { name: 'Songjiang DC', lat: 31.0301, lon: 121.2201, radiusM: 500 },
      destination: { name: 'Qingpu Store', address: 'Qingpu, Shanghai', lat: 31.15, lon: 121.1, radiusM: 500 },
      routeSource: 'drawn',
      route: [
        [31.05, 121.2],
        [31.1, 121.15],
      ],
      plannedStart: new Date(Date.now() + 60 * 60_000).toISOString(),
      plannedArrival: new Date(Date.now() + 3 * 60 * 60_000).toISOString(),
    });

    // An alarm at a position: a policy on the device and a report above its limit.
    const urgent = (await apiCall<Page<LevelRow>>(server, token, 'GET', '/api/iot/v2/alarm-levels?size=100')).rows.find((l) => l.code === 'urgent' && l.orgId === device.orgId)!;
    await apiCall(server, token, 'POST', '/api/iot/v2/alarm-policies', {
      name: `Geo ${text.tag}${attempt} limits`,
      scope: 'devices',
      targets: [device.id],
      rules: [{ id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: urgent.id }],
    });
    const report = await server.app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ deviceId: device.deviceId, time: new Date().toISOString(), lat: 31.2304, lon: 121.4737, extraData: JSON.stringify({ 3: { temp: 93 } }) }),
    });
    expect(report.statusCode, report.body).toBe(200);
    const alarmOf = async () => (await apiCall<Page<AlarmRow>>(server, token, 'GET', `/api/iot/v2/alarms?deviceId=${device.id}`)).rows[0];
    await expect.poll(alarmOf, { timeout: 20_000 }).toBeTruthy();
    const alarm = (await alarmOf())!;

    await withBrowser(locale, async ({ page }) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signInAs(page, server);

      // The new-template form: the origin found by its address fills its coordinates.
      await page.goto(`${server.url}/view/transport/templates`);
      await page.locator('[data-testid=tt-template-new]').click();
      const search = page.locator('[data-testid=ttTemplate-origin-search]');
      await search.waitFor({ timeout: 15_000 });
      await search.click();
      await page.keyboard.type(text.typed);
      const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: text.option });
      await option.waitFor({ timeout: 15_000 });
      await screenshot(page, `geocoder-search-${locale}`);
      const searched = asked.filter((u) => u.pathname === '/search').at(-1)!;
      expect([searched.searchParams.get('q'), searched.searchParams.get('accept-language')]).toEqual([text.typed, text.lang]);
      await option.click();
      // The coordinate fields show six decimals.
      await expect.poll(async () => Number(await page.locator('#ttTemplate_origin_lat').inputValue())).toBe(31.24);
      expect(Number(await page.locator('#ttTemplate_origin_lon').inputValue())).toBe(121.49);
      expect(await page.locator('#ttTemplate_origin_address').inputValue()).toBe(text.option);
      expect(await page.locator('#ttTemplate_origin_name').inputValue()).toBe(text.option.split(',')[0]);
      await screenshot(page, `geocoder-filled-${locale}`);

      // The task's details: the origin has no typed address, so the geocoder's shows under it;
      // the destination keeps its own.
      await page.goto(`${server.url}/view/transport/tasks?id=${task.id}`);
      const address = page.locator('[data-testid=task-origin-address]');
      await address.waitFor({ timeout: 15_000 });
      expect(await address.textContent()).toBe(text.address);
      expect(await page.locator('[data-testid=task-destination-address]').count()).toBe(0);
      await screenshot(page, `geocoder-task-${locale}`);

      // Its shipment report (a task that has started has one): the origin's address from the geocoder under its name and
      // coordinates, the destination's own address under its.
      await apiCall(server, token, 'POST', `/api/iot/v2/transport-tasks/${task.id}/transition`, { to: 'in_transit', note: '' });
      await page.reload();
      await page.locator('[data-testid=tt-detail-report]').click();
      const reportOrigin = page.locator('[data-testid=sr-origin-address]');
      await reportOrigin.waitFor({ timeout: 15_000 });
      expect(await reportOrigin.textContent()).toBe(text.address);
      expect(await page.locator('[data-testid=sr-destination-address]').textContent()).toBe('Qingpu, Shanghai');
      await screenshot(page, `geocoder-shipment-report-${locale}`);
      await page.locator('[data-testid=sr-close]').click();

      // The alarm's details: its position with the address under it.
      await page.goto(`${server.url}/view/alarm/query?alarm=${alarm.id}`);
      const alarmAddress = page.locator('[data-testid=alarm-detail-address]');
      await alarmAddress.waitFor({ timeout: 15_000 });
      expect(await alarmAddress.textContent()).toBe(text.address);
      await alarmAddress.scrollIntoViewIfNeeded();
      await screenshot(page, `geocoder-alarm-${locale}`);

      // The GSP record of a cold room in a warehouse on a library place: the warehouse's address
      // from the geocoder under its coordinates, in the record's header.
      const place = await apiCall<{ id: string }>(server, token, 'POST', '/api/iot/v2/places', { name: `Geo hub ${text.tag}${attempt}`, shape: 'circle', lat: 31.03, lon: 121.22, radiusM: 300 });
      const wh = await apiCall<{ id: string }>(server, token, 'POST', '/api/iot/v2/warehouses', { code: `GEO-WH-${text.tag}${attempt}`, name: `Geo DC ${text.tag}`, placeId: place.id });
      const room = await apiCall<{ id: string }>(server, token, 'POST', '/api/iot/v2/cold-rooms', { code: `GEO-CR-${text.tag}${attempt}`, name: `Geo room ${text.tag}`, parentId: wh.id, tempMin: 2, tempMax: 8 });
      await page.goto(`${server.url}/view/report/temperature?kind=cold_room&assetId=${room.id}&period=day`);
      const whAddress = page.locator('[data-testid=gsp-warehouse-address]');
      await whAddress.waitFor({ timeout: 15_000 });
      expect(await whAddress.textContent()).toBe(text.address);
      await screenshot(page, `geocoder-gsp-${locale}`);
    });
  }, 120_000);
});
