// Everything that reads history gives the same answers from packs as from rows (issue 24): the
// demo's fleet stores three days of its own reports through the real intake (JSON devices over
// the MQTT path, JT/T 808 trucks through their gateway's item mapping, the recogniser starting
// and ending the demo's tasks), then every history answer is taken through the API: each
// device's track and summary, its readings (pages in both orders), curves and export, the
// shipment report of each task that ran, the GSP record of each cold asset, the mileage report,
// and the ledger's device-minutes. Then the archive packs every closed day and the rows of those
// days are removed, so the packs alone answer for them, and every answer is taken again.
// On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { LIVE_API } from '@iotc/shared/live';
import { TRACK_API } from '@iotc/shared/track';
import { REPORT_API } from '@iotc/shared/report';
import { OPS_REPORT_API } from '@iotc/shared/ops-report';
import { GSP_REPORT_API } from '@iotc/shared/gsp-report';
import { COMPARE_API, METRICS_BY_KIND } from '@iotc/shared/compare';
import { DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { rowsOf } from '../../db/client.ts';
import { demoDevices, seedDemoFleet } from '../../demo/seed-demo.ts';
import { seedDemoTransport } from '../../demo/seed-demo-transport.ts';
import { seedDemoWarehouse } from '../../demo/seed-demo-warehouse.ts';
import { storeBackfill } from '../../sim/demo.ts';
import { readingsOfMinutes } from '../ledger/sources.ts';
import { archiveTick, removePackedRows } from './job.ts';
import { DAY_MS, dayOf, readPackRows, readRows } from './reader.ts';
import type { PackRow } from './pack.ts';

const HOURS = 72;

describe('history read from packs answers as from rows', () => {
  let t: TestApp;
  let token: string;
  const now = Date.now();
  const today = Math.floor(now / DAY_MS) * DAY_MS;

  beforeAll(async () => {
    // The archive's job runs when the test says.
    t = await testApp({ archiveMs: 0 });
    const db = t.app.database.db;
    expect(await seedDemoFleet(db)).toBe(true);
    const fleet = await demoDevices(db);
    await seedDemoTransport(db, { tasks: t.app.transportTasks, templates: t.app.transportTemplates }, fleet);
    await storeBackfill(fleet, { intake: t.app.intake, items: t.app.jt808Models }, { hours: HOURS, stepMs: 300_000, now });
    await t.app.readings.flushed();
    await seedDemoWarehouse(db);
    // Received a while ago, as a backfill would have been: the job's overlap is not what is tested.
    // The closed days' readings a minute earlier than today's, so that the ledger has minutes
    // whose readings are all in packs once packed (as a backfill across a minute's turn has).
    await db.execute(sql`update telemetry set received_at = received_at - interval '10 minutes'
      - case when time < ${new Date(today).toISOString()}::timestamptz then interval '1 minute' else interval '0 minutes' end`);
    token = await login(t.app, 'demo', DEMO_PASSWORD);
  }, 300_000);
  afterAll(async () => t?.close());

  const get = async (url: string, lang: 'zh-CN' | 'en-US' = 'en-US') => {
    const res = await t.app.inject({ method: 'GET', url, headers: { access_token: token, language: lang, timezone: 'Asia/Shanghai' } });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    const type = String(res.headers['content-type'] ?? '');
    // Generation times differ between the two takes; nothing else may.
    return type.includes('json') ? JSON.stringify(JSON.parse(res.body), (k, v: unknown) => (k === 'generatedAt' ? undefined : v)) : res.body;
  };

  let ledgerKeys: { device_ref: string; minute: string }[] | undefined;

  /** Every history answer, by a name that says what it is. */
  async function answers(): Promise<Map<string, string>> {
    const db = t.app.database.db;
    const out = new Map<string, string>();
    const from = new Date(now - HOURS * 3600_000).toISOString();
    const to = new Date(now).toISOString();
    const devices = rowsOf<{ id: string; device_id: string }>(await db.execute(sql`select d.id, d.device_id from devices d join orgs o on o.id = d.org_id where o.code = 'demo' order by d.device_id`));
    for (const d of devices) {
      const q = `deviceId=${d.id}&from=${from}&to=${to}`;
      out.set(`track ${d.device_id}`, await get(`${TRACK_API.track}?${q}&maxPoints=5000`));
      out.set(`track thinned ${d.device_id}`, await get(`${TRACK_API.track}?${q}&maxPoints=100`));
      out.set(`summary ${d.device_id}`, await get(`${TRACK_API.summary}?${q}`));
      const w = `device=${d.id}&from=${from}&to=${to}`;
      out.set(`readings newest ${d.device_id}`, await get(`${LIVE_API.telemetry}?${w}&page=2&size=100`));
      out.set(`readings oldest ${d.device_id}`, await get(`${LIVE_API.telemetry}?${w}&page=3&size=50&sort=time,asc`));
      out.set(`curves ${d.device_id}`, await get(`${LIVE_API.series}?${w}&maxPoints=200`));
      out.set(`export ${d.device_id}`, await get(`${LIVE_API.telemetryExport}?${w}&format=csv`, 'zh-CN'));
    }
    const tasks = rowsOf<{ id: string; code: string }>(await db.execute(sql`select id, code from transport_tasks where started_at is not null and (arrived_at is not null or completed_at is not null) order by code`));
    for (const task of tasks) out.set(`shipment ${task.code}`, await get(REPORT_API.shipment(task.id)));
    const cold = rowsOf<{ id: string; code: string }>(await db.execute(sql`select id, code from assets where kind in ('cold_room', 'refrigerator', 'warehouse') order by code`));
    const yesterday = new Date(now + 8 * 3600_000 - DAY_MS).toISOString().slice(0, 10);
    for (const a of cold) out.set(`gsp ${a.code}`, await get(`${GSP_REPORT_API.temperature}?assetId=${a.id}&period=day&date=${yesterday}`));
    out.set('mileage', await get(`${OPS_REPORT_API.mileage}?period=week&date=${yesterday}`));
    // Closed days (the online figures of an open period move with the clock).
    out.set('online yesterday', await get(`${OPS_REPORT_API.online}?period=day&date=${yesterday}`));
    out.set('online the day before', await get(`${OPS_REPORT_API.online}?period=day&date=${new Date(now + 8 * 3600_000 - 2 * DAY_MS).toISOString().slice(0, 10)}`));
    // Comparison of the vehicles, the warehouses and the routes, on every metric, yesterday against the day before.
    const dayA = today - 8 * 3600_000 - DAY_MS;
    const period = `aFrom=${new Date(dayA).toISOString()}&aTo=${new Date(dayA + DAY_MS).toISOString()}&bFrom=${new Date(dayA - DAY_MS).toISOString()}&bTo=${new Date(dayA).toISOString()}`;
    for (const kind of ['vehicle', 'warehouse'] as const) {
      const ids = rowsOf<{ id: string }>(await db.execute(sql`select a.id from assets a join orgs o on o.id = a.org_id where o.code = 'demo' and a.kind = ${kind} order by a.code limit 6`)).map((a) => a.id);
      if (ids.length < 2) continue;
      for (const metric of METRICS_BY_KIND[kind]) out.set(`compare ${kind} ${metric}`, await get(`${COMPARE_API.compare}?kind=${kind}&ids=${ids.join(',')}&metric=${metric}&${period}`));
    }
    const routes = (JSON.parse(await get(COMPARE_API.routes)) as { data: { key: string }[] }).data.slice(0, 6).map((r) => r.key);
    if (routes.length >= 2) {
      for (const metric of METRICS_BY_KIND.route) out.set(`compare route ${metric}`, await get(`${COMPARE_API.compare}?kind=route&ids=${routes.map(encodeURIComponent).join(',')}&metric=${metric}&${period}`));
    }
    // The ledger's device-minutes of everything stored, the minutes taken from the rows before they
    // are packed: a device's reports received across a minute's turn have minutes whose rows are
    // then all in packs.
    ledgerKeys ??= rowsOf<{ device_ref: string; minute: string }>(
      await db.execute(sql`select distinct device_ref, to_char(date_bin('1 minute', received_at, timestamptz '2000-01-01') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as minute from telemetry`),
    );
    const minutes = await readingsOfMinutes(db, ledgerKeys.map((k) => ({ deviceRef: k.device_ref, minute: k.minute })));
    out.set('ledger minutes', JSON.stringify([...minutes].sort(([a], [b]) => (a < b ? -1 : 1))));
    return out;
  }

  it('gives the same answers once the closed days are packed and their rows gone', async () => {
    const db = t.app.database.db;
    const before = await answers();
    // Not empty answers: readings of several devices over days, tasks that ran, a warehouse.
    expect([...before.keys()].filter((k) => k.startsWith('shipment')).length).toBeGreaterThan(0);
    expect([...before.keys()].filter((k) => k.startsWith('gsp')).length).toBeGreaterThan(0);
    expect([...before.keys()].filter((k) => k.startsWith('compare')).length).toBeGreaterThan(8);
    expect((JSON.parse(before.get('online yesterday')!) as { data: { rows: { reports: number }[] } }).data.rows.some((r) => r.reports > 0)).toBe(true);
    const rowsBefore = Number(rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from telemetry`))[0]!.n);
    // Every column of every recorded reading, the raw reports and decoded sensors as the database prints them.
    const refs = rowsOf<{ id: string }>(await db.execute(sql`select id from devices order by id`)).map((d) => d.id);
    const everything = { from: now - (HOURS + 24) * 3600_000, to: now + 3600_000 };
    const recorded = new Map<string, PackRow[]>();
    for (const ref of refs) recorded.set(ref, await readRows(db, ref, everything, { raw: true }));

    let r = await archiveTick(db);
    while (!r.caughtUp) r = await archiveTick(db);
    let removed = 0;
    for (const ref of refs) removed += await removePackedRows(db, ref, dayOf(today));
    const closedRows = Number(rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from telemetry where time < ${new Date(today).toISOString()}::timestamptz`))[0]!.n);
    expect(closedRows).toBe(0);
    expect(removed).toBeGreaterThan(rowsBefore / 2);

    // Byte for byte, from the packs.
    for (const ref of refs) expect(await readPackRows(db, ref, everything, { raw: true })).toEqual(recorded.get(ref));
    const after = await answers();
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [k, v] of before) {
      const a = after.get(k) ?? '';
      let i = 0;
      while (i < v.length && v[i] === a[i]) i++;
      expect(a.slice(Math.max(0, i - 150), i + 150), k).toBe(v.slice(Math.max(0, i - 150), i + 150));
    }
  }, 600_000);
});
