// Organisation isolation, generated from the app's route table rather than a hand-picked list:
// organisation A (the demo organisation) gets one of everything, then the administrator of an
// unrelated organisation B, holding every permission, calls every route with A's real ids (in
// the path, the query and the body) and every list, report and export. B must get 403/404 (or,
// for lists, only its own rows), A's rows must be unchanged afterwards, and a route without a
// token may answer 2xx only if it is on the public allow-list with its reason. A new route with
// a path parameter fails this test until its parameter is mapped to the table it takes ids of.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { PERMISSION_CODES } from '@iotc/shared/platform';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { addOrgUser } from '../test/fixtures.ts';
import { demoDevices, seedDemoFleet } from '../demo/seed-demo.ts';
import { seedDemoTransport } from '../demo/seed-demo-transport.ts';
import { seedDemoWarehouse } from '../demo/seed-demo-warehouse.ts';
import { backfill } from '../sim/demo.ts';
import { rowsOf } from '../db/client.ts';
import { deliveries, faults, menus, orgs, roles } from '../db/schema.ts';
import { alarmsByIds } from '../modules/alarm/records.ts';
import type { RouteEntry } from '../app.ts';
import { addressWith, apiRoutes, changedTables, idsOfOrg, jsonSchemaOf, orgDigest, PARAM_KINDS, paramValue, pathParams, queryString, responseText, sampleOf, withIds, type Ids } from './route-kit.ts';

/** Routes that answer without a token, each with the reason it may. */
const PUBLIC_ROUTES: Record<string, string> = {
  'POST /iot-cloud-auth/auth/v1/login': 'signing in',
  'GET /iot-cloud-auth/auth/v1/logout': 'signing out is harmless without a session',
  'POST /iot-cloud-auth/user/v1/resetPassword': 'the forced change of an initial password happens before a session (original password and captcha)',
  'POST /api/iot/v2/captchas': 'the picture captcha of the sign-in, registration and password screens',
  'POST /api/iot/v2/registrations': 'self-registration (picture captcha)',
  'POST /iot-cloud-auth/auth/v1/sysUserModel': 'password retrieval: the account step',
  'POST /iot-cloud-auth/auth/v1/sendMail': 'password retrieval: sending the code',
  'POST /iot-cloud-auth/auth/v1/mailVerify': 'password retrieval: checking the code',
  'POST /iot-cloud-auth/auth/v1/forgot': 'password retrieval: the new password with the single-use ticket',
  'GET /api/iot/v2/sso/config': 'the sign-in screen shows the external sign-in button',
  'GET /iot-cloud-auth/auth/v1/oauth': 'external sign-in: start',
  'GET /iot-cloud-auth/auth/v1/oauth/callback': 'external sign-in: the provider redirects back',
  'GET /api/iot/v2/sso/auth/bindUser': 'external sign-in: binding with the account password',
  'POST /api/iot/v2/device/report': 'device intake, authenticated by the device secret (HTTP Basic)',
  'GET /api/iot/v2/ledger/checkpoint': 'transparency log: the signed tree head is public',
  'GET /api/iot/v2/ledger/public-key': 'transparency log: the verifier key is public',
  'GET /api/iot/v2/ledger/proof/inclusion': 'transparency log: proofs are hashes only',
  'GET /api/iot/v2/ledger/proof/consistency': 'transparency log: proofs are hashes only',
  'GET /api/iot/v2/ledger/public/:token': 'a share link publishes the records its owner chose',
  'GET /api/iot/v2/ledger/public/:token/certificate': 'the certificate of a share link',
  'GET /api/iot/v2/transport-tracking/public/:token': "a consignee's tracking link shows the one task its owner chose",
};

/** Routes B does not call: they act on B's own session and would end the test's sign-in. */
const OWN_SESSION = new Set(['GET /iot-cloud-auth/auth/v1/logout', 'POST /iot-cloud-auth/auth/v1/login', 'POST /iot-cloud-auth/user/v1/resetPassword']);

let t: TestApp;
let admin: string;
let aAdmin: string;
let bAdmin: string;
let orgA: string;
let orgB: string;
const ids: Ids = {};
/** Share links are kept as hashes: their tokens as A's administrator received them. */
const shareTokens: string[] = [];
/** Tracking links are kept as hashes too: their tokens as A's administrator received them. */
const trackingTokens: string[] = [];
/** What the set-up could not make through the API (shown when a later check fails). */
const setupFailures: string[] = [];
/** Text of A that must never reach B: ids, device ids, codes, names. */
let markers: string[] = [];

const api = <T = unknown>(method: string, url: string, token: string | undefined, body?: unknown, lang: 'zh-CN' | 'en-US' = 'en-US') =>
  call<T>(t.app, { method: method as 'GET', url, token, body, lang });

async function readIds(): Promise<void> {
  Object.assign(ids, await idsOfOrg(t.app.database.db, orgA));
  ids.shareToken = shareTokens;
  ids.trackingToken = trackingTokens;
}

/** Every id, device id, code and name of A's rows that no other organisation's rows share. */
async function readMarkers(): Promise<string[]> {
  const db = t.app.database.db;
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(sql`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'org_id' order by 1`),
  ).map((r) => r.table_name);
  const wanted = /^(id|device_id|code|account|email|phone|title|name|name_zh|name_en|plate\w*)$/;
  const collect = async (table: string, mine: boolean): Promise<string[]> => {
    const rows = rowsOf<{ j: Record<string, unknown> }>(
      await db.execute(sql`select row_to_json(x) as j from ${sql.raw(`"${table}"`)} x where ${mine ? sql`x.org_id = ${orgA}` : sql`x.org_id is distinct from ${orgA}`}`),
    );
    return rows.flatMap((r) => Object.entries(typeof r.j === 'string' ? (JSON.parse(r.j) as Record<string, unknown>) : r.j).filter(([k, v]) => wanted.test(k) && typeof v === 'string' && v.length >= 5).map(([, v]) => v as string));
  };
  const mine = new Set<string>([orgA]);
  const others = new Set<string>();
  for (const table of tables) {
    for (const v of await collect(table, true)) mine.add(v);
    for (const v of await collect(table, false)) others.add(v);
  }
  // Texts every organisation sees (menus, dictionaries) are no one's data.
  for (const table of ['menus', 'dict_types', 'dict_items']) {
    const rows = rowsOf<{ j: unknown }>(await db.execute(sql`select row_to_json(x) as j from ${sql.raw(table)} x`));
    for (const r of rows) for (const v of Object.values((typeof r.j === 'string' ? JSON.parse(r.j) : r.j) as Record<string, unknown>)) if (typeof v === 'string') others.add(v);
  }
  return [...mine].filter((v) => !others.has(v));
}

/** The first of A's markers the text shows, if any. */
const leakIn = (text: string) => markers.find((m) => text.includes(m));

/** Waits until the background work caused by the set-up (stored readings, alarms, ledger) has settled. */
async function settle() {
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
  await t.app.push.settled();
  await t.app.taskRecognizer.settled();
  for (let i = 0; i < 20; i++) await t.app.ledger.tick();
  await t.app.ledger.settled();
}

const key = (r: RouteEntry) => `${r.method} ${r.url}`;

beforeAll(async () => {
  // Ticks far apart: the test drives the background work itself, so nothing changes A's rows
  // on its own while B calls.
  t = await testApp({ alarmTickMs: 3_600_000, commandTimeoutMs: 3_600_000, ledgerCheckpointMs: 3_600_000 });
  const db = t.app.database.db;
  const all = await db.select().from(orgs);
  orgA = all.find((o) => o.code === 'demo')!.id;
  const platformOrg = all.find((o) => o.code === 'platform')!.id;
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  await addOrgUser(db, { orgId: orgA, account: 'a-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  aAdmin = await login(t.app, 'a-admin', DEMO_PASSWORD);

  // A: the demo fleet, its transport tasks, a few hours of readings (raising alarms by the
  // demo policies), warehouse records.
  await seedDemoFleet(db);
  const fleet = await demoDevices(db);
  await seedDemoTransport(db, { tasks: t.app.transportTasks, templates: t.app.transportTemplates }, fleet);
  const past = backfill(fleet, { hours: 3, stepMs: 300_000, now: Date.now() });
  for (const [i, d] of fleet.entries()) await t.app.intake.ingest(d, past[i]!.reports, 'mqtt');
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();
  await seedDemoWarehouse(db);

  // What the seed lacks, through the API as A's administrator.
  const must = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const r = await api<T>(method, url, aAdmin, body);
    if (r.status !== 200) {
      setupFailures.push(`${r.status} ${method} ${url}: ${r.body.errormsg}`);
      throw new Error(setupFailures.at(-1));
    }
    return r.body.data!;
  };
  await must('POST', '/api/iot/v2/places', { name: 'Isolation probe place', shape: 'circle', lat: 31.2, lon: 121.5, radiusM: 300 });
  await readIds();
  const device = ids.device![0]!;
  const alarm = ids.alarm![0];
  expect(alarm, 'the readings raised an alarm by the demo policies').toBeTruthy();
  await must('POST', '/api/iot/v2/alarm-policies', {
    name: 'Isolation probe policy',
    scope: 'devices',
    targets: [device],
    rules: [{ id: 'r1', type: 'temp_high', threshold: 99, levelId: ids.level![0] }],
  }).catch(() => undefined);
  const wo = await must<{ id: string }>('POST', '/api/iot/v2/work-orders', { title: 'Isolation probe work order', alarmIds: [alarm] });
  await must('POST', `/api/iot/v2/work-orders/${wo.id}/comments`, { text: 'checked' });
  await must('POST', '/api/iot/v2/push-rules', {
    name: 'Isolation probe rule',
    steps: [{ afterMinutes: 0, channels: ['in_app', 'email'], userIds: [ids.user![0]], emails: ['ops@example.com'] }],
  }).catch(() => undefined);
  // The rule's deliveries: the open alarms go to the push as the engine hands them over.
  t.app.push.invalidate();
  t.app.push.onAlarms((await alarmsByIds(db, ids.alarm!)).filter((r) => r.status === 'active'));
  await t.app.push.settled();
  if ((await db.select().from(deliveries).where(eq(deliveries.orgId, orgA))).length === 0) {
    // The push starts only for alarms opened in the last minutes: a delivery as it records one.
    await db.insert(deliveries).values({ orgId: orgA, alarmId: alarm!, ruleName: 'Isolation probe rule', event: 'opened', step: 0, channel: 'email', target: 'ops@example.com', subject: 'Probe', body: 'Probe', status: 'outbox', createdAt: new Date() });
  }
  await must('POST', '/api/iot/v2/report-schedules', { name: 'Isolation probe schedule', kind: 'alarm', frequency: 'daily', timezone: 'Asia/Shanghai', lang: 'en', recipients: ['ops@example.com'] }).catch(() => undefined);
  await must('POST', '/api/iot/v2/commands', { deviceRef: device, kind: 'report_interval', params: { seconds: 60 } }).catch(() => undefined);
  // A fault, as the detector records one (the seed's readings are all good).
  await db.insert(faults).values({ orgId: orgA, deviceRef: device, kind: 'bad_reports', firstAt: new Date(), lastAt: new Date(), detail: { reason: 'probe' } });
  await t.app.readings.flushed();
  for (let i = 0; i < 20; i++) await t.app.ledger.tick();
  const share = await must<{ token: string }>('POST', '/api/iot/v2/ledger/shares', { taskId: ids.task![0] }).catch(() => undefined);
  if (share) shareTokens.push(share.token);
  const tracking = await must<{ token: string }>('POST', `/api/iot/v2/transport-tasks/${ids.task![0]}/tracking-links`, {}).catch(() => undefined);
  if (tracking) trackingTokens.push(tracking.token);
  await must('POST', '/api/iot/v2/jt808-models', { model: 'PROBE-T4', items: [{ id: '0x51', layout: 'sm16/10', channel: 'temperature' }] });
  await must('PUT', `/api/iot/v2/retention-rules/${orgA}`, { rowsInherit: false, rowsDays: 60, packsInherit: true, packsDays: null });
  await must('POST', '/api/iot/v2/legal-holds', { subjectKind: 'device', subjectId: device, reason: 'Isolation probe hold' });
  await must('POST', '/api/iot/v2/roles', { orgId: orgA, code: 'probe_role', nameZh: '探针角色', nameEn: 'Probe role', permissions: [], menuIds: [] });
  // A product profile and a batch on A's task (issue 27 item 3).
  const probeProfile = await must<{ id: string }>('POST', '/api/iot/v2/product-profiles', { name: 'Isolation probe profile', lowC: 2, highC: 8, aboveBudgetMin: 60, belowBudgetMin: 0, absoluteMaxC: 25 });
  await must('PUT', `/api/iot/v2/transport-tasks/${ids.task![0]}/batches`, { batches: [{ batchNo: 'PROBE-1', profileId: probeProfile.id }] });
  // A platform notice for A's tree (issue 26 item 5): the platform administrator publishes it.
  const notice = await api('POST', '/api/iot/v2/platform/notices', admin, { titleZh: '隔离探针公告', titleEn: 'Isolation probe notice', orgId: orgA });
  expect(notice.status, JSON.stringify(notice.body)).toBe(200);

  // B: an unrelated top-level organisation with an administrator holding every permission and screen.
  const madeOrg = await api<{ id: string }>('POST', '/api/iot/v2/orgs', admin, { parentId: platformOrg, code: 'rival', name: 'Rival Logistics' });
  expect(madeOrg.status, JSON.stringify(madeOrg.body)).toBe(200);
  orgB = madeOrg.body.data!.id;
  const menuIds = (await db.select({ id: menus.id }).from(menus)).map((m) => m.id);
  const role = await api<{ id: string }>('POST', '/api/iot/v2/roles', admin, { orgId: orgB, code: 'all', nameZh: '全部权限', nameEn: 'Everything', permissions: PERMISSION_CODES, menuIds });
  expect(role.status, JSON.stringify(role.body)).toBe(200);
  const user = await api('POST', '/api/iot/v2/users', admin, { orgId: orgB, account: 'rival-admin', name: 'Rival Admin', password: 'Rival#2026x', roleIds: [role.body.data!.id] });
  expect(user.status, JSON.stringify(user.body)).toBe(200);
  bAdmin = await login(t.app, 'rival-admin', 'Rival#2026x');
  expect((await db.select().from(roles).where(and(eq(roles.orgId, orgB), eq(roles.code, 'all')))).length).toBe(1);

  await settle();
  await readIds();
  markers = await readMarkers();
}, 240_000);
afterAll(async () => t?.close());


/** A body or query with every id-like field holding one of A's ids; `used` tells whether one did. */


describe('organisation isolation over the whole route table', () => {
  let before: Record<string, string>;
  const outcomes: string[] = [];

  it('has A holding one of everything the parameters refer to', () => {
    const missing = Object.entries(PARAM_KINDS)
      .filter(([, kind]) => !ids[kind]?.length)
      .map(([p, kind]) => `${p} (${kind})`);
    expect(missing, setupFailures.join('\n')).toEqual([]);
    expect(markers.length).toBeGreaterThan(100);
  });

  it('maps every path parameter of every route to the table whose ids it takes', () => {
    const unmapped = apiRoutes(t.app.routeTable).flatMap((r) => pathParams(r.url).filter((p) => paramValue(ids, r.url, p) === undefined && !PARAM_KINDS[r.url.slice(0, r.url.indexOf(`:${p}`) + p.length + 1)]).map((p) => `${key(r)} :${p}`));
    expect(unmapped, 'map these parameters in PARAM_KINDS').toEqual([]);
  });

  it("shows A's own administrator A's records through the same calls (so the checks below can fail)", async () => {
    const reads = apiRoutes(t.app.routeTable).filter((r) => r.method === 'GET' && !PUBLIC_ROUTES[key(r)] && !OWN_SESSION.has(key(r)));
    let byId = 0;
    let byIdOk = 0;
    let listsShowingA = 0;
    for (const r of reads) {
      const url = (pathParams(r.url).length ? addressWith(ids, r) : r.url) + queryString(withIds(ids, r.schema?.querystring, false).value);
      const res = await t.app.inject({ method: 'GET', url, headers: { access_token: aAdmin, language: 'en-US' } });
      if (pathParams(r.url).length) {
        byId++;
        if (res.statusCode === 200) byIdOk++;
      } else if (res.statusCode === 200 && leakIn(await responseText(res))) listsShowingA++;
    }
    expect(byIdOk / byId).toBeGreaterThan(0.8);
    expect(listsShowingA).toBeGreaterThan(25);
  });

  it("refuses B every route called with A's ids in the path (403/404, never 2xx, never 5xx)", async () => {
    before = await orgDigest(t.app.database.db, orgA);
    const bad: string[] = [];
    for (const r of apiRoutes(t.app.routeTable)) {
      if (!pathParams(r.url).length || PUBLIC_ROUTES[key(r)] || OWN_SESSION.has(key(r))) continue;
      const query = queryString(withIds(ids, r.schema?.querystring, false).value);
      const body = r.schema?.body ? withIds(ids, r.schema.body).value : undefined;
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: addressWith(ids, r) + query,
        headers: { access_token: bAdmin, language: 'en-US', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      outcomes.push(`${res.statusCode} ${key(r)}`);
      if (![403, 404].includes(res.statusCode)) bad.push(`${res.statusCode} ${key(r)} ${res.payload.slice(0, 200)}`);
    }
    expect(bad).toEqual([]);
  });

  it("gives B nothing of A for A's ids in a query or body (4xx, or only B's own rows)", async () => {
    const bad: string[] = [];
    for (const r of apiRoutes(t.app.routeTable)) {
      if (pathParams(r.url).length || PUBLIC_ROUTES[key(r)] || OWN_SESSION.has(key(r))) continue;
      // All of A's ids at once, then each id field alone (scopes that take one of several).
      const all = [withIds(ids, r.schema?.querystring, false), r.schema?.body ? withIds(ids, r.schema.body) : { value: undefined, used: [] }] as const;
      const fields = [...all[0].used.map((f) => ['q', f] as const), ...all[1].used.map((f) => ['b', f] as const)];
      const variants = [all, ...(fields.length > 1 ? fields.map(([where, f]) => [withIds(ids, r.schema?.querystring, false, where === 'q' ? f : '-'), r.schema?.body ? withIds(ids, r.schema.body, true, where === 'b' ? f : '-') : { value: undefined, used: [] }] as const) : [])];
      if (!fields.length) continue;
      for (const [q, b] of variants) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: r.url + queryString(q.value),
          headers: { access_token: bAdmin, language: 'en-US', ...(b.value !== undefined ? { 'content-type': 'application/json' } : {}) },
          payload: b.value === undefined ? undefined : JSON.stringify(b.value),
        });
        outcomes.push(`${res.statusCode} ${key(r)} (A's ${[...q.used, ...b.used].join(', ')})${res.statusCode === 400 || (r.method !== 'GET' && res.statusCode < 300) ? res.payload.slice(0, 600) : ''}`);
        if (res.statusCode >= 500) bad.push(`${res.statusCode} ${key(r)}`);
        else if (res.statusCode < 300) {
          const leak = leakIn(await responseText(res));
          if (leak) bad.push(`${res.statusCode} ${key(r)} shows ${leak}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('shows B none of A in any list, report or export', async () => {
    const bad: string[] = [];
    for (const r of apiRoutes(t.app.routeTable)) {
      if (r.method !== 'GET' || pathParams(r.url).length || PUBLIC_ROUTES[key(r)] || OWN_SESSION.has(key(r))) continue;
      const res = await t.app.inject({ method: 'GET', url: r.url + queryString(sampleOf(r.schema?.querystring, { fullest: false })), headers: { access_token: bAdmin, language: 'en-US' } });
      outcomes.push(`${res.statusCode} ${key(r)} (list)${res.statusCode === 400 ? res.payload : ''}`);
      if (res.statusCode >= 500) bad.push(`${res.statusCode} ${key(r)}`);
      else if (res.statusCode < 300) {
        const leak = leakIn(await responseText(res));
        if (leak) bad.push(`${res.statusCode} ${key(r)} shows ${leak}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("leaves every row of A unchanged after B's calls", async () => {
    expect(before).toBeDefined();
    await settle();
    const after = await orgDigest(t.app.database.db, orgA);
    expect(changedTables(before, after)).toEqual([]);
    if (process.env.ISOLATION_VERBOSE) console.log(outcomes.join('\n'));
  });

  it('answers 2xx without a token only on the public allow-list', async () => {
    const routes = apiRoutes(t.app.routeTable);
    const known = new Set(routes.map(key));
    expect(Object.keys(PUBLIC_ROUTES).filter((k) => !known.has(k)), 'allow-list entries of routes that no longer exist').toEqual([]);
    const open: string[] = [];
    for (const r of routes) {
      if (PUBLIC_ROUTES[key(r)]) continue;
      const body = r.schema?.body ? sampleOf(r.schema.body) : undefined;
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: addressWith(ids, r) + queryString(sampleOf(r.schema?.querystring, { fullest: false })),
        headers: { language: 'en-US', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.statusCode < 300) open.push(`${res.statusCode} ${key(r)}`);
      else if (res.statusCode >= 500) open.push(`${res.statusCode} ${key(r)} (5xx)`);
    }
    expect(open).toEqual([]);
  });

  it('checks bodies that reach the organisation check (the samples pass validation)', () => {
    const withBody = apiRoutes(t.app.routeTable).filter((r) => r.schema?.body && jsonSchemaOf(r.schema.body));
    expect(withBody.length).toBeGreaterThan(50);
  });
});
