// Storage figures (issue 24, item 5): two organisations' readings, the closed days packed by the
// archive's job, then the storage job's snapshot: per organisation the rows, packed readings,
// packs and pack bytes the database holds; growth per day from snapshots of different days; the
// days left from a given free size; the same figures on /metrics; and nobody but the platform
// administrator reads them. On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { PERMISSION_CODES } from '@iotc/shared/platform';
import { STORAGE_API, type StoragePage } from '@iotc/shared/storage';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { rowsOf } from '../../db/client.ts';
import { devices, orgs } from '../../db/schema.ts';
import { ORG_ADMIN_ROLE } from '../../db/seed.ts';
import { parseExposition, valueOf } from '../../ops/test-metrics.ts';
import { archiveTick } from '../archive/job.ts';
import { takeSnapshot } from './job.ts';
import { storageService } from './service.ts';

const DAY = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('storage figures', () => {
  let t: TestApp;
  let admin: string;
  let demoOrg: string;
  let otherOrg: string;
  const today = Math.floor(Date.now() / DAY) * DAY;
  const db = () => t.app.database.db;

  /** `n` readings a minute apart from `start` for a device. */
  async function store(orgId: string, deviceRef: string, start: number, n: number) {
    await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, positioning, speed, raw, sensors)
      select ${orgId}::uuid, ${deviceRef}::uuid, ${new Date(start).toISOString()}::timestamptz + make_interval(mins => g),
        now() - interval '10 minutes', 31 + g / 10000.0, 121 + g / 10000.0, 'GPS', g % 60,
        jsonb_build_object('3', jsonb_build_object('temp', 40 + g % 7)), jsonb_build_object('temperature', 4 + (g % 7) / 10.0)
      from generate_series(0, ${n - 1}) as g`);
  }

  /** What the database holds for an organisation, counted here on their own. */
  async function held(orgId: string) {
    const [r] = rowsOf<{ rows: string; packed: string; packs: string; bytes: string }>(
      await db().execute(sql`select (select count(*) from telemetry where org_id = ${orgId}) as rows,
        (select coalesce(sum(readings), 0) from reading_days where org_id = ${orgId}) as packed,
        (select count(*) from reading_days where org_id = ${orgId}) as packs,
        (select coalesce(sum(length(data) + length(raw)), 0) from reading_days where org_id = ${orgId}) as bytes`),
    );
    return { rowReadings: Number(r!.rows), packedReadings: Number(r!.packed), packs: Number(r!.packs), packBytes: Number(r!.bytes) };
  }

  const list = (token: string | undefined, query = '', lang: 'zh-CN' | 'en-US' = 'en-US') =>
    call<StoragePage>(t.app, { method: 'GET', url: `${STORAGE_API.list}${query ? `?${query}` : ''}`, token, lang });

  beforeAll(async () => {
    t = await testApp({ storageMs: 0, archiveMs: 0 });
    admin = await login(t.app, 'admin', ADMIN_PASSWORD);
    const [demo] = await db().select().from(orgs).where(eq(orgs.code, 'demo'));
    demoOrg = demo!.id;
    const other = await createTenantUser(db(), { code: 'stor-other', account: 'stor_other', password: 'Other#2026x', orgName: 'Storage Other Co.', permissions: [...PERMISSION_CODES] });
    otherOrg = other.org.id;
    const [d1] = await db().insert(devices).values({ orgId: demoOrg, deviceId: 'STOR-DEMO-1', name: 'storage demo', secretHash: 'x' }).returning();
    const [d2] = await db().insert(devices).values({ orgId: otherOrg, deviceId: 'STOR-OTHER-1', name: 'storage other', secretHash: 'x' }).returning();
    // Demo: yesterday and today; the other: two closed days.
    await store(demoOrg, d1!.id, today - DAY, 300);
    await store(demoOrg, d1!.id, today, 5);
    await store(otherOrg, d2!.id, today - 2 * DAY, 120);
    await store(otherOrg, d2!.id, today - DAY, 80);
    let r = await archiveTick(db());
    while (!r.caughtUp) r = await archiveTick(db());
  });
  afterAll(async () => t?.close());

  it("snapshots each organisation's rows, packed readings, packs and bytes as the database holds them", async () => {
    const taken = await takeSnapshot(db());
    expect(taken).toMatchObject({ ran: true, day: dayText(today) });
    // One taken within the fresh time stands for the next (several nodes take one an interval).
    expect((await takeSnapshot(db(), { freshMs: 60_000 })).ran).toBe(false);
    const page = (await list(admin)).body.data!;
    const demo = page.rows.find((r) => r.orgId === demoOrg)!;
    const other = page.rows.find((r) => r.orgId === otherOrg)!;
    expect(demo).toMatchObject({ ...(await held(demoOrg)), orgCode: 'demo', day: dayText(today), growthPerDay: null });
    expect(other).toMatchObject({ ...(await held(otherOrg)), orgCode: 'stor-other', orgName: 'Storage Other Co.' });
    expect(demo).toMatchObject({ rowReadings: 305, packedReadings: 300, packs: 1 });
    expect(other).toMatchObject({ rowReadings: 200, packedReadings: 200, packs: 2 });
    expect(demo.packBytes).toBeGreaterThan(0);
    expect(other.packBytes).toBeGreaterThan(0);
    // Row bytes: the readings table's size shared by rows (305 : 200).
    expect(demo.rowBytes).toBeGreaterThan(0);
    expect(demo.rowBytes / other.rowBytes).toBeCloseTo(305 / 200, 2);
    // A reading both a row and in a pack counts once.
    expect(demo.bytesPerReading).toBeCloseTo((demo.rowBytes + demo.packBytes) / 305, 6);
    // The platform: every organisation added up; shares add up to one.
    expect(page.platform.rowReadings).toBe(page.rows.reduce((s, r) => s + r.rowReadings, 0));
    expect(page.platform.packBytes).toBe(page.rows.reduce((s, r) => s + r.packBytes, 0));
    expect(page.rows.reduce((s, r) => s + (r.share ?? 0), 0)).toBeCloseTo(1, 9);
    // The largest first; the embedded database in memory has no disk to measure: unknown.
    expect(page.rows[0]!.orgId).toBe(demoOrg);
    expect(page).toMatchObject({ freeBytes: null, daysLeft: null, total: page.rows.length });
    expect(Date.now() - Date.parse(page.takenAt!)).toBeLessThan(60_000);
  });

  it('measures growth per day from snapshots of different days, and the days left from the free size', async () => {
    const snap = (k: number) => takeSnapshot(db(), { day: dayText(today - k * DAY) });
    const figures = async () => {
      const page = (await list(admin)).body.data!;
      return { page, demo: page.rows.find((r) => r.orgId === demoOrg)!, other: page.rows.find((r) => r.orgId === otherOrg)! };
    };
    // Earlier days with known bytes: the demo 2 days ago (1,500), the other 3 days ago (100).
    await snap(2);
    await snap(3);
    await db().execute(sql`delete from storage_daily where (org_id = ${demoOrg} and day = ${dayText(today - 3 * DAY)}::date) or (org_id = ${otherOrg} and day = ${dayText(today - 2 * DAY)}::date)`);
    await db().execute(sql`update storage_daily set row_bytes = 1000, pack_bytes = 500 where org_id = ${demoOrg} and day = ${dayText(today - 2 * DAY)}::date`);
    await db().execute(sql`update storage_daily set row_bytes = 0, pack_bytes = 100 where org_id = ${otherOrg} and day = ${dayText(today - 3 * DAY)}::date`);
    const { page, demo, other } = await figures();
    expect(demo.growthPerDay).toBeCloseTo((demo.rowBytes + demo.packBytes - 1500) / 2, 6);
    expect(other.growthPerDay).toBeCloseTo((other.rowBytes + other.packBytes - 100) / 3, 6);
    expect(demo.growthPerDay).toBeGreaterThan(0);
    // The platform's growth: every organisation's; the days left: the free size over it.
    const growth = page.rows.reduce((s, r) => s + (r.growthPerDay ?? 0), 0);
    expect(page.platform.growthPerDay).toBeCloseTo(growth, 6);
    const withDisk = await storageService(db(), { freeBytes: async () => 50_000_000 }).overview();
    expect(withDisk.freeBytes).toBe(50_000_000);
    expect(withDisk.daysLeft).toBeCloseTo(50_000_000 / growth, 6);

    // Over the last 7 snapshots only: one of 8 days ago with nothing in it drops out once there
    // are 7 newer (the oldest of them, 7 days ago, holds today's figures: no growth).
    await snap(8);
    await db().execute(sql`update storage_daily set row_bytes = 0, pack_bytes = 0 where day = ${dayText(today - 8 * DAY)}::date`);
    for (const k of [1, 4, 5, 6]) await snap(k);
    expect((await figures()).demo.growthPerDay).toBeGreaterThan(0);
    await snap(7);
    expect((await figures()).demo.growthPerDay).toBe(0);

    // Nothing growing: no days left to tell.
    await db().execute(sql`delete from storage_daily where day < ${dayText(today)}::date`);
    expect((await storageService(db(), { freeBytes: async () => 50_000_000 }).overview()).daysLeft).toBeNull();
  });

  it('exports the same figures on /metrics, labelled by organisation code', async () => {
    const page = (await list(admin)).body.data!;
    const demo = page.rows.find((r) => r.orgId === demoOrg)!;
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    const samples = parseExposition(res.body);
    expect(valueOf(samples, 'iotc_storage_readings', { org: 'demo', as: 'rows' })).toBe(demo.rowReadings);
    expect(valueOf(samples, 'iotc_storage_readings', { org: 'demo', as: 'packs' })).toBe(demo.packedReadings);
    expect(valueOf(samples, 'iotc_storage_packs', { org: 'stor-other' })).toBe(2);
    expect(valueOf(samples, 'iotc_storage_bytes', { org: 'demo', as: 'rows' })).toBe(demo.rowBytes);
    expect(valueOf(samples, 'iotc_storage_bytes', { org: 'demo', as: 'packs' })).toBe(demo.packBytes);
    expect(valueOf(samples, 'iotc_storage_bytes_per_reading', { org: 'demo' })).toBeCloseTo(demo.bytesPerReading!, 6);
    // One snapshot left per organisation: no growth yet, so no growth line and the days left unknown.
    expect(valueOf(samples, 'iotc_storage_growth_bytes_per_day', { org: 'demo' })).toBeUndefined();
    expect(valueOf(samples, 'iotc_storage_days_left')).toBeNaN();
    // Labels are organisations only.
    for (const s of samples.filter((x) => x.name.startsWith('iotc_storage_'))) expect(Object.keys(s.labels).every((k) => k === 'org' || k === 'as')).toBe(true);
  });

  it('is refused to everyone but the platform administrator, and is not in their menu', async () => {
    await addOrgUser(db(), { orgId: demoOrg, account: 'stor_demo_admin', password: 'Admin#2026x', roleCodes: [ORG_ADMIN_ROLE.code] });
    for (const [account, password] of [
      ['stor_demo_admin', 'Admin#2026x'],
      ['stor_other', 'Other#2026x'],
    ] as const) {
      const token = await login(t.app, account, password);
      const zh = await list(token, '', 'zh-CN');
      expect(zh.status, account).toBe(403);
      expect(zh.body).toMatchObject({ data: null, errorcode: 'NO_PERMISSION', errormsg: '暂无权限' });
      expect((await list(token)).body.errormsg).toBe('No permission');
      const menu = await call<unknown>(t.app, { method: 'POST', url: '/iot-cloud-auth/menu/v1/loadMenu', token, body: { type: 102 } });
      expect(menu.status).toBe(200);
      expect(JSON.stringify(menu.body.data)).not.toContain('view/system/storage');
    }
    const own = await call<unknown>(t.app, { method: 'POST', url: '/iot-cloud-auth/menu/v1/loadMenu', token: admin, body: { type: 102 } });
    expect(JSON.stringify(own.body.data)).toContain('view/system/storage');
    expect((await list(undefined)).status).toBe(401);
  });

  it("takes the day's snapshot by itself when the app starts (STORAGE_SECONDS)", async () => {
    const started = await testApp({ archiveMs: 0 });
    try {
      const taken = async () =>
        Number(rowsOf<{ n: string }>(await started.app.database.db.execute(sql`select count(*) as n from storage_daily where day = ${dayText(Date.now())}::date`))[0]!.n);
      await expect.poll(taken, { timeout: 20_000 }).toBeGreaterThan(0);
    } finally {
      await started.close();
    }
  });

  it('pages and sorts', async () => {
    const first = (await list(admin, 'size=1&sort=orgName,asc')).body.data!;
    const all = (await list(admin, 'size=100&sort=orgName,asc')).body.data!;
    expect(first.total).toBe(all.rows.length);
    expect(first.rows).toHaveLength(1);
    expect(all.rows.map((r) => r.orgName)).toEqual([...all.rows.map((r) => r.orgName)].sort((a, b) => a.localeCompare(b)));
    const second = (await list(admin, 'size=1&page=2&sort=orgName,asc')).body.data!;
    expect(second.rows[0]!.orgId).toBe(all.rows[1]!.orgId);
  });
});
