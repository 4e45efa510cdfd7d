// The place library through the API: create (circle and polygon, the polygon's centroid and
// radius worked out), list with a keyword, validation errors in both languages, a name once per
// organisation; a change written into the alarm policy, the template and the open task that use
// the place (and the running task's own policy); deletion refused naming where it is used, in
// both languages; another organisation neither reads nor changes a place nor uses it; GeoJSON
// export and import round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import type { PlaceCollection, PlaceImportResult, PlaceRow, PlaceUsage } from '@iotc/shared/place';
import type { TaskDetail, TemplateRow } from '@iotc/shared/transport';
import type { AssetRow } from '@iotc/shared/asset';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmPolicies, orgs, places as placesTable } from '../../db/schema.ts';

const PLACES = '/api/iot/v2/places';
/** A place written straight into an organisation (its users may not write the library). */
async function places(db: TestApp['app']['database']['db'], orgId: string) {
  await db.insert(placesTable).values({ orgId, name: 'Picker dock', shape: 'circle', lat: 31, lon: 121, radiusM: 300 });
}
type Lang = 'zh-CN' | 'en-US';

let t: TestApp;
let admin: string;
let operator: string;
let rival: string;
let level: string;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: Lang = 'en-US') => call<T>(t.app, { method, url, token, body, lang });

function expectError(res: { status: number; body: { errorcode: string | null; errormsg: string | null } }, status: number, code: ErrorCode) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.errorcode).toBe(code);
}
async function made(body: Record<string, unknown>, token = admin): Promise<PlaceRow> {
  const res = await api<PlaceRow>('POST', PLACES, token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
const depot = { name: 'Pudong depot', shape: 'circle', lat: 31.2, lon: 121.5, radiusM: 400, note: 'gate 3' };
const yard = { name: 'Minhang yard', shape: 'polygon', polygon: [[31.0, 121.4], [31.0, 121.42], [31.02, 121.42], [31.02, 121.4]] };

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'place-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'place-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  await createTenantUser(db, { code: 'place-rival', account: 'place-rival', password: DEMO_PASSWORD, permissions: ['place:read', 'place:write', 'alarm:read', 'alarm:write', 'transport:read', 'transport:write'] });
  rival = await login(t.app, 'place-rival', DEMO_PASSWORD);
  level = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', admin)).body.data!.rows[0]!.id;
});
afterAll(async () => {
  await t.close();
});

describe('places', () => {
  it('makes circles and polygons, lists them by keyword, and refuses a second place of one name', async () => {
    const c = await made(depot);
    expect(c).toMatchObject({ name: 'Pudong depot', shape: 'circle', lat: 31.2, lon: 121.5, radiusM: 400, polygon: null, note: 'gate 3' });
    // A closed ring is kept open; the centroid is the square's middle, the radius reaches a corner.
    const p = await made({ ...yard, polygon: [...yard.polygon, yard.polygon[0]] });
    expect(p.polygon).toHaveLength(4);
    expect(p.lat).toBeCloseTo(31.01, 6);
    expect(p.lon).toBeCloseTo(121.41, 6);
    expect(p.radiusM).toBeGreaterThan(1400);
    expect(p.radiusM).toBeLessThan(1600);
    const listed = await api<Page<PlaceRow>>('GET', `${PLACES}?keyword=pudong`, operator);
    expect(listed.body.data!.rows.map((r) => r.name)).toEqual(['Pudong depot']);
    expectError(await api('POST', PLACES, admin, depot), 409, 'PLACE_NAME_TAKEN');
    expectError(await api('PUT', `${PLACES}/${p.id}`, admin, { ...yard, name: 'Pudong depot' }), 409, 'PLACE_NAME_TAKEN');
  });

  it('words validation errors in the request language', async () => {
    const zh = await api('POST', PLACES, admin, { name: 'Two corners', shape: 'polygon', polygon: [[31, 121], [31.1, 121]] }, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.errormsg).toContain(errorText('PLACE_POLYGON_CORNERS', 'zh'));
    const en = await api('POST', PLACES, admin, { name: 'Huge', shape: 'circle', lat: 31, lon: 121, radiusM: 5 });
    expect(en.status).toBe(400);
    expect(en.body.errormsg).toContain(errorText('PLACE_RADIUS_RANGE', 'en'));
    const blank = await api('POST', PLACES, admin, { name: ' ', shape: 'circle', lat: 31, lon: 121, radiusM: 100 }, 'zh-CN');
    expect(blank.body.errormsg).toContain(errorText('NAME_REQUIRED', 'zh'));
    const noCentre = await api('POST', PLACES, admin, { name: 'Nowhere', shape: 'circle', radiusM: 100 });
    expect(noCentre.body.errormsg).toContain(errorText('LAT_REQUIRED', 'en'));
  });

  it('a change reaches the policy, the template and the open tasks that use the place; deleting it is refused naming them', async () => {
    const dc = await made({ name: 'Jiading DC', shape: 'circle', lat: 31.38, lon: 121.25, radiusM: 600 });
    const store = await made({ name: 'Kunshan store', shape: 'circle', lat: 31.38, lon: 120.98, radiusM: 300 });
    const copy = { placeId: dc.id, name: dc.name, lat: dc.lat, lon: dc.lon, radiusM: dc.radiusM };
    const pol = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', admin, {
      name: 'Doors at the DC',
      scope: 'all',
      rules: [{ id: 'door', type: 'door_abnormal', threshold: 0, levelId: level, places: [copy, { name: 'Loose spot', lat: 30, lon: 120, radiusM: 100 }] }],
    });
    expect(pol.status, JSON.stringify(pol.body)).toBe(200);
    const tpl = await api<TemplateRow>('POST', '/api/iot/v2/transport-templates', admin, { name: 'DC to store', origin: copy, destination: { ...store, placeId: store.id, address: '' } });
    expect(tpl.status, JSON.stringify(tpl.body)).toBe(200);
    expect(tpl.body.data!.origin.placeId).toBe(dc.id);
    const dev = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId: 'PLACE-T-01', name: 'Tracker' })).body.data!;
    const task = await api<TaskDetail>('POST', '/api/iot/v2/transport-tasks', admin, {
      goodsName: 'Vaccines',
      deviceIds: [dev.id],
      origin: copy,
      destination: { placeId: store.id, name: store.name, lat: store.lat, lon: store.lon, radiusM: store.radiusM },
      alarm: { levelId: level, door: true },
    });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    expect(task.body.data!.origin.placeId).toBe(dc.id);
    // Running: the task's own policy carries the place too.
    expect((await api('POST', `/api/iot/v2/transport-tasks/${task.body.data!.id}/transition`, admin, { to: 'in_transit', note: '' })).status).toBe(200);

    // Renamed and made a polygon.
    const ring = [[31.4, 121.2], [31.4, 121.3], [31.45, 121.3], [31.45, 121.2]];
    const changed = await api<PlaceRow>('PUT', `${PLACES}/${dc.id}`, admin, { name: 'Jiading hub', shape: 'polygon', polygon: ring });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const p = changed.body.data!;

    const polAfter = (await api<PolicyRow>('GET', `/api/iot/v2/alarm-policies/${pol.body.data!.id}`, admin)).body.data!;
    expect(polAfter.rules[0]!.places[0]).toEqual({ placeId: dc.id, name: 'Jiading hub', lat: p.lat, lon: p.lon, radiusM: p.radiusM, polygon: ring });
    expect(polAfter.rules[0]!.places[1]!.name).toBe('Loose spot');
    const tplAfter = (await api<TemplateRow>('GET', `/api/iot/v2/transport-templates/${tpl.body.data!.id}`, admin)).body.data!;
    expect(tplAfter.origin).toMatchObject({ placeId: dc.id, name: 'Jiading hub', lat: p.lat, lon: p.lon, radiusM: p.radiusM });
    expect(tplAfter.destination.name).toBe('Kunshan store');
    const taskAfter = (await api<TaskDetail>('GET', `/api/iot/v2/transport-tasks/${task.body.data!.id}`, admin)).body.data!;
    expect(taskAfter.origin).toMatchObject({ placeId: dc.id, name: 'Jiading hub', lat: p.lat, lon: p.lon, radiusM: p.radiusM });
    const [own] = await t.app.database.db.select().from(alarmPolicies).where(eq(alarmPolicies.taskId, task.body.data!.id));
    const ownPlaces = (own!.rules as { type: string; places: { placeId?: string; name: string; polygon?: unknown }[] }[]).find((r) => r.type === 'door_abnormal')!.places;
    expect(ownPlaces.find((x) => x.placeId === dc.id)).toMatchObject({ name: 'Jiading hub', polygon: ring });

    const usage = await api<PlaceUsage>('GET', `${PLACES}/${dc.id}/usage`, admin);
    expect(usage.body.data).toEqual({ policies: ['Doors at the DC'], templates: ['DC to store'], tasks: [taskAfter.code], warehouses: [] });
    const en = await api('DELETE', `${PLACES}/${dc.id}`, admin);
    expectError(en, 409, 'PLACE_IN_USE');
    expect(en.body.errormsg).toBe(`${errorText('PLACE_IN_USE', 'en')}: used by alarm policies: Doors at the DC; transport templates: DC to store; transport tasks: ${taskAfter.code}`);
    const zh = await api('DELETE', `${PLACES}/${dc.id}`, admin, undefined, 'zh-CN');
    expect(zh.body.errormsg).toBe(`${errorText('PLACE_IN_USE', 'zh')}：正在使用它的有 告警策略：Doors at the DC；运输模板：DC to store；运输任务：${taskAfter.code}`);

    // An unused place goes.
    const spare = await made({ name: 'Spare', shape: 'circle', lat: 30, lon: 120, radiusM: 100 });
    expect((await api('DELETE', `${PLACES}/${spare.id}`, admin)).status).toBe(200);
    expectError(await api('GET', `${PLACES}/${spare.id}`, admin), 404, 'NOT_FOUND');
  });

  it('a warehouse stands on a place: its position follows the place, and the place cannot go while it does', async () => {
    const dc = await made({ name: 'Jiading cold DC', shape: 'circle', lat: 31.38, lon: 121.25, radiusM: 300 });
    const body = (placeId: string | null) => ({ code: 'WH-PLACE', name: 'Jiading DC', placeId, attrs: { city: 'Shanghai', lat: 1, lon: 1 } });
    const created = await api<AssetRow>('POST', '/api/iot/v2/warehouses', admin, body(dc.id));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({ placeId: dc.id, placeName: 'Jiading cold DC', attrs: { city: 'Shanghai', lat: 31.38, lon: 121.25 } });
    const wh = created.body.data!;
    expect((await api<PlaceUsage>('GET', `${PLACES}/${dc.id}/usage`, admin)).body.data!.warehouses).toEqual(['Jiading DC']);

    // The place moves: so does the warehouse.
    expect((await api('PUT', `${PLACES}/${dc.id}`, admin, { name: 'Jiading cold DC', shape: 'circle', lat: 31.4, lon: 121.26, radiusM: 300 })).status).toBe(200);
    const moved = (await api<AssetRow>('GET', `/api/iot/v2/warehouses/${wh.id}`, admin)).body.data!;
    expect(moved.attrs).toMatchObject({ lat: 31.4, lon: 121.26, city: 'Shanghai' });
    const zh = await api('DELETE', `${PLACES}/${dc.id}`, admin, undefined, 'zh-CN');
    expectError(zh, 409, 'PLACE_IN_USE');
    expect(zh.body.errormsg).toBe(`${errorText('PLACE_IN_USE', 'zh')}：正在使用它的有 仓库：Jiading DC`);

    // An edit without placeId keeps it; null takes it away, and then the place can go.
    const kept = await api<AssetRow>('PUT', `/api/iot/v2/warehouses/${wh.id}`, admin, { code: 'WH-PLACE', name: 'Jiading DC', attrs: { city: 'Shanghai' } });
    expect(kept.body.data).toMatchObject({ placeId: dc.id, attrs: { lat: 31.4, lon: 121.26 } });
    expect((await api<AssetRow>('PUT', `/api/iot/v2/warehouses/${wh.id}`, admin, body(null))).body.data).toMatchObject({ placeId: null, placeName: null });
    expect((await api('DELETE', `${PLACES}/${dc.id}`, admin)).status).toBe(200);

    // Another organisation's place, or a place on another kind of asset, is refused and nothing changes.
    const theirs = await made({ name: 'Rival depot', shape: 'circle', lat: 22.5, lon: 114, radiusM: 200 }, rival);
    expectError(await api('PUT', `/api/iot/v2/warehouses/${wh.id}`, admin, body(theirs.id)), 400, 'PLACE_UNKNOWN');
    expect((await api<AssetRow>('GET', `/api/iot/v2/warehouses/${wh.id}`, admin)).body.data).toMatchObject({ placeId: null });
    const own = await made({ name: 'Truck bay', shape: 'circle', lat: 31, lon: 121, radiusM: 100 });
    expect((await api('POST', '/api/iot/v2/vehicles', admin, { code: '沪A-PLACE', name: 'Van', placeId: own.id })).status).toBe(400);
  });

  it('another organisation neither reads, changes, deletes nor uses a place', async () => {
    const mine = await made({ name: 'Private dock', shape: 'circle', lat: 31, lon: 121, radiusM: 200 });
    expectError(await api('GET', `${PLACES}/${mine.id}`, rival), 404, 'NOT_FOUND');
    expectError(await api('PUT', `${PLACES}/${mine.id}`, rival, { name: 'Taken', shape: 'circle', lat: 0, lon: 0, radiusM: 100 }), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `${PLACES}/${mine.id}`, rival), 404, 'NOT_FOUND');
    expect((await api<Page<PlaceRow>>('GET', PLACES, rival)).body.data!.rows.map((r) => r.id)).not.toContain(mine.id);
    const geo = await t.app.inject({ method: 'GET', url: `${PLACES}/geojson`, headers: { access_token: rival } });
    expect(geo.statusCode).toBe(200);
    expect(geo.body).not.toContain('Private dock');
    const copy = { placeId: mine.id, name: 'x', lat: 31, lon: 121, radiusM: 200 };
    const rivalLevel = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', rival)).body.data!.rows[0]!.id;
    expectError(await api('POST', '/api/iot/v2/alarm-policies', rival, { name: 'Sneaky', scope: 'all', rules: [{ id: 'd', type: 'door_abnormal', threshold: 0, levelId: rivalLevel, places: [copy] }] }), 400, 'PLACE_UNKNOWN');
    expectError(await api('POST', '/api/iot/v2/transport-templates', rival, { name: 'Sneaky', origin: copy, destination: { name: 'y', lat: 30, lon: 120 } }), 400, 'PLACE_UNKNOWN');
    expect((await api<PlaceRow>('GET', `${PLACES}/${mine.id}`, admin)).body.data!.name).toBe('Private dock');
  });

  it('exports GeoJSON and imports it again (a known name changed, a new one made, a bad feature listed)', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${PLACES}/geojson`, headers: { access_token: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('places.geojson');
    const fc = JSON.parse(res.body) as PlaceCollection;
    const depotF = fc.features.find((f) => f.properties.name === 'Pudong depot')!;
    expect(depotF.geometry).toEqual({ type: 'Point', coordinates: [121.5, 31.2] });
    expect(depotF.properties.radiusM).toBe(400);
    const yardF = fc.features.find((f) => f.properties.name === 'Minhang yard')!;
    expect(yardF.geometry.type).toBe('Polygon');
    const ring = yardF.geometry.coordinates as number[][][];
    expect(ring[0]![0]).toEqual(ring[0]![ring[0]!.length - 1]);

    depotF.properties.radiusM = 900;
    const fresh = { type: 'Feature', geometry: { type: 'Point', coordinates: [120.1, 30.2] }, properties: { name: 'Imported point', radiusM: 250 } };
    const bad = { type: 'Feature', geometry: { type: 'Point', coordinates: [120.1, 30.2] }, properties: { name: '' } };
    const imported = await api<PlaceImportResult>('POST', `${PLACES}/geojson`, admin, { collection: { type: 'FeatureCollection', features: [depotF, yardF, fresh, bad] } }, 'zh-CN');
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.data).toEqual({ created: 1, updated: 2, errors: [{ feature: 4, message: errorText('NAME_REQUIRED', 'zh') }] });
    const all = (await api<Page<PlaceRow>>('GET', `${PLACES}?size=100`, admin)).body.data!.rows;
    expect(all.find((r) => r.name === 'Pudong depot')!.radiusM).toBe(900);
    expect(all.find((r) => r.name === 'Minhang yard')!.polygon).toEqual(yard.polygon);
    expect(all.find((r) => r.name === 'Imported point')).toMatchObject({ shape: 'circle', lat: 30.2, lon: 120.1, radiusM: 250 });
  });

  it("lets writers of tasks, templates and policies without place:read search their own organisation's places to pick one, read-only", async () => {
    const db = t.app.database.db;
    const { org } = await createTenantUser(db, { code: 'place-picker', account: 'place-picker', password: DEMO_PASSWORD, permissions: ['transport:read', 'transport:write'] });
    await createTenantUser(db, { code: 'place-bystander', account: 'place-bystander', password: DEMO_PASSWORD, permissions: ['device:read', 'transport:read', 'alarm:read'] });
    const picker = await login(t.app, 'place-picker', DEMO_PASSWORD);
    await places(db, org.id);
    const rows = (await api<Page<PlaceRow>>('GET', `${PLACES}?keyword=picker`, picker)).body.data!.rows;
    expect(rows.map((r) => r.name)).toEqual(['Picker dock']);
    // Nothing of another organisation, whatever the keyword or the organisation asked for.
    const all = (await api<Page<PlaceRow>>('GET', `${PLACES}?size=100`, picker)).body.data!.rows;
    expect(all.every((r) => r.orgId === org.id)).toBe(true);
    expect(all.map((r) => r.name)).not.toContain('Pudong depot');
    const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
    expect((await api<Page<PlaceRow>>('GET', `${PLACES}?orgId=${demoOrg}`, picker)).body.data?.rows ?? []).toEqual([]);
    // Read-only: one place, its usage, the export and any change stay refused.
    expectError(await api('GET', `${PLACES}/${rows[0]!.id}`, picker), 403, 'NO_PERMISSION');
    expectError(await api('POST', PLACES, picker, { ...depot, name: 'Nope' }), 403, 'NO_PERMISSION');
    // Someone who writes nothing that names a place is refused the search.
    const bystander = await login(t.app, 'place-bystander', DEMO_PASSWORD);
    expectError(await api('GET', PLACES, bystander), 403, 'NO_PERMISSION');
  });

  it('needs place:write to change the library', async () => {
    await createTenantUser(t.app.database.db, { code: 'place-reader', account: 'place-reader', password: DEMO_PASSWORD, permissions: ['place:read'] });
    const reader = await login(t.app, 'place-reader', DEMO_PASSWORD);
    expect((await api('GET', PLACES, reader)).status).toBe(200);
    expectError(await api('POST', PLACES, reader, { ...depot, name: 'Nope' }), 403, 'NO_PERMISSION');
  });
});
