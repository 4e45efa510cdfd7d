// The alarm engine end to end through the intake: a report past a rule's threshold opens one
// alarm per device and rule, repeats raise its peak and count, it clears past the hysteresis;
// a duration waits, and the wait survives a restart (the state is in the database); scopes by
// asset kind; offline from the scheduler's tick with no report; acknowledge and close with the
// timeline; query, statistics and export; the alarm reaches the own organisation's browsers over
// the WebSocket and no one else's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { AlarmRow, AlarmStats, LevelRow, PolicyInput, PolicyRow } from '@iotc/shared/alarm';
import type { AssetRow } from '@iotc/shared/asset';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import type { LiveMessage } from '@iotc/shared/live';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { alarmRuleStates, deviceStates, orgs, users as usersTable } from '../../db/schema.ts';
import { alarmEngine } from './engine.ts';
import { openLive, until } from '../../test/live-socket.ts';

let t: TestApp;
let admin: string;
let operator: string;
let rival: string;
let levels: LevelRow[];
let reefer: DeviceWithSecret;
let truck: DeviceWithSecret;
let spare: DeviceWithSecret;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<T>(t.app, { method, url, token, body, lang });
const level = (code: string) => levels.find((l) => l.code === code)!;
const basic = (d: DeviceWithSecret) => `Basic ${Buffer.from(`${d.deviceId}:${d.secret}`).toString('base64')}`;
const T0 = Date.now() - 5 * 60_000;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
/** Raw block-3 temperature for a value in °C (sign-magnitude). */
const rawTemp = (c: number) => (c < 0 ? 32768 + Math.round(-c * 10) : Math.round(c * 10));

async function report(d: DeviceWithSecret, s: number, temp: number, over: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: basic(d), 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: d.deviceId, time: at(s), lat: 31.2, lon: 121.5, speed: 0, extraData: JSON.stringify({ 3: { temp: rawTemp(temp) } }), ...over }),
  });
  expect(res.statusCode).toBe(200);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
}
async function alarmsOf(d: DeviceWithSecret, token = admin) {
  return (await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?deviceId=${d.id}&sort=startedAt,asc&size=100`, token)).body.data!.rows;
}
async function addPolicy(p: Partial<PolicyInput> & Pick<PolicyInput, 'rules'>): Promise<PolicyRow> {
  const res = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', admin, { name: 'p', scope: 'all', ...p });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'engine-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'engine-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  await createTenantUser(db, { code: 'rival-e', account: 'rival-e', password: DEMO_PASSWORD, permissions: ['alarm:read', 'alarm:handle', 'device:read'] });
  rival = await login(t.app, 'rival-e', DEMO_PASSWORD);
  levels = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', admin)).body.data!.rows;
  const make = async (deviceId: string) => (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId, name: deviceId })).body.data!;
  reefer = await make('ENGINE-REEFER');
  truck = await make('ENGINE-TRUCK');
  spare = await make('ENGINE-SPARE');
});
afterAll(async () => {
  await t.close();
});

describe('threshold rules', () => {
  let policy: PolicyRow;
  beforeAll(async () => {
    policy = await addPolicy({
      name: 'Reefer too warm',
      scope: 'devices',
      targets: [reefer.id],
      rules: [{ id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, levelId: level('urgent').id }],
    });
  });

  it('opens one alarm while the condition holds, raises its peak and count on repeats, and clears past the hysteresis', async () => {
    await report(reefer, 0, 6);
    expect(await alarmsOf(reefer)).toEqual([]);
    await report(reefer, 10, 9.5);
    let [a] = await alarmsOf(reefer);
    expect(a).toMatchObject({ type: 'temp_high', status: 'active', value: 9.5, peak: 9.5, count: 1, threshold: 8, unit: '°C', policyName: 'Reefer too warm', startedAt: at(10), lat: 31.2, lon: 121.5 });
    expect(a!.level).toMatchObject({ code: 'urgent', nameEn: 'Urgent' });
    await report(reefer, 20, 10.2);
    await report(reefer, 30, 7.8);
    [a] = await alarmsOf(reefer);
    expect(a).toMatchObject({ status: 'active', value: 9.5, peak: 10.2, count: 2, lastAt: at(20), endedAt: null });
    await report(reefer, 40, 7.4);
    const all = await alarmsOf(reefer);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: 'cleared', endedAt: at(40), peak: 10.2 });
    const events = (await api<{ kind: string; actor: string | null }[]>('GET', `/api/iot/v2/alarms/${all[0]!.id}/events`, admin)).body.data!;
    expect(events.map((e) => e.kind)).toEqual(['created', 'cleared']);
    // The policy's list row counts its open alarms.
    expect((await api<PolicyRow>('GET', `/api/iot/v2/alarm-policies/${policy.id}`, admin)).body.data!.activeAlarms).toBe(0);
  });

  it('a repeated device time does not count twice, and another device in the batch is not affected', async () => {
    await report(reefer, 50, 9);
    await report(reefer, 50, 9);
    await report(spare, 50, 30);
    const open = (await alarmsOf(reefer)).filter((a) => a.status === 'active');
    expect(open).toHaveLength(1);
    expect(open[0]!.count).toBe(1);
    expect(await alarmsOf(spare)).toEqual([]);
    await report(reefer, 60, 5);
  });
});

describe('duration and restart', () => {
  it('waits the duration before opening, dated from when the condition began, and the wait survives a restart', async () => {
    await addPolicy({ name: 'Truck freezing', scope: 'devices', targets: [truck.id], rules: [{ id: 'cold', type: 'temp_low', threshold: 2, durationS: 60, hysteresis: 1, levelId: level('important').id }] });
    await report(truck, 100, 1.5);
    await report(truck, 130, 0.5);
    expect(await alarmsOf(truck)).toEqual([]);
    const [kept] = await t.app.database.db.select().from(alarmRuleStates).where(eq(alarmRuleStates.deviceRef, truck.id));
    expect(kept).toMatchObject({ phase: 'pending', ruleId: 'cold' });

    // A new engine (as after a restart) reads the wait from the database.
    const published: AlarmRow[][] = [];
    const fresh = alarmEngine(t.app.database.db, { log: t.app.log, publish: (rows) => published.push(rows) });
    fresh.submit([{ orgId: reefer.orgId, deviceRef: truck.id, time: new Date(at(170)), lat: 31.2, lon: 121.5, speed: 0, sensors: { temperature: -1 } }]);
    await fresh.settled();
    const [a] = await alarmsOf(truck);
    expect(a).toMatchObject({ type: 'temp_low', status: 'active', startedAt: at(100), value: -1, peak: -1 });
    expect(published.flat().map((r) => r.id)).toEqual([a!.id]);
  });
});

describe('several processes', () => {
  it('two engines judging reports of one device at the same time open one alarm, not two', async () => {
    const twin = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId: 'ENGINE-TWIN', name: 'ENGINE-TWIN' })).body.data!;
    await addPolicy({ name: 'Twin too warm', scope: 'devices', targets: [twin.id], rules: [{ id: 'hot', type: 'temp_high', threshold: 8, levelId: level('urgent').id }] });
    for (let round = 0; round < 5; round++) {
      const engines = [0, 1].map(() => alarmEngine(t.app.database.db, { log: t.app.log, publish: () => undefined }));
      const base = 1000 + round * 100;
      engines.forEach((e, i) => e.submit([{ orgId: twin.orgId, deviceRef: twin.id, time: new Date(at(base + i)), lat: 31.2, lon: 121.5, speed: 0, sensors: { temperature: 9 + i } }]));
      await Promise.all(engines.map((e) => e.settled()));
      const open = (await alarmsOf(twin)).filter((a) => a.status === 'active');
      expect(open, `round ${round}`).toHaveLength(1);
      // Back in range for the next round.
      const e = alarmEngine(t.app.database.db, { log: t.app.log, publish: () => undefined });
      e.submit([{ orgId: twin.orgId, deviceRef: twin.id, time: new Date(at(base + 50)), lat: 31.2, lon: 121.5, speed: 0, sensors: { temperature: 5 } }]);
      await e.settled();
    }
    expect((await alarmsOf(twin)).map((a) => a.status)).toEqual(['cleared', 'cleared', 'cleared', 'cleared', 'cleared']);
  });
});

describe('scopes', () => {
  it('a policy for containers applies to devices mounted on a container, not to others', async () => {
    const box = (await api<AssetRow>('POST', '/api/iot/v2/containers', admin, { code: 'MSKU1234565', name: 'Box 1' })).body.data!;
    expect((await api('POST', `/api/iot/v2/devices/${spare.id}/bind`, admin, { assetId: box.id })).status).toBe(200);
    await addPolicy({ name: 'Containers opened', scope: 'asset_kinds', targets: ['container'], rules: [{ id: 'lux', type: 'light', threshold: 50, levelId: level('important').id }] });
    const lit = (d: DeviceWithSecret, s: number) => report(d, s, 5, { extraData: '{"4":{"light":400}}' });
    await lit(spare, 200);
    await lit(truck, 200);
    const [a] = (await alarmsOf(spare)).filter((x) => x.type === 'light');
    expect(a).toMatchObject({ status: 'active', value: 400, asset: { code: 'MSKU1234565', kind: 'container' } });
    expect((await alarmsOf(truck)).filter((x) => x.type === 'light')).toEqual([]);
  });
});

describe('offline from the scheduler', () => {
  it('opens an offline alarm with no report once the device is silent past the threshold, and a report clears it', async () => {
    await addPolicy({ name: 'Silent trackers', scope: 'devices', targets: [reefer.id], rules: [{ id: 'gone', type: 'offline', threshold: 600, levelId: level('minor').id }] });
    const db = t.app.database.db;
    const heard = Date.now() - 20 * 60_000;
    await db.update(deviceStates).set({ receivedAt: new Date(heard) }).where(eq(deviceStates.deviceRef, reefer.id));
    await t.app.alarmEngine.tick(heard + 599_000);
    expect((await alarmsOf(reefer)).filter((a) => a.type === 'offline')).toEqual([]);
    await t.app.alarmEngine.tick();
    const [a] = (await alarmsOf(reefer)).filter((x) => x.type === 'offline');
    expect(a).toMatchObject({ status: 'active', startedAt: new Date(heard + 600_000).toISOString(), unit: 's', count: 1 });
    // Silent on: the alarm's value and peak keep counting on the later ticks (not stuck at the first tick's).
    const first = a!.value!;
    expect(first).toBeGreaterThanOrEqual(1200);
    await t.app.alarmEngine.tick(Date.now() + 13 * 60_000);
    const [later] = (await alarmsOf(reefer)).filter((x) => x.type === 'offline');
    expect(later).toMatchObject({ id: a!.id, status: 'active', count: 1 });
    expect(later!.value).toBeGreaterThanOrEqual(first + 13 * 60);
    expect(later!.peak).toBe(later!.value);
    await report(reefer, 280, 5);
    const [after] = (await alarmsOf(reefer)).filter((x) => x.type === 'offline');
    expect(after).toMatchObject({ status: 'cleared', endedAt: at(280) });
  });
});

describe('handling, query and isolation', () => {
  it('acknowledges and closes with a reason, all in the timeline; a closed alarm is not reopened while the condition holds', async () => {
    await report(reefer, 300, 12);
    const [open] = (await alarmsOf(reefer)).filter((a) => a.status === 'active' && a.type === 'temp_high');
    const acked = await api<AlarmRow>('POST', `/api/iot/v2/alarms/${open!.id}/acknowledge`, operator);
    expect(acked.body.data).toMatchObject({ acknowledgedBy: 'demo', status: 'active' });
    const noReason = await api('POST', `/api/iot/v2/alarms/${open!.id}/close`, operator, { reason: ' ' }, 'zh-CN');
    expect(noReason.body).toMatchObject({ errorcode: 'CLOSE_REASON_REQUIRED', errormsg: '请填写关闭原因' });
    const closed = await api<AlarmRow>('POST', `/api/iot/v2/alarms/${open!.id}/close`, operator, { reason: 'Door left open during loading, goods checked' });
    expect(closed.body.data).toMatchObject({ status: 'closed', closedBy: 'demo', closeReason: 'Door left open during loading, goods checked' });
    expect((await api('POST', `/api/iot/v2/alarms/${open!.id}/close`, operator, { reason: 'again' })).body.errorcode).toBe('ALARM_CLOSED');
    await report(reefer, 310, 13);
    const after = (await alarmsOf(reefer)).filter((a) => a.type === 'temp_high');
    expect(after.filter((a) => a.status === 'active')).toEqual([]);
    expect(after.find((a) => a.id === open!.id)).toMatchObject({ status: 'closed', peak: 12, count: 1 });
    const events = (await api<{ kind: string; actor: string | null; detail: Record<string, unknown> }[]>('GET', `/api/iot/v2/alarms/${open!.id}/events`, admin)).body.data!;
    expect(events.map((e) => [e.kind, e.actor])).toEqual([
      ['created', null],
      ['acknowledged', 'demo'],
      ['closed', 'demo'],
    ]);
    expect(events[2]!.detail).toEqual({ reason: 'Door left open during loading, goods checked' });
    // Back in range, then too warm again: a new alarm.
    await report(reefer, 320, 4);
    await report(reefer, 330, 11);
    expect((await alarmsOf(reefer)).filter((a) => a.type === 'temp_high' && a.status === 'active')).toHaveLength(1);
  });

  it('assigns to a user of the organisation and takes comments, all in the timeline; a user of another organisation cannot be assigned', async () => {
    const [open] = (await alarmsOf(reefer)).filter((a) => a.status === 'active' && a.type === 'temp_high');
    const users = (await api<Page<{ id: string; account: string; orgId: string }>>('GET', '/api/iot/v2/users?size=100', admin)).body.data!.rows;
    const demoUser = users.find((u) => u.account === 'demo')!;
    const assigned = await api<AlarmRow>('POST', `/api/iot/v2/alarms/${open!.id}/assign`, admin, { userId: demoUser.id });
    expect(assigned.body.data!.assignee).toEqual({ id: demoUser.id, account: 'demo', name: 'Demo Operator' });
    const [rivalUser] = await t.app.database.db.select().from(usersTable).where(eq(usersTable.account, 'rival-e'));
    const foreign = await api('POST', `/api/iot/v2/alarms/${open!.id}/assign`, admin, { userId: rivalUser!.id }, 'zh-CN');
    expect(foreign.body).toMatchObject({ errorcode: 'ASSIGNEE_UNKNOWN', errormsg: '该组织下不存在此用户' });
    // The flow's filters: handled by me, by a user, in a work order or not.
    const mine = (await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms?mine=true&size=100', operator)).body.data!;
    expect(mine.rows.map((a) => a.id)).toEqual([open!.id]);
    expect((await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms?mine=true', admin)).body.data!.total).toBe(0);
    expect((await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?assigneeId=${demoUser.id}`, admin)).body.data!.rows.map((a) => a.id)).toEqual([open!.id]);
    expect((await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms?inWorkOrder=true', admin)).body.data!.total).toBe(0);
    const all = (await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms', admin)).body.data!.total;
    expect((await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms?inWorkOrder=false', admin)).body.data!.total).toBe(all);
    expect(all).toBeGreaterThan(1);
    const empty = await api('POST', `/api/iot/v2/alarms/${open!.id}/comments`, operator, { text: '  ' });
    expect(empty.body.errorcode).toBe('COMMENT_REQUIRED');
    const timeline = await api<{ kind: string; actor: string | null; detail: Record<string, unknown> }[]>('POST', `/api/iot/v2/alarms/${open!.id}/comments`, operator, { text: 'Driver called: unit restarted' });
    expect(timeline.body.data!.map((e) => e.kind)).toEqual(['created', 'assigned', 'commented']);
    expect(timeline.body.data![2]).toMatchObject({ actor: 'demo', detail: { text: 'Driver called: unit restarted' } });
    expect((await api('POST', `/api/iot/v2/alarms/${open!.id}/comments`, rival, { text: 'x' })).status).toBe(404);
  });

  it('filters by type, level, status and time, counts by type and level, and exports in the user language', async () => {
    const urgentActive = await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?type=temp_high&levelId=${level('urgent').id}&status=active`, admin);
    expect(urgentActive.body.data!.rows.every((a) => a.type === 'temp_high' && a.status === 'active' && a.level.code === 'urgent')).toBe(true);
    expect(urgentActive.body.data!.total).toBe(1);
    // The keyword reads the device id and name, the asset and the policy name (a % is literal).
    const byDevice = await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms?keyword=engine-truck&size=100', admin);
    expect(byDevice.body.data!.total).toBeGreaterThan(0);
    expect(byDevice.body.data!.rows.every((a) => a.device.deviceId === 'ENGINE-TRUCK')).toBe(true);
    const byAsset = await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms?keyword=MSKU1234565', admin);
    expect(byAsset.body.data!.rows.map((a) => a.asset?.code)).toEqual(['MSKU1234565']);
    const byPolicy = await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?keyword=${encodeURIComponent('too warm')}&size=100`, admin);
    expect(new Set(byPolicy.body.data!.rows.map((a) => a.policyName))).toEqual(new Set(['Reefer too warm', 'Twin too warm']));
    expect((await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms?keyword=%25%25', admin)).body.data!.total).toBe(0);
    const early = await api<Page<AlarmRow>>('GET', `/api/iot/v2/alarms?from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(45))}`, admin);
    expect(early.body.data!.rows.map((a) => a.startedAt)).toEqual([at(10)]);
    const statsRes = await api<AlarmStats>('GET', '/api/iot/v2/alarms/stats?bucket=day', admin);
    expect(statsRes.status, JSON.stringify(statsRes.body)).toBe(200);
    const stats = statsRes.body.data!;
    // The reefer's opened at 10 (cleared), 50 (cleared), 300 (closed by hand) and 330 (open); the twin's five.
    expect(stats.byType.find((s) => s.type === 'temp_high')!.count).toBe(9);
    expect(stats.byLevel.map((l) => l.code)).toEqual(['urgent', 'important', 'minor']);
    expect(stats.overTime.reduce((n, b) => n + b.count, 0)).toBe(stats.byType.reduce((n, b) => n + b.count, 0));
    const res = await t.app.inject({ method: 'GET', url: `/api/iot/v2/alarms/export?format=xlsx&type=temp_high&deviceId=${reefer.id}`, headers: { access_token: admin, language: 'zh-CN', timezone: 'Asia/Shanghai' } });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(3).value).toBe('告警类型');
    expect(sheet.getRow(2).getCell(3).value).toBe('温度过高');
    expect(sheet.rowCount).toBe(5);
  });

  it('another organisation sees none of them and cannot handle them', async () => {
    const mine = (await alarmsOf(reefer))[0]!;
    expect((await api<Page<AlarmRow>>('GET', '/api/iot/v2/alarms', rival)).body.data!.total).toBe(0);
    expect((await api('GET', `/api/iot/v2/alarms/${mine.id}`, rival)).status).toBe(404);
    expect((await api('GET', `/api/iot/v2/alarms/${mine.id}/events`, rival)).status).toBe(404);
    expect((await api('POST', `/api/iot/v2/alarms/${mine.id}/acknowledge`, rival)).status).toBe(404);
    expect((await api('POST', `/api/iot/v2/alarms/${mine.id}/close`, rival, { reason: 'x' })).status).toBe(404);
    expect((await api<AlarmStats>('GET', '/api/iot/v2/alarms/stats', rival)).body.data!.byType).toEqual([]);
  });
});

describe('live push', () => {
  // How fast is the benchmark's (alarm.*.publish_to_alarm_p99): here only that it arrives.
  it('pushes a new alarm to the own organisation, and not to another', async () => {
    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
    const open = (token: string) => openLive(base, token);
    const mine = await open(operator);
    const theirs = await open(rival);
    expect(await until(() => mine.messages.some((m) => m.type === 'hello') && theirs.messages.some((m) => m.type === 'hello'), 15_000)).toBe(true);
    await report(truck, 400, 30, { extraData: '{"3":{"temp":300}}' });
    const alarmsIn = (ms: LiveMessage[]) => ms.flatMap((m) => (m.type === 'alarms' ? m.data : []));
    expect(await until(() => alarmsIn(mine.messages).some((a) => a.device.deviceId === 'ENGINE-TRUCK' && a.status === 'cleared'), 15_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
    expect(alarmsIn(theirs.messages)).toEqual([]);
    mine.ws.close();
    theirs.ws.close();
  });
});
