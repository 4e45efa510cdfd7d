// Browser test of ledger verification on the real server, in zh-CN and en-US: a device's readings
// over three minutes are logged (the ledger's tick, as the server test forces it) and signed; the
// verify screen shows all of them verified; one stored reading is changed with SQL in the app's
// database and, after a reload, exactly that minute shows "does not match"; a share link made on
// the screen opens without login in a fresh browser, flags the same record and downloads the PDF
// certificate.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { orgs } from '../apps/server/src/db/schema.ts';
import { apiCall, ADMIN_PASSWORD, DEMO_PASSWORD, screenshot, startServer, withBrowser, type Server } from './harness.ts';

let server: Server;
let token: string;
let demoOrg: string;
let device: DeviceWithSecret & { id: string };
/** Minute starts (ms) of the seeded readings. */
const minutes: number[] = [];

const iso = (ms: number) => new Date(ms).toISOString();
const db = () => server.app.database.db;

const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) => apiCall<T>(server, token, method, url, body);

/** Readings as the intake stores them, with a past stored time (three per minute, 10 s apart). */
async function insertReadings(deviceRef: string, minuteStart: number, temps: number[]) {
  for (const [i, temp] of temps.entries()) {
    const at = minuteStart + 5_000 + i * 10_000;
    await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, speed, raw, sensors)
      values (${demoOrg}, ${deviceRef}, ${iso(at - 2_000)}::timestamptz, ${iso(at)}::timestamptz, 31.2, 121.5, 40, '{}'::jsonb, ${JSON.stringify({ temperature: temp, humidity: 55 })}::jsonb)`);
  }
}

/** The readings carry a past stored time the feeder has passed: its sensor position goes back to it (as in the ledger's server test). */
async function rewindSensor(minuteStart: number) {
  await db().execute(sql`update ledger_watermarks set value = ${JSON.stringify({ minute: iso(minuteStart), deviceRef: '00000000-0000-0000-0000-000000000000' })} where source = 'sensor'`);
}

/** Sets the temperature of the second reading of a minute. */
async function setTemperature(minuteStart: number, celsius: number) {
  await db().execute(sql`update telemetry set sensors = jsonb_set(sensors, '{temperature}', ${String(celsius)}::jsonb)
    where device_ref = ${device.id} and received_at = ${iso(minuteStart + 15_000)}::timestamptz`);
}

async function signIn(page: Page) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill('demo');
  await page.locator('#password').fill(DEMO_PASSWORD);
  await page.locator('#login-submit').click();
  await page.waitForURL((u) => u.pathname.startsWith('/view/'));
}

const rows = (page: Page) => page.locator('[data-testid=ledger-records] tbody tr.ant-table-row');
const results = (page: Page) => rows(page).evaluateAll((els) => els.map((e) => [e.getAttribute('data-ref'), e.getAttribute('data-result')]));

beforeAll(async () => {
  server = await startServer();
  const res = await server.app.inject({ method: 'POST', url: '/iot-cloud-auth/auth/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }) });
  token = (res.json() as { data: { token: string } }).data.token;
  demoOrg = (await db().select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  device = await api<DeviceWithSecret & { id: string }>('POST', '/api/iot/v2/devices', { deviceId: 'LEDGER-E2E-1', name: 'Ledger tracker', orgId: demoOrg });
  const base = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
  for (const [i, temps] of [[-18.1, -18.2, -18.3], [-18.4, -18.5, -18.6], [-19, -19.1, -19.2]].entries()) {
    minutes.push(base + i * 60_000);
    await insertReadings(device.id, base + i * 60_000, temps);
  }
  await rewindSensor(base);
  while ((await server.app.ledger.tick()) > 0);
  await server.app.ledger.checkpoint();
});

afterAll(async () => {
  await server?.close();
});

const TEXT = {
  'zh-CN': { all: '全部 3 条记录验证通过', bad: '3 条记录中有 1 条不一致', mismatch: '不一致', reason: '存储的数据在记入账本后被修改', verified: '验证通过', invalid: '此验证链接无效或已过期' },
  'en-US': { all: 'All 3 records verified', bad: '1 of 3 records do not match', mismatch: 'Does not match', reason: 'The stored data was changed after it was logged', verified: 'Verified', invalid: 'This verification link is not valid or has expired' },
} as const;

describe('ledger verification', { timeout: 180_000 }, () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    it(`verifies a device's minutes, flags exactly the changed one, also on the public page (${locale})`, async () => {
      const text = TEXT[locale];
      const target = minutes[1]!;
      const targetRef = `sensor:${device.id}:${iso(target)}`;
      const address = `${server.url}/view/ledger/verify?scope=device&deviceId=${device.id}&from=${encodeURIComponent(iso(minutes[0]! - 3_600_000))}&to=${encodeURIComponent(iso(Date.now() + 60_000))}`;
      let shareUrl = '';
      try {
        await withBrowser(locale, async ({ page }) => {
          await signIn(page);
          await page.goto(address);
          await page.locator('[data-testid=ledger-overall][data-state=ok]').waitFor();
          expect(await page.locator('[data-testid=ledger-overall]').textContent()).toBe(text.all);
          expect((await results(page)).map(([, r]) => r)).toEqual(['verified', 'verified', 'verified']);
          expect(await rows(page).first().textContent()).toContain(text.verified);
          // The picker shows the device from the address.
          expect(await page.locator('[data-testid=ledger-pick]').textContent()).toContain('LEDGER-E2E-1');
          await screenshot(page, `ledger-verified-${locale}`);

          // A stored reading changed behind the application's back.
          await setTemperature(target, -25);
          await page.reload();
          await page.locator('[data-testid=ledger-overall][data-state=problems]').waitFor();
          expect(await page.locator('[data-testid=ledger-overall]').textContent()).toBe(text.bad);
          const got = await results(page);
          expect(got.filter(([, r]) => r !== 'verified')).toEqual([[targetRef, 'digest-mismatch']]);
          expect(got).toHaveLength(3);
          const bad = page.locator(`[data-testid=ledger-records] tr[data-ref="${targetRef}"]`);
          expect(await bad.textContent()).toContain(text.mismatch);
          expect(await bad.textContent()).toContain(text.reason);
          await page.locator('[data-testid=ledger-only-problems]').click();
          await expect.poll(() => rows(page).count()).toBe(1);
          await screenshot(page, `ledger-mismatch-${locale}`);

          // Share: a public link of the same device range.
          await page.locator('[data-testid=ledger-share]').click();
          await expect.poll(() => page.locator('[data-testid=ledger-share-url]').inputValue()).toMatch(/\/verify\/[\w-]{20,}$/);
          shareUrl = await page.locator('[data-testid=ledger-share-url]').inputValue();
          expect(shareUrl.startsWith(server.url)).toBe(true);
          await page.locator('[data-testid=ledger-certificate]').waitFor();
        });

        // The public page in a fresh browser, never signed in.
        await withBrowser(locale, async ({ page }) => {
          await page.goto(shareUrl);
          await page.locator('[data-testid=ledger-public-page] [data-testid=ledger-overall][data-state=problems]').waitFor();
          expect(page.url()).toBe(shareUrl);
          expect(await page.locator('[data-testid=ledger-overall]').textContent()).toBe(text.bad);
          expect((await results(page)).filter(([, r]) => r !== 'verified')).toEqual([[targetRef, 'digest-mismatch']]);
          expect(await page.locator('[data-testid=ledger-subject]').textContent()).toContain('LEDGER-E2E-1');
          await page.locator('[data-testid=ledger-how]').waitFor();
          await screenshot(page, `ledger-public-${locale}`);
          // The certificate downloads without login too: a PDF.
          const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=ledger-certificate]').click()]);
          expect(download.suggestedFilename()).toMatch(/\.pdf$/);
          expect(readFileSync((await download.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');

          await page.goto(`${server.url}/verify/${'x'.repeat(43)}`);
          await page.locator('[data-testid=ledger-invalid]').waitFor();
          expect(await page.locator('[data-testid=ledger-invalid]').textContent()).toContain(text.invalid);
        });
      } finally {
        await setTemperature(target, -18.5);
      }
    });
  }
});
