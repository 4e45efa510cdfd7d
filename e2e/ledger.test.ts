// Browser test of ledger verification on the real server, in zh-CN and en-US: a device's readings
// over three minutes are logged (the ledger's tick, as the server test forces it) and signed; the
// verify screen shows all of them verified; one stored reading is changed with SQL in the app's
// database and, after a reload, exactly that minute shows "does not match"; a share link made on
// the screen (30 days offered, 90 picked, its end shown) opens without login in a fresh browser,
// flags the same record and downloads the PDF certificate; revoked from the "Share links" tab
// after a confirmation, the same link then says it was revoked, and one whose expiry has passed
// says it expired, in the browser's language.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { LEDGER_API, type ShareAnswer } from '@iotc/shared/ledger/api';
import { ledgerShares, orgs } from '../apps/server/src/db/schema.ts';
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
  'zh-CN': {
    all: '全部 3 条记录验证通过',
    bad: '3 条记录中有 1 条不一致',
    mismatch: '不一致',
    reason: '存储的数据在记入账本后被修改',
    verified: '验证通过',
    invalid: '此验证链接无效',
    revoked: '此验证链接已被撤销',
    expired: '此验证链接已过期',
    revoke: '撤销',
    revokedTag: '已撤销',
    activeTag: '有效',
    validUntil: '有效期至',
  },
  'en-US': {
    all: 'All 3 records verified',
    bad: '1 of 3 records do not match',
    mismatch: 'Does not match',
    reason: 'The stored data was changed after it was logged',
    verified: 'Verified',
    invalid: 'This verification link is not valid',
    revoked: 'This verification link was revoked',
    expired: 'This verification link has expired',
    revoke: 'Revoke',
    revokedTag: 'Revoked',
    activeTag: 'Active',
    validUntil: 'Valid until',
  },
} as const;

const DAY = 86_400_000;

/** Waits until the open dialog or dropdown (`selector`) has finished its opening animation, so a screenshot shows it. */
async function dialogShown(page: Page, selector: string) {
  await page.locator(selector).last().waitFor();
  await page.waitForFunction((sel) => {
    const all = document.querySelectorAll(sel);
    const el = all[all.length - 1];
    return !!el && el.getAnimations({ subtree: true }).length === 0 && getComputedStyle(el).opacity === '1';
  }, selector);
}
const shareRows = (page: Page) => page.locator('[data-testid=ledger-shares] tbody tr.ant-table-row');

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

          // Share: a public link of the same device range, for 90 days instead of the 30 offered.
          await page.locator('[data-testid=ledger-share]').click();
          await dialogShown(page, '.ant-modal');
          expect(await page.locator('[data-testid=ledger-share-expiry] input:checked').getAttribute('value')).toBe('30');
          await screenshot(page, `ledger-share-expiry-${locale}`);
          // "Until a date" asks for the day first.
          await page.locator('[data-testid=ledger-share-expiry] label:has(input[value="date"])').click();
          await page.locator('[data-testid=ledger-share-expiry-date]').waitFor();
          expect(await page.locator('[data-testid=ledger-share-create]').isDisabled()).toBe(true);
          await page.locator('[data-testid=ledger-share-expiry-date]').click();
          await dialogShown(page, '.ant-picker-dropdown');
          await screenshot(page, `ledger-share-date-${locale}`);
          await page.keyboard.press('Escape');
          await page.locator('[data-testid=ledger-share-expiry] label:has(input[value="90"])').click();
          await expect.poll(() => page.locator('[data-testid=ledger-share-expiry] input:checked').getAttribute('value')).toBe('90');
          const before = Date.now();
          await page.locator('[data-testid=ledger-share-create]').click();
          await expect.poll(() => page.locator('[data-testid=ledger-share-url]').inputValue()).toMatch(/\/verify\/[\w-]{20,}$/);
          shareUrl = await page.locator('[data-testid=ledger-share-url]').inputValue();
          expect(shareUrl.startsWith(server.url)).toBe(true);
          expect(await page.locator('[data-testid=ledger-share-expires]').textContent()).toContain(text.validUntil);
          await page.locator('[data-testid=ledger-certificate]').waitFor();
          await screenshot(page, `ledger-share-made-${locale}`);
          const [made] = await db().select().from(ledgerShares).where(eq(ledgerShares.kind, 'device')).orderBy(sql`${ledgerShares.createdAt} desc`).limit(1);
          expect(made!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 90 * DAY - 1000);
          expect(made!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 90 * DAY);
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
          await page.locator('[data-testid=ledger-invalid][data-reason=invalid]').waitFor();
          expect(await page.locator('[data-testid=ledger-invalid]').textContent()).toContain(text.invalid);
        });

        // Revoked from the "Share links" tab, behind a confirmation.
        await withBrowser(locale, async ({ page }) => {
          await signIn(page);
          await page.goto(`${server.url}/view/ledger/verify?view=shares`);
          await page.locator('[data-testid=ledger-shares] tbody tr.ant-table-row').first().waitFor();
          // Newest first: the link just made.
          const row = shareRows(page).first();
          expect(await row.locator('[data-testid=ledger-shares-status]').textContent()).toBe(text.activeTag);
          expect(await row.textContent()).toContain('LEDGER-E2E-1');
          await screenshot(page, `ledger-shares-${locale}`);
          await row.locator('[data-testid=ledger-shares-revoke]').click();
          await dialogShown(page, '.confirm-dialog');
          await screenshot(page, `ledger-shares-revoke-${locale}`);
          await page.locator('.confirm-dialog .ant-btn-dangerous').click();
          await expect.poll(() => shareRows(page).first().locator('[data-testid=ledger-shares-status]').textContent()).toBe(text.revokedTag);
          await page.locator('.confirm-dialog').waitFor({ state: 'detached' });
          expect(await shareRows(page).first().locator('[data-testid=ledger-shares-revoke]').count()).toBe(0);
          await screenshot(page, `ledger-shares-revoked-${locale}`);
        });

        // A link whose expiry has passed (set in the database: the clock is not waited for).
        const other = await api<ShareAnswer>('POST', LEDGER_API.shares, { deviceId: device.id, from: iso(minutes[0]!), to: iso(minutes[2]! + 60_000), expiresInDays: 1 });
        await db().update(ledgerShares).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(ledgerShares.id, other.id));

        // The revoked and the expired link, never signed in, each say what happened.
        await withBrowser(locale, async ({ page }) => {
          await page.goto(shareUrl);
          await page.locator('[data-testid=ledger-invalid][data-reason=revoked]').waitFor();
          expect(await page.locator('[data-testid=ledger-invalid]').textContent()).toContain(text.revoked);
          expect(await page.locator('[data-testid=ledger-overall]').count()).toBe(0);
          await screenshot(page, `ledger-public-revoked-${locale}`);
          await page.goto(`${server.url}${other.url}`);
          await page.locator('[data-testid=ledger-invalid][data-reason=expired]').waitFor();
          expect(await page.locator('[data-testid=ledger-invalid]').textContent()).toContain(text.expired);
          await screenshot(page, `ledger-public-expired-${locale}`);
        });
      } finally {
        await setTemperature(target, -18.5);
      }
    });
  }
});

describe('readings removed by a retention rule', { timeout: 180_000 }, () => {
  const POLICY = 'packs kept 365 days (rule of Demo Cold Chain Co.)';
  beforeAll(async () => {
    // Retention removes the first minute's readings, as its job does: the rows go and a removal
    // row says so; the ledger logs the removal and signs a tree head with it.
    const first = minutes[0]!;
    await db().execute(sql`delete from telemetry where device_ref = ${device.id} and received_at >= ${iso(first)}::timestamptz and received_at < ${iso(first + 60_000)}::timestamptz`);
    await db().execute(sql`insert into retention_removals (org_id, device_ref, what, from_time, to_time, received_from, received_to, readings, policy_org_id, policy)
      values (${demoOrg}, ${device.id}, 'packs', ${iso(first + 3_000)}::timestamptz, ${iso(first + 24_000)}::timestamptz,
        ${iso(first + 5_000)}::timestamptz, ${iso(first + 25_000)}::timestamptz, 3, ${demoOrg}, ${POLICY})`);
    while ((await server.app.ledger.tick()) > 0);
    await server.app.ledger.checkpoint();
  });

  const REMOVED = {
    'zh-CN': { overall: '3 条记录验证通过；1 条记录的读数已按已记入账本的保留策略删除', tag: '已删除', reason: `按策略“${POLICY}”删除`, kind: '保留策略删除' },
    'en-US': { overall: '3 records verified; the readings of 1 were removed under a logged retention rule', tag: 'Removed', reason: `Removed under policy “${POLICY}” on `, kind: 'Retention removal' },
  } as const;

  for (const locale of ['zh-CN', 'en-US'] as const) {
    it(`shows the removed minute as removed under the policy, with its date, and not as a problem (${locale})`, async () => {
      const text = REMOVED[locale];
      const address = `${server.url}/view/ledger/verify?scope=device&deviceId=${device.id}&from=${encodeURIComponent(iso(minutes[0]! - 3_600_000))}&to=${encodeURIComponent(iso(Date.now() + 60_000))}`;
      await withBrowser(locale, async ({ page }) => {
        await signIn(page);
        await page.goto(address);
        await page.locator('[data-testid=ledger-overall][data-state=ok]').waitFor();
        expect(await page.locator('[data-testid=ledger-overall]').textContent()).toBe(text.overall);
        expect((await results(page)).map(([, r]) => r)).toEqual(['removed', 'verified', 'verified', 'verified']);
        const removed = rows(page).first();
        expect(await removed.textContent()).toContain(text.tag);
        expect(await removed.locator('[data-testid=ledger-reason]').textContent()).toContain(text.reason);
        expect(await rows(page).last().textContent()).toContain(text.kind);
        // Not among the problems.
        await page.locator('[data-testid=ledger-only-problems]').click();
        await expect.poll(() => rows(page).count()).toBe(0);
        await page.locator('[data-testid=ledger-only-problems]').click();
        await expect.poll(() => rows(page).count()).toBe(4);
        await screenshot(page, `ledger-removed-${locale}`);
      });
    });
  }
});
