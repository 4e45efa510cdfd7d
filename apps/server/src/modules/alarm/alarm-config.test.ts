// Alarm levels and policies through the API: every organisation starts with the four levels;
// levels and policies are created, changed and deleted with clear errors in both languages (a
// level in use stays); a policy's rules are checked (threshold ranges, its organisation's levels,
// its targets); policies are enabled, disabled, copied, exported and imported into another
// organisation by level codes and device ids; one organisation never sees another's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LevelRow, PolicyInput, PolicyRow } from '@iotc/shared/alarm';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { orgs } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let operator: string;
let rival: string;
let levels: LevelRow[];
let device: DeviceWithSecret;

const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<T>(t.app, { method, url, token, body, lang });
const level = (code: string) => levels.find((l) => l.code === code)!;

function policy(over: Partial<PolicyInput> = {}): PolicyInput {
  return {
    name: 'Reefer limits',
    scope: 'all',
    rules: [
      { id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, durationS: 60, levelId: level('urgent').id },
      { id: 'batt', type: 'low_battery', threshold: 20, levelId: level('minor').id },
    ],
    ...over,
  };
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'alarm-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'alarm-admin', DEMO_PASSWORD);
  operator = await login(t.app, 'demo', DEMO_PASSWORD);
  await createTenantUser(db, { code: 'rival', account: 'rival-admin', password: DEMO_PASSWORD, permissions: ['alarm:read', 'alarm:write', 'device:read', 'device:write'] });
  rival = await login(t.app, 'rival-admin', DEMO_PASSWORD);
  levels = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', admin)).body.data!.rows;
  device = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', admin, { deviceId: 'ALARM-CFG-01', name: 'Reefer 1' })).body.data!;
});
afterAll(async () => {
  await t.close();
});

describe('alarm levels', () => {
  it('every organisation starts with urgent, important, minor and reminder, in both languages, by priority', async () => {
    expect(levels.map((l) => [l.code, l.nameZh, l.nameEn, l.priority, l.sound])).toEqual([
      ['urgent', '紧急', 'Urgent', 1, true],
      ['important', '重要', 'Important', 2, true],
      ['minor', '次要', 'Minor', 3, false],
      ['reminder', '提醒', 'Reminder', 4, false],
    ]);
    const theirs = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', rival)).body.data!.rows;
    expect(theirs.map((l) => l.code)).toEqual(['urgent', 'important', 'minor', 'reminder']);
    expect(theirs.map((l) => l.id).some((id) => levels.some((l) => l.id === id))).toBe(false);
  });

  it('creates, changes and deletes a level; a repeated code, a bad colour and a level in use are refused', async () => {
    const made = await api<LevelRow>('POST', '/api/iot/v2/alarm-levels', admin, { code: 'notice', nameZh: '通知', nameEn: 'Notice', color: '#13C2C2', priority: 5, sound: false });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ code: 'notice', color: '#13c2c2', rulesUsing: 0 });
    const dup = await api('POST', '/api/iot/v2/alarm-levels', admin, { code: 'notice', nameZh: '通知', nameEn: 'Notice', color: '#13c2c2', priority: 5, sound: false }, 'zh-CN');
    expect(dup).toMatchObject({ status: 409, body: { errorcode: 'LEVEL_CODE_TAKEN', errormsg: '该组织下已存在此等级编码' } });
    const badColour = await api('PUT', `/api/iot/v2/alarm-levels/${made.body.data!.id}`, admin, { code: 'notice', nameZh: '通知', nameEn: 'Notice', color: 'teal', priority: 5, sound: false });
    expect(badColour.body).toMatchObject({ errorcode: 'COLOR_FORMAT', errormsg: 'The colour must look like #RRGGBB' });
    const changed = await api<LevelRow>('PUT', `/api/iot/v2/alarm-levels/${made.body.data!.id}`, admin, { code: 'notice', nameZh: '通知', nameEn: 'Notice', color: '#13c2c2', priority: 6, sound: true });
    expect(changed.body.data).toMatchObject({ priority: 6, sound: true });

    const used = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', admin, policy({ name: 'uses notice', rules: [{ id: 'n', type: 'light', threshold: 50, levelId: made.body.data!.id }] }));
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    const inUse = await api('DELETE', `/api/iot/v2/alarm-levels/${made.body.data!.id}`, admin);
    expect(inUse).toMatchObject({ status: 409, body: { errorcode: 'LEVEL_IN_USE' } });
    expect((await api('DELETE', `/api/iot/v2/alarm-policies/${used.body.data!.id}`, admin)).status).toBe(200);
    expect((await api('DELETE', `/api/iot/v2/alarm-levels/${made.body.data!.id}`, admin)).status).toBe(200);
  });

  it('the operator reads levels but may not change them; another organisation cannot touch them', async () => {
    expect((await api('GET', '/api/iot/v2/alarm-levels', operator)).status).toBe(200);
    const denied = await api('POST', '/api/iot/v2/alarm-levels', operator, { code: 'x1', nameZh: 'x', nameEn: 'x', color: '#000000', priority: 9, sound: false }, 'zh-CN');
    expect(denied).toMatchObject({ status: 403, body: { errormsg: '暂无权限' } });
    const id = level('urgent').id;
    expect((await api('GET', `/api/iot/v2/alarm-levels/${id}`, rival)).status).toBe(404);
    expect((await api('PUT', `/api/iot/v2/alarm-levels/${id}`, rival, { code: 'urgent', nameZh: 'x', nameEn: 'x', color: '#000000', priority: 1, sound: false })).status).toBe(404);
    expect((await api('DELETE', `/api/iot/v2/alarm-levels/${id}`, rival)).status).toBe(404);
  });
});

describe('alarm policies', () => {
  it('creates a policy with its rules and defaults, lists and filters it', async () => {
    const made = await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', admin, policy());
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ name: 'Reefer limits', enabled: true, scope: 'all', targets: [], activeAlarms: 0, orgName: 'Demo Cold Chain Co.' });
    expect(made.body.data!.rules[1]).toMatchObject({ id: 'batt', durationS: 0, hysteresis: 0, enabled: true, schedule: null, places: [] });
    const listed = await api<Page<PolicyRow>>('GET', '/api/iot/v2/alarm-policies?keyword=reefer&enabled=true', operator);
    expect(listed.body.data!.rows.map((p) => p.name)).toContain('Reefer limits');
    const none = await api<Page<PolicyRow>>('GET', '/api/iot/v2/alarm-policies?enabled=false', operator);
    expect(none.body.data!.rows.map((p) => p.name)).not.toContain('Reefer limits');
  });

  it('refuses a threshold out of range, a level of another organisation, unknown targets, no rules and a bad schedule, in the user language', async () => {
    const out = await api('POST', '/api/iot/v2/alarm-policies', admin, policy({ rules: [{ id: 'a', type: 'humidity_high', threshold: 150, levelId: level('urgent').id }] }), 'zh-CN');
    expect(out.body).toMatchObject({ errorcode: 'ALARM_THRESHOLD_RANGE', errormsg: '阈值超出该告警类型允许的范围' });
    const theirLevel = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', rival)).body.data!.rows[0]!.id;
    const foreign = await api('POST', '/api/iot/v2/alarm-policies', admin, policy({ rules: [{ id: 'a', type: 'temp_high', threshold: 8, levelId: theirLevel }] }));
    expect(foreign).toMatchObject({ status: 400, body: { errorcode: 'ALARM_LEVEL_UNKNOWN' } });
    const noTargets = await api('POST', '/api/iot/v2/alarm-policies', admin, policy({ scope: 'devices', targets: [] }));
    expect(noTargets.body.errorcode).toBe('POLICY_TARGETS_REQUIRED');
    const theirDevice = (await api<DeviceWithSecret>('POST', '/api/iot/v2/devices', rival, { deviceId: 'RIVAL-01', name: 'Rival tracker' })).body.data!;
    const unknown = await api('POST', '/api/iot/v2/alarm-policies', admin, policy({ scope: 'devices', targets: [theirDevice.id] }));
    expect(unknown).toMatchObject({ status: 400, body: { errorcode: 'POLICY_TARGET_UNKNOWN' } });
    const kinds = await api('POST', '/api/iot/v2/alarm-policies', admin, policy({ scope: 'asset_kinds', targets: ['spaceship'] }));
    expect(kinds.body.errorcode).toBe('POLICY_TARGET_UNKNOWN');
    const empty = await api('POST', '/api/iot/v2/alarm-policies', admin, policy({ rules: [] }));
    expect(empty.body).toMatchObject({ errorcode: 'ALARM_RULES_REQUIRED', errormsg: 'Add at least one rule' });
    const badTime = await api('POST', '/api/iot/v2/alarm-policies', admin, policy({ rules: [{ id: 'a', type: 'temp_high', threshold: 8, levelId: level('urgent').id, schedule: { days: [1], start: '25:00', end: '06:00', timezone: 'Asia/Shanghai' } }] }));
    expect(badTime.body.errorcode).toBe('TIME_OF_DAY_FORMAT');
    const badZone = await api('POST', '/api/iot/v2/alarm-policies', admin, policy({ rules: [{ id: 'a', type: 'temp_high', threshold: 8, levelId: level('urgent').id, schedule: { days: [1], start: '22:00', end: '06:00', timezone: 'Mars/Olympus' } }] }));
    expect(badZone.body.errorcode).toBe('TIMEZONE_UNKNOWN');
  });

  it('targets the devices named, disables, enables and copies (the copy starts disabled, named in the user language)', async () => {
    const made = (await api<PolicyRow>('POST', '/api/iot/v2/alarm-policies', admin, policy({ name: '冷藏车温度', scope: 'devices', targets: [device.id] }))).body.data!;
    expect(made.targets).toEqual([device.id]);
    const off = await api<PolicyRow>('POST', `/api/iot/v2/alarm-policies/${made.id}/disable`, admin);
    expect(off.body.data!.enabled).toBe(false);
    const on = await api<PolicyRow>('POST', `/api/iot/v2/alarm-policies/${made.id}/enable`, admin);
    expect(on.body.data!.enabled).toBe(true);
    const copy = await api<PolicyRow>('POST', `/api/iot/v2/alarm-policies/${made.id}/copy`, admin, undefined, 'zh-CN');
    expect(copy.body.data).toMatchObject({ name: '冷藏车温度（副本）', enabled: false, scope: 'devices', targets: [device.id] });
    expect(copy.body.data!.id).not.toBe(made.id);
    expect(copy.body.data!.rules).toEqual(made.rules);
    expect((await api('POST', `/api/iot/v2/alarm-policies/${made.id}/copy`, operator)).status).toBe(403);
  });

  it('exports policies as JSON naming levels by code and devices by id, and imports them into another organisation, all or none', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/iot/v2/alarm-policies/export', headers: { access_token: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('alarm-policies-');
    const file = res.json() as { format: string; policies: { name: string; targets: string[]; rules: { levelCode: string; levelId?: string }[] }[] };
    expect(file.format).toBe('iotc-alarm-policies/1');
    const byDevice = file.policies.find((p) => p.name === '冷藏车温度')!;
    expect(byDevice.targets).toEqual(['ALARM-CFG-01']);
    expect(byDevice.rules.map((r) => r.levelCode)).toEqual(['urgent', 'minor']);
    expect(byDevice.rules[0]!.levelId).toBeUndefined();

    // The rival has no device ALARM-CFG-01: nothing is imported.
    const refused = await api('POST', '/api/iot/v2/alarm-policies/import', rival, file);
    expect(refused.body.errorcode).toBe('POLICY_TARGET_UNKNOWN');
    expect((await api<Page<PolicyRow>>('GET', '/api/iot/v2/alarm-policies', rival)).body.data!.total).toBe(0);
    const forAll = { ...file, policies: file.policies.filter((p) => p.targets.length === 0) };
    const imported = await api<{ created: number }>('POST', '/api/iot/v2/alarm-policies/import', rival, forAll);
    expect(imported.body.data).toEqual({ created: forAll.policies.length });
    const theirs = (await api<Page<PolicyRow>>('GET', '/api/iot/v2/alarm-policies', rival)).body.data!.rows;
    const theirLevels = (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', rival)).body.data!.rows;
    expect(theirs.find((p) => p.name === 'Reefer limits')!.rules[0]!.levelId).toBe(theirLevels.find((l) => l.code === 'urgent')!.id);

    const notOurs = await api('POST', '/api/iot/v2/alarm-policies/import', rival, { format: 'something-else', policies: [] }, 'zh-CN');
    expect(notOurs.body).toMatchObject({ errorcode: 'POLICY_FILE_FORMAT', errormsg: expect.stringContaining('该文件不是本平台导出的告警策略') });
  });

  it('one organisation cannot read, change, copy or delete another organisation’s policy', async () => {
    const mine = (await api<Page<PolicyRow>>('GET', '/api/iot/v2/alarm-policies', admin)).body.data!.rows[0]!;
    for (const [method, url] of [
      ['GET', `/api/iot/v2/alarm-policies/${mine.id}`],
      ['DELETE', `/api/iot/v2/alarm-policies/${mine.id}`],
      ['POST', `/api/iot/v2/alarm-policies/${mine.id}/copy`],
      ['POST', `/api/iot/v2/alarm-policies/${mine.id}/disable`],
    ] as const) {
      expect((await api(method, url, rival)).status, `${method} ${url}`).toBe(404);
    }
    const put = await api('PUT', `/api/iot/v2/alarm-policies/${mine.id}`, rival, policy({ rules: [{ id: 'a', type: 'light', threshold: 5, levelId: (await api<Page<LevelRow>>('GET', '/api/iot/v2/alarm-levels', rival)).body.data!.rows[0]!.id }] }));
    expect(put.status).toBe(404);
    const theirs = (await api<Page<PolicyRow>>('GET', '/api/iot/v2/alarm-policies', rival)).body.data!.rows;
    expect(theirs.every((p) => p.orgName !== 'Demo Cold Chain Co.')).toBe(true);
  });
});
