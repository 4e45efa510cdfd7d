// Browser test of the security headers: the content security policy lets the real console work.
// Every CSP violation (the browser's console reports and `securitypolicyviolation` events) is
// recorded while a user signs in and opens home, live monitoring with its WebSocket and a tile
// layer from a configured tile host, a device's details, real-time alarms, track playback, a
// report, and the public ledger verification page with its PDF certificate, in Chinese and
// English; none may happen. The collector itself is shown to catch an inline script.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { apiCall, ADMIN_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let tiles: HttpServer;
let tileRequests = 0;
let token: string;
let device: DeviceWithSecret;
let shareUrl: string;
const from = new Date(Date.now() - 3_600_000).toISOString();
const to = new Date(Date.now() + 60_000).toISOString();

// A 1x1 transparent PNG: every tile of the test tile host.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

beforeAll(async () => {
  // Tiles from `a.localhost` and `b.localhost` (Chromium resolves *.localhost to this machine).
  tiles = createServer((_req, res) => {
    tileRequests++;
    res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  await new Promise<void>((r) => tiles.listen(0, '127.0.0.1', () => r()));
  const tilePort = (tiles.address() as AddressInfo).port;
  server = await startServer({
    map: { tileUrl: `http://{s}.localhost:${tilePort}/{z}/{x}/{y}.png`, tileSubdomains: 'ab', tileAttribution: 'Test tiles', tileCrs: 'wgs84', tileMaxZoom: 18 },
  });
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;
  device = await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: 'CSP-TRUCK-1', name: 'CSP truck' });
  // Half an hour of a truck driving, one report a minute, over the HTTP intake, the last one two
  // minutes ago: the ledger takes a minute 30 s after its end, so a last reading one minute old
  // was not taken in the first half of a minute and the test failed at such times.
  const reports = Array.from({ length: 30 }, (_, i) => ({
    deviceId: device.deviceId,
    time: new Date(Date.now() - (31 - i) * 60_000).toISOString(),
    lat: 31.2 + i * 0.002,
    lon: 121.4 + i * 0.002,
    speed: 40,
    acc: true,
    extraData: '{"3":{"temp":50,"humidity":600}}',
  }));
  const intake = await server.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
    payload: JSON.stringify(reports),
  });
  expect((intake.json() as { data: { accepted: number } }).data.accepted).toBe(30);
  await server.app.readings.flushed();
  // The readings in the ledger under a signed tree head, and a public link to them: the ledger
  // takes closed minutes of stored readings, so they are given their device times as stored
  // times and its feeder goes back to them (as e2e/ledger.test.ts does).
  const db = server.app.database.db;
  await db.execute(sql`update telemetry set received_at = time where device_ref = ${device.id}`);
  const firstMinute = new Date(Math.floor(Date.parse(reports[0]!.time) / 60_000) * 60_000).toISOString();
  await db.execute(sql`update ledger_watermarks set value = ${JSON.stringify({ minute: firstMinute, deviceRef: '00000000-0000-0000-0000-000000000000' })} where source = 'sensor'`);
  while ((await server.app.ledger.tick()) > 0);
  await server.app.ledger.checkpoint();
  // The range ends at the last reading, so every record of it is under the signed head.
  const shared = { deviceId: device.id, from: reports[0]!.time, to: new Date(Date.parse(reports.at(-1)!.time) + 1000).toISOString() };
  shareUrl = (await api<{ url: string }>('POST', '/api/iot/v2/ledger/shares', shared)).url;
  if (shareUrl.startsWith('/')) shareUrl = server.url + shareUrl;
});

afterAll(async () => {
  await server?.close();
  await new Promise<void>((r) => (tiles ? tiles.close(() => r()) : r()));
});

/** Records every CSP violation of the context's pages: console reports and DOM events. */
async function recordViolations(context: BrowserContext, page: Page): Promise<string[]> {
  const seen: string[] = [];
  await context.exposeBinding('__cspViolation', (_source, text: string) => void seen.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { __cspViolation: (t: string) => Promise<void> }).__cspViolation(`${e.violatedDirective} blocked ${e.blockedURI} on ${location.pathname}`);
    });
  });
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) seen.push(`console: ${msg.text()}`);
  });
  return seen;
}

describe.each(['zh-CN', 'en-US'] as const)('content security policy in %s', { timeout: 240_000 }, (locale) => {
  it('lets every main screen work without a single violation, and sends the headers', async () => {
    await withBrowser(locale, async ({ context, page }) => {
      const violations = await recordViolations(context, page);

      const login = await page.goto(`${server.url}/login`);
      const h = login!.headers();
      expect(h['content-security-policy']).toContain("script-src 'self'");
      expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(h['content-security-policy']).toContain("object-src 'none'");
      expect(h['content-security-policy']).toContain('http://a.localhost:');
      expect(h['content-security-policy']).toContain('http://b.localhost:');
      expect(h['x-content-type-options']).toBe('nosniff');
      expect(h['x-frame-options']).toBe('DENY');
      expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(h['cross-origin-opener-policy']).toBe('same-origin');
      // Served over http (no https PUBLIC_URL): no HSTS.
      expect(h['strict-transport-security']).toBeUndefined();

      await page.locator('#account').fill('admin');
      await page.locator('#password').fill(ADMIN_PASSWORD);
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname === '/view/deviceManage/realTimeMonitoring');

      // Live monitoring: the WebSocket is open, the map draws tiles of the tile host, a device's details open.
      await page.locator('[data-testid=real-time-monitoring]').waitFor();
      await page.locator('[data-testid=monitor-live][data-state=open]').waitFor();
      const row = page.locator(`tr[data-row-key="${device.id}"]`);
      await row.waitFor();
      await row.click();
      await page.locator('[data-testid=monitor-detail]').waitFor();
      await expect.poll(() => page.locator('.leaflet-tile-loaded').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(tileRequests).toBeGreaterThan(0);
      await screenshot(page, `security-monitoring-${locale}`);

      await page.goto(`${server.url}/view/home/home`);
      await page.locator('[data-testid=home-page]').waitFor();
      await page.goto(`${server.url}/view/alarm/realtime`);
      await page.locator('[data-testid=alarm-realtime]').waitFor();
      await page.goto(`${server.url}/view/transport/history?type=101&deviceId=${device.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
      await page.locator('[data-testid=track-map]').waitFor();
      await page.locator('[data-testid=track-curves]').waitFor();
      await page.locator('[data-testid=track-stats]').waitFor();
      await page.goto(`${server.url}/view/report/online`);
      await page.locator('[data-testid=screen-title]').waitFor();
      await page.locator('[data-testid=ops-table]').first().waitFor();
      // Let late requests (tiles, fonts, charts) finish before judging.
      await page.waitForLoadState('networkidle');

      // The public verification page, signed out, and its PDF certificate.
      await page.goto(shareUrl);
      const overall = page.locator('[data-testid=ledger-public-page] [data-testid=ledger-overall]');
      await overall.waitFor();
      expect(`${await overall.getAttribute('data-state')}: ${await overall.textContent()}`).toMatch(/^ok: /);
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=ledger-certificate]').click()]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      await page.waitForLoadState('networkidle');
      await screenshot(page, `security-verify-${locale}`);

      expect(violations).toEqual([]);

      // The collector does catch a violation: an inline script is refused and recorded.
      await page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__inlineRan = true';
        document.body.append(s);
      });
      await expect.poll(() => violations.length).toBeGreaterThan(0);
      expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    });
  });
});
