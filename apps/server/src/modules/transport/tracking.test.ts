// Consignee tracking links (issue 26) through the API: made by someone who may change tasks (90
// days unless picked, never past 365), shown once; the public read without login shows the task's
// code, places, status, position, ETA and temperature curve, and NOT its device ids, IMEIs,
// organisation, driver, customer or any other task (asserted on the answer's text); an expired
// and a revoked link answer 410 with their reason, an unknown token 404; the task's and the
// organisation's lists page the links with their status; make and revoke are audited by id, never
// by token; another organisation can neither list, make nor revoke.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { errorText } from '@iotc/shared/errors';
import type { TaskDetail } from '@iotc/shared/transport';
import { TRACKING_API, type PublicTracking, type TrackingLinkAnswer, type TrackingLinkRow } from '@iotc/shared/transport-tracking';
import { auditLogs, orgs, transportTasks, transportTrackingLinks } from '../../db/schema.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { MAP_TILES_API } from '@iotc/shared/map-tiles';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';

const DAY = 86_400_000;
const TASKS = '/api/iot/v2/transport-tasks';
let t: TestApp;
let admin: string;
/** Another organisation, transport:read only. */
let reader: string;
let rival: string;
let demoOrgName: string;
let device: DeviceWithSecret & { id: string };
let task: TaskDetail;
let other: TaskDetail;
let otherDevice: DeviceWithSecret & { id: string };

type Method = 'GET' | 'POST';
const api = <T>(method: Method, url: string, token?: string, body?: unknown, lang?: 'zh-CN' | 'en-US') => call<T>(t.app, { method, url, token, body, lang });
const db = () => t.app.database.db;
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;

async function report(r: { lat: number; lon: number; speed: number; temp: number; ago: number }) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(device), 'content-type': 'application/json' },
    payload: JSON.stringify({
      deviceId: device.deviceId,
      time: new Date(Date.now() - r.ago).toISOString(),
      lat: r.lat,
      lon: r.lon,
      speed: r.speed,
      extraData: JSON.stringify({ 3: { temp: Math.round(r.temp * 10) } }),
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

const make = async (body: Record<string, unknown> = {}, token = admin, taskId = task.id) => {
  const made = await api<TrackingLinkAnswer>('POST', TRACKING_API.taskLinks(taskId), token, body);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.data!;
};
const view = (token: string, lang?: 'zh-CN' | 'en-US') => api<PublicTracking>('GET', TRACKING_API.public(token), undefined, undefined, lang);

async function newTask(name: string, deviceIds: string[], extra: Record<string, unknown> = {}) {
  const res = await api<TaskDetail>('POST', TASKS, admin, {
    goodsName: name,
    customer: 'Secret Customer Ltd',
    driverName: 'Wang Driver',
    driverPhone: '13912345678',
    deviceIds,
    origin: { name: 'West DC', lat: 30.0, lon: 110.0, radiusM: 500 },
    destination: { name: 'East Store', lat: 30.0, lon: 110.2, radiusM: 500 },
    plannedStart: new Date(Date.now() - 3_600_000).toISOString(),
    plannedArrival: new Date(Date.now() + 3_600_000).toISOString(),
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

beforeAll(async () => {
  t = await testApp();
  const [demo] = await db().select().from(orgs).where(eq(orgs.code, 'demo'));
  demoOrgName = demo!.name;
  await addOrgUser(db(), { orgId: demo!.id, account: 'tl-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  await createTenantUser(db(), { code: 'tl-reader-org', account: 'tl-rival', password: DEMO_PASSWORD, permissions: ['transport:read', 'transport:write'], orgName: 'Rival Freight' });
  admin = await login(t.app, 'tl-admin', DEMO_PASSWORD);
  rival = await login(t.app, 'tl-rival', DEMO_PASSWORD);
  await createTenantUser(db(), { code: 'tl-ro', account: 'tl-ro', password: DEMO_PASSWORD, permissions: ['transport:read'] });
  reader = await login(t.app, 'tl-ro', DEMO_PASSWORD);
  const made = await api<DeviceWithSecret & { id: string }>('POST', '/api/iot/v2/devices', admin, { deviceId: 'TL00000001', name: 'Tracking probe' });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  device = made.body.data!;
  task = await newTask('Vaccines', [device.id]);
  const second = await api<DeviceWithSecret & { id: string }>('POST', '/api/iot/v2/devices', admin, { deviceId: 'TL00000002', name: 'Other probe' });
  otherDevice = second.body.data!;
  other = await newTask('Other goods XYZZY', [otherDevice.id]);
  expect((await api('POST', `${TASKS}/${task.id}/transition`, admin, { to: 'in_transit' })).status).toBe(200);
  // Started an hour ago; readings since, the last one half way east.
  // The agreed range is set in the row: through the API it needs an alarm level too.
  await db()
    .update(transportTasks)
    .set({ startedAt: new Date(Date.now() - 3_600_000), settings: sql`${transportTasks.settings} || '{"tempMin": 2, "tempMax": 8}'::jsonb` })
    .where(eq(transportTasks.id, task.id));
  for (let i = 0; i < 6; i++) await report({ lat: 30.0, lon: 110.0 + i * 0.02, speed: 60, temp: 4 + i * 0.5, ago: (6 - i) * 300_000 });
  await t.app.readings.flushed();
});
afterAll(async () => t?.close());

describe('a tracking link', () => {
  it('lasts 90 days unless picked, never past 365 days, and is made only by who may change tasks', async () => {
    const before = Date.now();
    const plain = await make();
    expect(Date.parse(plain.expiresAt)).toBeGreaterThanOrEqual(before + 90 * DAY);
    expect(Date.parse(plain.expiresAt)).toBeLessThanOrEqual(Date.now() + 90 * DAY);
    expect(plain.url).toMatch(new RegExp(`/track/${plain.token}$`));
    const [stored] = await db().select().from(transportTrackingLinks).where(eq(transportTrackingLinks.id, plain.id));
    // Only the hash is kept.
    expect(stored!.tokenHash).not.toContain(plain.token);
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const week = await make({ expiresInDays: 7 });
    expect(Math.abs(Date.parse(week.expiresAt) - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    expect((await api('POST', TRACKING_API.taskLinks(task.id), admin, { expiresInDays: 366 })).status).toBe(400);
    const far = await api('POST', TRACKING_API.taskLinks(task.id), admin, { expiresAt: new Date(Date.now() + 400 * DAY).toISOString() }, 'zh-CN');
    expect(far.status).toBe(400);
    expect(JSON.stringify(far.body)).toContain(errorText('TRACKING_LINK_EXPIRY_RANGE', 'zh'));
    expect((await api('POST', TRACKING_API.taskLinks(task.id), reader, {})).status).toBe(403);
    const audit = await db().select().from(auditLogs).where(and(eq(auditLogs.action, 'transport_tracking_link_create'), eq(auditLogs.account, 'tl-admin')));
    expect(audit.length).toBeGreaterThanOrEqual(2);
    expect(audit.map((a) => a.detail).join(' ')).toContain(plain.id);
    expect(JSON.stringify(audit)).not.toContain(plain.token);
  });

  it('shows the consignee the task, its position, ETA and temperature curve, without login', async () => {
    const link = await make();
    const res = await view(link.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const v = res.body.data!;
    expect(v.task).toMatchObject({ code: task.code, goodsName: 'Vaccines', originName: 'West DC', destinationName: 'East Store', status: 'in_transit', tempMin: 2, tempMax: 8 });
    expect(v.position).toMatchObject({ lat: 30.0, lon: 110.1, speed: 60 });
    expect(v.temp).toBe(6.5);
    expect(v.progress!).toBeCloseTo(0.5, 1);
    expect(v.eta).not.toBeNull();
    expect(v.temperature.values).toEqual([4, 4.5, 5, 5.5, 6, 6.5]);
    expect(v.temperature.times).toHaveLength(6);
    expect(v.expiresAt).toBe(link.expiresAt);
  });

  it("draws the platform's base map: the offline outline, then the street map the platform administrator picks", async () => {
    const link = await make();
    expect((await view(link.token)).body.data!.map.tileUrl).toBeNull();
    const platform = await login(t.app, 'admin', ADMIN_PASSWORD);
    expect((await call(t.app, { method: 'PUT', url: MAP_TILES_API.setting, token: platform, body: { source: 'osm' } })).status).toBe(200);
    try {
      const map = (await view(link.token)).body.data!.map;
      expect(map.tileUrl).toContain('openstreetmap.org');
      expect(map.tileAttribution).toContain('OpenStreetMap');
    } finally {
      expect((await call(t.app, { method: 'PUT', url: MAP_TILES_API.setting, token: platform, body: { source: 'env' } })).status).toBe(200);
    }
  });

  it('shows nothing else: no device ids, IMEIs, organisation, driver, customer or other task', async () => {
    const link = await make();
    const res = await view(link.token);
    const text = JSON.stringify(res.body);
    for (const secret of [device.id, device.deviceId, 'Tracking probe', demoOrgName, task.orgId, task.id, 'Secret Customer Ltd', 'Wang Driver', '13912345678', other.code, other.id, 'XYZZY', otherDevice.id, otherDevice.deviceId, 'Other probe', 'tl-admin', link.id]) {
      expect(text, secret).not.toContain(secret);
    }
    expect(res.body.data!.position).not.toHaveProperty('deviceId');
    expect(Object.keys(res.body.data!.task).sort()).toEqual(
      ['code', 'completedAt', 'destination', 'destinationName', 'goodsName', 'originName', 'plannedArrival', 'plannedStart', 'startedAt', 'arrivedAt', 'status', 'tempMax', 'tempMin'].sort(),
    );
    // Read-only: the public address takes no other method.
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const r = await t.app.inject({ method, url: TRACKING_API.public(link.token), headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(r.statusCode).toBe(404);
    }
  });

  it('answers 410 when expired or revoked, 404 when unknown, in the request language', async () => {
    const expired = await make({ expiresInDays: 1 });
    await db().update(transportTrackingLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(transportTrackingLinks.id, expired.id));
    const e = await view(expired.token, 'zh-CN');
    expect(e.status).toBe(410);
    expect(e.body).toMatchObject({ errorcode: 'TRACKING_LINK_EXPIRED', errormsg: errorText('TRACKING_LINK_EXPIRED', 'zh') });

    const revoked = await make();
    expect((await view(revoked.token)).status).toBe(200);
    const r = await api<TrackingLinkRow>('POST', TRACKING_API.revoke(revoked.id), admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ id: revoked.id, status: 'revoked', revokedBy: 'tl-admin', taskCode: task.code });
    const gone = await view(revoked.token);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ errorcode: 'TRACKING_LINK_REVOKED', errormsg: errorText('TRACKING_LINK_REVOKED', 'en') });
    // Again: nothing changes, nothing more is recorded.
    expect((await api<TrackingLinkRow>('POST', TRACKING_API.revoke(revoked.id), admin)).body.data!.status).toBe('revoked');
    const audits = await db().select().from(auditLogs).where(eq(auditLogs.action, 'transport_tracking_link_revoke'));
    expect(audits.filter((a) => (a.detail ?? '').includes(revoked.id))).toHaveLength(1);

    const unknown = await view('no-such-token-at-all');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorcode: 'TRACKING_LINK_UNKNOWN' });
  });

  it("lists the task's and the organisation's links, paged, with their status", async () => {
    const mine = await api<Page<TrackingLinkRow>>('GET', `${TRACKING_API.taskLinks(task.id)}?size=2`, admin);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.data!.rows).toHaveLength(2);
    expect(mine.body.data!.total).toBeGreaterThan(2);
    expect(JSON.stringify(mine.body)).not.toMatch(/"token"/);
    const revoked = await api<Page<TrackingLinkRow>>('GET', `${TRACKING_API.taskLinks(task.id)}?status=revoked`, admin);
    expect(revoked.body.data!.rows.every((r) => r.status === 'revoked')).toBe(true);
    expect(revoked.body.data!.total).toBeGreaterThanOrEqual(1);
    const expired = await api<Page<TrackingLinkRow>>('GET', `${TRACKING_API.links}?status=expired`, admin);
    expect(expired.body.data!.rows.length).toBeGreaterThanOrEqual(1);
    expect(expired.body.data!.rows.every((r) => r.status === 'expired' && r.taskCode === task.code)).toBe(true);
    // No other task's links in a task's list.
    await make({}, admin, other.id);
    const ofOther = await api<Page<TrackingLinkRow>>('GET', TRACKING_API.taskLinks(other.id), admin);
    expect(ofOther.body.data!.rows.map((r) => r.taskId)).toEqual([other.id]);
  });

  it('is out of reach of another organisation: it cannot make, list or revoke', async () => {
    const link = await make();
    expect((await api('POST', TRACKING_API.taskLinks(task.id), rival, {})).status).toBe(404);
    expect((await api('GET', TRACKING_API.taskLinks(task.id), rival)).status).toBe(404);
    const all = await api<Page<TrackingLinkRow>>('GET', TRACKING_API.links, rival);
    expect(all.status).toBe(200);
    expect(all.body.data!.total).toBe(0);
    expect((await api('POST', TRACKING_API.revoke(link.id), rival)).status).toBe(404);
    expect((await view(link.token)).status).toBe(200);
    const [row] = await db().select().from(transportTrackingLinks).where(eq(transportTrackingLinks.id, link.id));
    expect(row!.revokedAt).toBeNull();
  });

  it("the organisation-wide list holds the caller's organisation's links only, and another organisation's link cannot be revoked", async () => {
    // A second organisation with its own task and link.
    await createTenantUser(db(), { code: 'tl-other-org', account: 'tl-other', password: DEMO_PASSWORD, permissions: ['device:read', 'device:write', 'transport:read', 'transport:write'], orgName: 'Other Freight' });
    const theirs = await login(t.app, 'tl-other', DEMO_PASSWORD);
    const dev = await api<{ id: string }>('POST', '/api/iot/v2/devices', theirs, { deviceId: 'TL00000099', name: 'Other org probe' });
    expect(dev.status, JSON.stringify(dev.body)).toBe(200);
    const theirTask = await api<TaskDetail>('POST', TASKS, theirs, {
      goodsName: 'Their goods',
      deviceIds: [dev.body.data!.id],
      origin: { name: 'North DC', lat: 31.0, lon: 110.0, radiusM: 500 },
      destination: { name: 'South Store', lat: 30.5, lon: 110.0, radiusM: 500 },
    });
    expect(theirTask.status, JSON.stringify(theirTask.body)).toBe(200);
    const theirLink = await make({}, theirs, theirTask.body.data!.id);
    const mineLink = await make();

    const all = async (token: string) => {
      const rows: TrackingLinkRow[] = [];
      for (let page = 1; ; page++) {
        const res = await api<Page<TrackingLinkRow>>('GET', `${TRACKING_API.links}?page=${page}&size=100`, token);
        expect(res.status).toBe(200);
        rows.push(...res.body.data!.rows);
        if (rows.length >= res.body.data!.total) return rows;
      }
    };
    const ours = await all(admin);
    expect(ours.map((r) => r.id)).toContain(mineLink.id);
    expect(ours.map((r) => r.id)).not.toContain(theirLink.id);
    expect(ours.every((r) => r.taskId !== theirTask.body.data!.id)).toBe(true);
    expect((await all(theirs)).map((r) => [r.id, r.taskCode, r.createdBy, r.status])).toEqual([[theirLink.id, theirTask.body.data!.code, 'tl-other', 'active']]);
    // Revoking the other organisation's link is not found, and it stays active.
    expect((await api('POST', TRACKING_API.revoke(theirLink.id), admin)).status).toBe(404);
    expect((await all(theirs))[0]!.status).toBe('active');
    expect((await view(theirLink.token)).status).toBe(200);
  });
});
