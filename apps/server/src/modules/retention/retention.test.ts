// Retention (issue 24): the effective rule of each organisation (own, inherited, platform rule,
// built-in default, raised to the floor), what may be saved (not below the floor, rows not
// longer than packs, the platform rule and floor by the platform administrator only); the job
// removes packed rows past the rows rule but not unpacked or stale-pack rows, packs (and their
// days' rows) past the packs rule, nothing under a hold on the device, its organisation, an
// ancestor or a task (before the task's start it does), and after a release the next run does;
// each removal and run is recorded; one organisation sees and changes nothing of another's.
// On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { LegalHoldRow, RetentionRemovalRow, RetentionTree } from '@iotc/shared/retention';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { rowsOf } from '../../db/client.ts';
import { addOrgUser, createTenantUser } from '../../test/fixtures.ts';
import { packDay } from '../archive/job.ts';
import { writeAudit } from '../audit/repo.ts';
import { retentionTick } from './job.ts';
import { seed } from '../../db/seed.ts';

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;
const dayIso = (daysAgo: number) => new Date(today - daysAgo * DAY).toISOString().slice(0, 10);
const PER_DAY = 24;

describe('retention', () => {
  let t: TestApp;
  let admin: string;
  let demoAdmin: string;
  let otherAdmin: string;
  let platformId: string;
  let demoId: string;
  let subId: string;
  let sub2Id: string;
  let otherId: string;
  const dev: Record<'A' | 'B' | 'C' | 'T' | 'E', string> = { A: '', B: '', C: '', T: '', E: '' };
  let taskId: string;
  const db = () => t.app.database.db;
  const tick = () => retentionTick(db(), { audit: writeAudit });

  const q1 = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db().execute(query))[0]!;
  const rowsOn = async (ref: string, daysAgo: number) =>
    Number(
      (await q1<{ n: string }>(sql`select count(*) as n from telemetry where device_ref = ${ref} and time >= ${dayIso(daysAgo)}::date and time < ${dayIso(daysAgo)}::date + 1`)).n,
    );
  const packOn = async (ref: string, daysAgo: number) =>
    rowsOf(await db().execute(sql`select 1 from reading_days where device_ref = ${ref} and day = ${dayIso(daysAgo)}::date`)).length === 1;

  async function device(orgId: string, code: string): Promise<string> {
    return (await q1<{ id: string }>(sql`insert into devices (org_id, device_id, name, secret_hash) values (${orgId}, ${code}, ${`retention ${code}`}, 'x') returning id`)).id;
  }
  /** PER_DAY readings on the day, received a minute after each. */
  async function readings(ref: string, orgId: string, daysAgo: number) {
    await db().execute(sql`insert into telemetry (org_id, device_ref, time, received_at, lat, lon, positioning, raw, sensors)
      select ${orgId}::uuid, ${ref}::uuid, t, t + interval '1 minute', 31, 121.5, 'GPS', '{"3":{"temp":45}}'::jsonb, '{"temperature":4.5}'::jsonb
      from generate_series(${dayIso(daysAgo)}::timestamptz, ${dayIso(daysAgo)}::timestamptz + interval '23 hours', interval '1 hour') as t`);
  }
  const pack = (ref: string, daysAgo: number) => packDay(db(), ref, dayIso(daysAgo), new Date());
  const tree = async (token: string) => {
    const r = await call<RetentionTree>(t.app, { method: 'GET', url: '/api/iot/v2/retention-rules', token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data!;
  };
  const put = (token: string, orgId: string, body: object, lang: 'zh-CN' | 'en-US' = 'en-US') =>
    call(t.app, { method: 'PUT', url: `/api/iot/v2/retention-rules/${orgId}`, token, body, lang });
  const rule = (rows: number | null | 'inherit', packs: number | null | 'inherit', floor?: number | null) => ({
    rowsInherit: rows === 'inherit',
    rowsDays: rows === 'inherit' ? null : rows,
    packsInherit: packs === 'inherit',
    packsDays: packs === 'inherit' ? null : packs,
    ...(floor !== undefined ? { packsFloorDays: floor } : {}),
  });
  const placeHold = async (token: string, subjectKind: string, subjectId: string, reason = 'litigation 2026-17') => {
    const r = await call<{ id: string }>(t.app, { method: 'POST', url: '/api/iot/v2/legal-holds', token, body: { subjectKind, subjectId, reason } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data!.id;
  };
  const release = (token: string, id: string) => call(t.app, { method: 'POST', url: `/api/iot/v2/legal-holds/${id}/release`, token });

  beforeAll(async () => {
    t = await testApp();
    admin = await login(t.app, 'admin', ADMIN_PASSWORD);
    platformId = (await q1<{ id: string }>(sql`select id from orgs where kind = 'platform'`)).id;
    demoId = (await q1<{ id: string }>(sql`select id from orgs where code = 'demo'`)).id;
    await addOrgUser(db(), { orgId: demoId, account: 'ret-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
    demoAdmin = await login(t.app, 'ret-admin', DEMO_PASSWORD);
    for (const [code, name] of [
      ['ret-sub', 'Retention Sub'],
      ['ret-sub2', 'Retention Sub 2'],
    ]) {
      const r = await call<{ id: string }>(t.app, { method: 'POST', url: '/api/iot/v2/orgs', token: demoAdmin, body: { parentId: demoId, code, name } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    subId = (await q1<{ id: string }>(sql`select id from orgs where code = 'ret-sub'`)).id;
    sub2Id = (await q1<{ id: string }>(sql`select id from orgs where code = 'ret-sub2'`)).id;
    const other = await createTenantUser(db(), { code: 'ret-other', account: 'ret-other', password: DEMO_PASSWORD, permissions: ['org:read', 'org:write'] });
    otherId = other.org.id;
    otherAdmin = await login(t.app, 'ret-other', DEMO_PASSWORD);
    dev.A = await device(subId, 'RET-A');
    dev.B = await device(subId, 'RET-B');
    dev.C = await device(sub2Id, 'RET-C');
    dev.T = await device(subId, 'RET-T');
    dev.E = await device(otherId, 'RET-E');
    // A: a day past the packs rule (packed), one past the rows rule packed, one not packed, one
    // whose pack went stale, and a recent packed day.
    for (const d of [200, 100, 99, 98, 10]) await readings(dev.A, subId, d);
    for (const d of [200, 100, 98, 10]) await pack(dev.A, d);
    await db().execute(sql`update reading_days set stale = true where device_ref = ${dev.A} and day = ${dayIso(98)}::date`);
    for (const ref of [dev.B, dev.T]) for (const d of [220, 200]) await readings(ref, subId, d);
    for (const d of [220, 200]) await readings(dev.C, sub2Id, d);
    await readings(dev.E, otherId, 200);
    for (const ref of [dev.B, dev.C, dev.T, dev.E]) for (const d of [220, 200]) await pack(ref, d);
    // A task of T that started 205 days ago: a hold on it keeps day 200, not day 220.
    taskId = (
      await q1<{ id: string }>(sql`insert into transport_tasks (org_id, code, status, goods_name, origin_name, origin_lat, origin_lon, origin_radius_m,
          destination_name, destination_lat, destination_lon, destination_radius_m, planned_distance_m, settings, created_by, started_at, arrived_at)
        values (${subId}, 'RET-TASK-1', 'arrived', 'vaccines', 'A', 31, 121, 500, 'B', 31.5, 121.5, 500, 60000, '{}'::jsonb, 'test',
          ${new Date(today - 205 * DAY).toISOString()}::timestamptz, ${new Date(today - 195 * DAY).toISOString()}::timestamptz) returning id`)
    ).id;
    await db().execute(sql`insert into transport_task_devices (task_id, device_ref, position) values (${taskId}, ${dev.T}, 0)`);
  });
  afterAll(async () => t?.close());

  it('works out each organisation’s effective rule: own, inherited, platform rule, built-in default, floor', async () => {
    let tr = await tree(demoAdmin);
    expect(tr.orgs.map((o) => o.orgId)).toEqual([demoId, subId, sub2Id]);
    expect(tr.orgs[0]).toMatchObject({ rows: { days: 90, source: 'default' }, packs: { days: null, source: 'default' } });
    expect((await put(admin, platformId, rule(60, 'inherit'))).status).toBe(200);
    expect((await put(demoAdmin, demoId, rule('inherit', 3650))).status).toBe(200);
    tr = await tree(demoAdmin);
    expect(tr.orgs[0]).toMatchObject({ rows: { days: 60, source: 'platform', fromOrgId: platformId }, packs: { days: 3650, source: 'own', fromOrgId: demoId } });
    expect(tr.orgs[1]).toMatchObject({ rows: { days: 60, source: 'platform' }, packs: { days: 3650, source: 'inherited', fromOrgId: demoId, fromOrgName: 'Demo Cold Chain Co.' } });
    // A root tenant (no parent) takes the platform rule too.
    expect((await tree(otherAdmin)).orgs).toMatchObject([{ orgId: otherId, rows: { days: 60, source: 'platform' }, packs: { days: null, source: 'default' } }]);
    // The floor: a rule below it is refused; a floor above a rule raises the rule's effect.
    expect((await put(admin, platformId, rule(60, 'inherit', 1825))).status).toBe(200);
    const below = await put(demoAdmin, subId, rule('inherit', 1000), 'zh-CN');
    expect(below.status).toBe(400);
    expect(below.body).toMatchObject({ errorcode: 'RETENTION_BELOW_FLOOR' });
    expect(below.body.errormsg).toContain('1825');
    expect(below.body.errormsg).toContain('归档数据保留天数不能低于平台设定的下限');
    expect((await put(admin, platformId, rule(60, 'inherit', 5000))).status).toBe(200);
    tr = await tree(demoAdmin);
    expect(tr.floorDays).toBe(5000);
    expect(tr.orgs[1]!.packs).toMatchObject({ days: 5000, source: 'floor' });
    // Rows kept longer than packs, or forever with packs not: refused.
    expect((await put(admin, platformId, rule(60, 'inherit', null))).status).toBe(200);
    const over = await put(demoAdmin, subId, rule(400, 365));
    expect(over.status).toBe(400);
    expect(over.body.errorcode).toBe('RETENTION_ROWS_OVER_PACKS');
    expect((await put(demoAdmin, subId, rule(null, 365))).body.errorcode).toBe('RETENTION_ROWS_OVER_PACKS');
    // The platform rule and the floor are the platform administrator's.
    expect((await put(demoAdmin, demoId, rule('inherit', 3650, 100))).body.errorcode).toBe('RETENTION_FLOOR_PLATFORM_ONLY');
    expect((await put(demoAdmin, platformId, rule(30, 'inherit'))).status).toBe(404);
    // Days out of range: refused by the schema.
    expect((await put(demoAdmin, subId, rule(0, 365))).status).toBe(400);
    const changes = rowsOf<{ detail: string }>(await db().execute(sql`select detail from audit_logs where action = 'retention_rule_update' order by id`));
    expect(changes.map((c) => c.detail)).toContain('Demo Cold Chain Co.: rows inherit packs 3650 days');
  });

  it('one organisation neither sees nor changes another’s rules, holds or removals', async () => {
    expect((await tree(otherAdmin)).orgs.map((o) => o.orgId)).toEqual([otherId]);
    expect((await put(otherAdmin, demoId, rule(30, 150))).status).toBe(404);
    expect((await put(demoAdmin, otherId, rule(30, 150))).status).toBe(404);
    for (const [kind, id] of [
      ['org', demoId],
      ['device', dev.A],
      ['task', taskId],
    ] as const) {
      const r = await call(t.app, { method: 'POST', url: '/api/iot/v2/legal-holds', token: otherAdmin, body: { subjectKind: kind, subjectId: id, reason: 'x' } });
      expect(r.status).toBe(404);
    }
    const mine = await placeHold(demoAdmin, 'device', dev.A, 'isolation check');
    expect((await release(otherAdmin, mine)).status).toBe(404);
    const theirs = await call<Page<LegalHoldRow>>(t.app, { method: 'GET', url: '/api/iot/v2/legal-holds', token: otherAdmin });
    expect(theirs.body.data!.total).toBe(0);
    // A hold belongs to the organisation that placed it: the subject's own sub-organisation
    // neither sees nor lifts it, while the parent sees the sub-organisation's own holds.
    const [subRole] = rowsOf<{ id: string }>(await db().execute(sql`insert into roles (org_id, code, name_zh, name_en) values (${subId}, 'sub_admin', '子管理员', 'Sub admin') returning id`));
    await db().execute(sql`insert into role_permissions (role_id, permission) values (${subRole!.id}, 'org:read'), (${subRole!.id}, 'org:write')`);
    await db().execute(sql`insert into role_menus (role_id, menu_id) values (${subRole!.id}, '102-platform-retention')`);
    await addOrgUser(db(), { orgId: subId, account: 'ret-sub-admin', password: DEMO_PASSWORD, roleCodes: ['sub_admin'] });
    const subAdmin = await login(t.app, 'ret-sub-admin', DEMO_PASSWORD);
    expect((await release(subAdmin, mine)).status).toBe(404);
    const subOwn = await placeHold(subAdmin, 'device', dev.A, 'sub-organisation check');
    const seenBySub = await call<Page<LegalHoldRow>>(t.app, { method: 'GET', url: '/api/iot/v2/legal-holds', token: subAdmin });
    expect(seenBySub.body.data!.rows.map((h) => h.id)).toEqual([subOwn]);
    const seenByDemo = await call<Page<LegalHoldRow>>(t.app, { method: 'GET', url: '/api/iot/v2/legal-holds?state=active', token: demoAdmin });
    expect(seenByDemo.body.data!.rows.map((h) => h.id).sort()).toEqual([mine, subOwn].sort());
    expect((await release(demoAdmin, subOwn)).status).toBe(200);
    expect((await release(demoAdmin, mine)).status).toBe(200);
    expect((await release(demoAdmin, mine)).body.errorcode).toBe('HOLD_RELEASED');
    // A reason is required, in the request's language.
    const blank = await call(t.app, { method: 'POST', url: '/api/iot/v2/legal-holds', token: demoAdmin, body: { subjectKind: 'device', subjectId: dev.A, reason: '  ' }, lang: 'zh-CN' });
    expect(blank.status).toBe(400);
    expect(blank.body.errormsg).toContain('请填写法律保全的原因');
    // Reading needs org:read, changing org:write.
    const { user } = await createTenantUser(db(), { code: 'ret-ro', account: 'ret-ro', password: DEMO_PASSWORD, permissions: ['org:read'] });
    const ro = await login(t.app, user.account, DEMO_PASSWORD);
    expect((await call(t.app, { method: 'GET', url: '/api/iot/v2/retention-rules', token: ro })).status).toBe(200);
    expect((await put(ro, user.orgId, rule(30, 150))).status).toBe(403);
  });

  it('reaches an existing installation: the new screen goes once to the roles that manage organisations', async () => {
    const { role } = await createTenantUser(db(), { code: 'ret-old', account: 'ret-old', password: DEMO_PASSWORD, menuIds: ['102-platform-orgs', '101-platform-orgs'] });
    const granted = async () =>
      rowsOf<{ menu_id: string }>(await db().execute(sql`select menu_id from role_menus where role_id = ${role.id} and menu_id like '%-platform-retention' order by menu_id`)).map((r) => r.menu_id);
    // As before the entry existed.
    await db().execute(sql`delete from menus where id like '%-platform-retention'`);
    const again = () => seed(db(), { adminPassword: ADMIN_PASSWORD, seedDemo: true, demoPassword: DEMO_PASSWORD });
    await again();
    expect(await granted()).toEqual(['101-platform-retention', '102-platform-retention']);
    // A later revoke stays revoked.
    await db().execute(sql`delete from role_menus where role_id = ${role.id} and menu_id = '101-platform-retention'`);
    await again();
    expect(await granted()).toEqual(['102-platform-retention']);
  });

  it('removes packed rows past the rows rule and packs past the packs rule, nothing that a hold covers, and the rest once released', async () => {
    expect((await put(demoAdmin, demoId, rule(30, 150))).status).toBe(200);
    expect((await put(demoAdmin, subId, rule('inherit', 'inherit'))).status).toBe(200);
    const holdB = await placeHold(demoAdmin, 'device', dev.B);
    const holdC = await placeHold(demoAdmin, 'org', sub2Id);
    const holdT = await placeHold(demoAdmin, 'task', taskId);

    // Run 1: A alone loses anything; T loses the day before its task.
    let r = await tick();
    expect(r.held).toBe(2);
    expect(await packOn(dev.A, 200)).toBe(false);
    expect(await rowsOn(dev.A, 200)).toBe(0);
    expect(await rowsOn(dev.A, 100)).toBe(0);
    expect(await packOn(dev.A, 100)).toBe(true);
    expect(await rowsOn(dev.A, 99)).toBe(PER_DAY); // not packed
    expect(await rowsOn(dev.A, 98)).toBe(PER_DAY); // stale pack
    expect(await rowsOn(dev.A, 10)).toBe(PER_DAY); // within the rows rule
    for (const ref of [dev.B, dev.C]) expect([await packOn(ref, 220), await packOn(ref, 200), await rowsOn(ref, 200)]).toEqual([true, true, PER_DAY]);
    expect([await packOn(dev.T, 220), await rowsOn(dev.T, 220)]).toEqual([false, 0]);
    expect([await packOn(dev.T, 200), await rowsOn(dev.T, 200)]).toEqual([true, PER_DAY]);
    // E's organisation keeps packs forever (platform rule, built-in default for packs); its rows go (60 days).
    expect([await packOn(dev.E, 200), await rowsOn(dev.E, 200)]).toEqual([true, 0]);

    const removals = await call<Page<RetentionRemovalRow>>(t.app, { method: 'GET', url: '/api/iot/v2/retention-removals?size=50', token: demoAdmin });
    expect(removals.status).toBe(200);
    const byDev = (ref: string) => removals.body.data!.rows.filter((x) => x.deviceRef === ref).map((x) => [x.what, x.readings, x.policy]);
    expect(byDev(dev.A).sort()).toEqual([
      ['packs', PER_DAY, 'packs kept 150 days (inherited from Demo Cold Chain Co.)'],
      ['rows', PER_DAY, 'rows kept 30 days (inherited from Demo Cold Chain Co.)'],
    ]);
    const aPacks = removals.body.data!.rows.find((x) => x.deviceRef === dev.A && x.what === 'packs')!;
    expect(aPacks.fromTime).toBe(new Date(`${dayIso(200)}T00:00:00Z`).toISOString());
    expect(aPacks.toTime).toBe(new Date(Date.parse(`${dayIso(200)}T23:00:00Z`) + 1).toISOString());
    expect(byDev(dev.T)).toEqual([['packs', PER_DAY, 'packs kept 150 days (inherited from Demo Cold Chain Co.)']]);
    expect(byDev(dev.E)).toEqual([]);
    const received = await q1<{ received_from: Date; received_to: Date }>(sql`select received_from, received_to from retention_removals where device_ref = ${dev.A} and what = 'packs'`);
    expect(new Date(received.received_from).toISOString()).toBe(new Date(Date.parse(`${dayIso(200)}T00:01:00Z`)).toISOString());
    expect(new Date(received.received_to).toISOString()).toBe(new Date(Date.parse(`${dayIso(200)}T23:01:00Z`)).toISOString());
    // The other organisation sees only its own (E's rows).
    const theirs = await call<Page<RetentionRemovalRow>>(t.app, { method: 'GET', url: '/api/iot/v2/retention-removals', token: otherAdmin });
    expect(theirs.body.data!.rows.map((x) => [x.deviceRef, x.what])).toEqual([[dev.E, 'rows']]);
    const entries = rowsOf<{ org_id: string; account: string; detail: string }>(
      await db().execute(sql`select org_id, account, detail from audit_logs where action = 'retention_remove' order by id`),
    );
    expect(entries.map((e) => [e.org_id, e.account])).toEqual(expect.arrayContaining([[subId, 'system'], [otherId, 'system']]));
    expect(entries.length).toBe(2);
    expect(entries.find((e) => e.org_id === subId)!.detail).toContain(`packs of 2 device(s), ${2 * PER_DAY} readings`);

    // Run 2: B's own hold released but its ancestor held: still nothing.
    expect((await release(demoAdmin, holdB)).status).toBe(200);
    const holdDemo = await placeHold(demoAdmin, 'org', demoId, 'audit of the whole company');
    r = await tick();
    expect(r.rowsRemoved + r.packReadingsRemoved).toBe(0);
    expect(await packOn(dev.B, 200)).toBe(true);
    const holds = await call<Page<LegalHoldRow>>(t.app, { method: 'GET', url: '/api/iot/v2/legal-holds?state=active', token: demoAdmin });
    expect(holds.body.data!.rows.map((h) => [h.subjectKind, h.subjectName]).sort()).toEqual([
      ['org', 'Demo Cold Chain Co.'],
      ['org', 'Retention Sub 2'],
      ['task', 'RET-TASK-1'],
    ]);

    // Run 3: the ancestor's and C's organisation holds released: B and C go, T's task still held.
    expect((await release(demoAdmin, holdDemo)).status).toBe(200);
    expect((await release(demoAdmin, holdC)).status).toBe(200);
    await tick();
    for (const ref of [dev.B, dev.C]) expect([await packOn(ref, 220), await packOn(ref, 200), await rowsOn(ref, 200)]).toEqual([false, false, 0]);
    expect(await packOn(dev.T, 200)).toBe(true);

    // Run 4: the task's hold released.
    expect((await release(demoAdmin, holdT)).status).toBe(200);
    await tick();
    expect([await packOn(dev.T, 200), await rowsOn(dev.T, 200)]).toEqual([false, 0]);
    // A further run finds nothing more.
    r = await tick();
    expect(r.rowsRemoved + r.packReadingsRemoved).toBe(0);
    const actions = rowsOf<{ action: string }>(await db().execute(sql`select distinct action from audit_logs where action like 'legal_hold_%'`)).map((a) => a.action);
    expect(actions.sort()).toEqual(['legal_hold_place', 'legal_hold_release']);
  });
});
