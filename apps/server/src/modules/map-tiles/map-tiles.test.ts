// The base map's tile source (issue 26, item 1): the start-up default without a saved choice,
// only the platform administrator reads and changes it (an organisation's administrator is
// refused), bad input refused with clear words in both languages, the change audited, the map
// configuration and the content security policy's img-src following it on this node and on
// another node (two apps on one database and one bus). On PGlite, and on PostgreSQL when
// DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { LIVE_API, type MapConfig } from '@iotc/shared/live';
import { MAP_TILES_API, MAP_TILE_PRESETS, NO_TILES, OSM_TILES, type MapTilesView } from '@iotc/shared/map-tiles';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser } from '../../test/fixtures.ts';
import { auditLogs, orgs } from '../../db/schema.ts';
import { ORG_ADMIN_ROLE } from '../../db/seed.ts';
import { localBus, type EventBus } from '../../realtime/bus.ts';
import { loadConfig } from '../../config.ts';

let a: TestApp;
let b: TestApp;
let bus: EventBus;
let admin: string;
let orgAdmin: string;

const imgSrc = async (t: TestApp) => {
  const res = await t.app.inject({ method: 'GET', url: '/' });
  const csp = String(res.headers['content-security-policy']);
  return /img-src ([^;]*)/.exec(csp)![1]!.trim().split(/\s+/);
};
const put = (token: string, body: unknown, lang: 'zh-CN' | 'en-US' = 'en-US', t = a) =>
  call<MapTilesView>(t.app, { method: 'PUT', url: MAP_TILES_API.setting, token, body, lang });
const mapConfig = async (t: TestApp, token: string) => (await call<MapConfig>(t.app, { method: 'GET', url: LIVE_API.mapConfig, token })).body.data!;

beforeAll(async () => {
  bus = localBus();
  a = await testApp({ nodeId: 'tiles-a' }, { bus });
  b = await testApp({ nodeId: 'tiles-b' }, { bus, database: a.app.database });
  admin = await login(a.app, 'admin', ADMIN_PASSWORD);
  const [demo] = await a.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo'));
  await addOrgUser(a.app.database.db, { orgId: demo!.id, account: 'tiles_org_admin', password: 'Admin#2026x', roleCodes: [ORG_ADMIN_ROLE.code] });
  orgAdmin = await login(a.app, 'tiles_org_admin', 'Admin#2026x');
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await bus?.close();
});

describe('map tile source', () => {
  it('starts at the start-up default: none in tests (the offline outline), no tile host in img-src', async () => {
    const got = await call<MapTilesView>(a.app, { method: 'GET', url: MAP_TILES_API.setting, token: admin });
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ setting: { source: 'env' }, effective: { tileUrl: null }, envDefault: { tileUrl: null }, updatedAt: null });
    expect(await imgSrc(a)).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('is the platform administrator’s alone: an organisation administrator and no session are refused', async () => {
    const read = await call(a.app, { method: 'GET', url: MAP_TILES_API.setting, token: orgAdmin, lang: 'zh-CN' });
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ errorcode: 'NO_PERMISSION', errormsg: '暂无权限' });
    const write = await put(orgAdmin, { source: 'osm' });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ errorcode: 'NO_PERMISSION', errormsg: 'No permission' });
    expect((await call(a.app, { method: 'PUT', url: MAP_TILES_API.setting, body: { source: 'osm' } })).status).toBe(401);
    expect((await mapConfig(a, admin)).tileUrl).toBeNull();
  });

  it('refuses bad input with clear words in both languages', async () => {
    const bad = { source: 'custom', custom: { tileUrl: 'ftp://tiles.example.com/{z}/{x}/{y}.png', tileSubdomains: null, tileAttribution: null, tileCrs: 'wgs84', tileMaxZoom: 18 } };
    const en = await put(admin, bad);
    expect(en.status).toBe(400);
    expect(en.body.errormsg).toContain('The tile address must start with http:// or https:// and contain {z}, {x} and {y}');
    const zh = await put(admin, bad, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.errormsg).toContain('瓦片地址须以 http:// 或 https:// 开头，并包含 {z}、{x}、{y}');
    const zoom = await put(admin, { ...bad, custom: { ...bad.custom, tileUrl: 'https://t.example.com/{z}/{x}/{y}.png', tileMaxZoom: 30 } }, 'zh-CN');
    expect(zoom.status).toBe(400);
    expect(zoom.body.errormsg).toContain('最大缩放级别');
    const source = await put(admin, { source: 'bing' });
    expect(source.status).toBe(400);
    expect(source.body.errormsg).toContain('Map source');
    expect((await put(admin, { source: 'custom' })).status).toBe(400);
  });

  it('a saved choice applies at once here and on the other node: map configuration, img-src, audit log', async () => {
    const saved = await put(admin, { source: 'autonavi' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ setting: { source: 'autonavi' }, effective: MAP_TILE_PRESETS.autonavi });
    expect(saved.body.data!.updatedAt).not.toBeNull();
    expect(await mapConfig(a, admin)).toEqual(MAP_TILE_PRESETS.autonavi);
    expect(await imgSrc(a)).toEqual(["'self'", 'data:', 'blob:', ...[1, 2, 3, 4].map((n) => `https://webrd0${n}.is.autonavi.com`)]);
    const bAdmin = await login(b.app, 'admin', ADMIN_PASSWORD);
    await expect.poll(async () => (await mapConfig(b, bAdmin)).tileUrl).toBe(MAP_TILE_PRESETS.autonavi.tileUrl);
    await expect.poll(() => imgSrc(b)).toContain('https://webrd01.is.autonavi.com');

    const custom = { tileUrl: 'http://tiles.local:8080/{z}/{x}/{y}.png', tileSubdomains: '', tileAttribution: '© Local tiles', tileCrs: 'gcj02', tileMaxZoom: 17 };
    const c = await put(admin, { source: 'custom', custom });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(await mapConfig(a, admin)).toEqual({ ...custom, tileSubdomains: null });
    expect(await imgSrc(a)).toEqual(["'self'", 'data:', 'blob:', 'http://tiles.local:8080']);
    await expect.poll(() => imgSrc(b)).toContain('http://tiles.local:8080');

    const [entry] = await a.app.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'map_tiles_update'), eq(auditLogs.account, 'admin')))
      .orderBy(auditLogs.at);
    expect(entry).toMatchObject({ result: 'success', detail: 'autonavi' });

    // None: the offline outline, no outside host; back to the start-up default.
    expect((await put(admin, { source: 'none' })).status).toBe(200);
    expect(await imgSrc(a)).toEqual(["'self'", 'data:', 'blob:']);
    expect((await put(admin, { source: 'osm' })).status).toBe(200);
    expect(await imgSrc(a)).toContain('https://tile.openstreetmap.org');
    expect((await mapConfig(a, admin)).tileMaxZoom).toBe(19);
    expect((await put(admin, { source: 'env' })).body.data!.effective.tileUrl).toBeNull();
  });

  it('is read again from the database at start', async () => {
    expect((await put(admin, { source: 'tencent' })).status).toBe(200);
    const c = await testApp({ nodeId: 'tiles-c' }, { database: a.app.database });
    try {
      const token = await login(c.app, 'admin', ADMIN_PASSWORD);
      expect(await mapConfig(c, token)).toEqual(MAP_TILE_PRESETS.tencent);
    } finally {
      await c.close();
    }
  });
});

describe('start-up default (MAP_TILE_*)', () => {
  it('is OpenStreetMap’s standard tiles with their attribution and zoom 19 when unset; none keeps the offline outline', () => {
    expect(loadConfig({}).map).toEqual(OSM_TILES);
    expect(OSM_TILES).toMatchObject({ tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', tileMaxZoom: 19 });
    expect(OSM_TILES.tileAttribution).toContain('https://www.openstreetmap.org/copyright');
    expect(OSM_TILES.tileAttribution).toContain('OpenStreetMap contributors');
    expect(loadConfig({ MAP_TILE_URL: 'none' }).map).toEqual(NO_TILES);
    expect(loadConfig({ MAP_TILE_URL: 'https://tiles.example.com/{z}/{x}/{y}.png', MAP_TILE_CRS: 'gcj02' }).map).toEqual({
      tileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png',
      tileSubdomains: null,
      tileAttribution: null,
      tileCrs: 'gcj02',
      tileMaxZoom: 18,
    });
    expect(() => loadConfig({ MAP_TILE_URL: 'ftp://tiles.example.com/{z}/{x}/{y}.png' })).toThrow(/MAP_TILE_URL/);
  });
});
