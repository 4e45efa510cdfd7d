// CSV exports are data, never formulas (issue 19): every route that answers CSV is found in the
// app's route table (a `format` query that takes `csv`), not in a hand-picked list. Formula-like
// text is planted where each export's rows come from (a refused sign-in's account and client in
// the audit log; device, asset, task, record, alarm policy, work order and command texts; a
// reading of -18.5 °C), then each export is called as CSV: no cell may start with a character a
// spreadsheet reads as a formula (OWASP: = + - @ tab CR, and their full-width forms), while a
// number stays a number. Each export must show at least one planted value, so a new export whose
// rows the planting does not reach fails here until it does; one that cannot be called fails too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AssetRow } from '@iotc/shared/asset';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { ADMIN_PASSWORD, call, DEMO_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { addOrgUser } from '../test/fixtures.ts';
import { devices, faults, orgs } from '../db/schema.ts';
import type { RouteEntry } from '../app.ts';
import { apiRoutes, jsonSchemaOf, queryString, sampleOf } from './route-kit.ts';

/** Text a spreadsheet would read as a formula, one for each character that starts one. */
const FORMULAS = {
  equals: '=HYPERLINK("http://x","y")',
  plus: "+cmd|' /C calc'!A0",
  minus: '-2+3',
  at: '@SUM(1+1)',
  tab: '\t=1+2',
  cr: '\r=1+3',
  wideEquals: '＝1+1',
  widePlus: '＋SUM(1)',
  wideMinus: '－2+3',
  wideAt: '＠SUM(1+1)',
} as const;
const F = FORMULAS;
/** A reading below zero: a number, which must reach the CSV as the plain number it is. */
const NEGATIVE = -18.5;

/** The first character of a cell a spreadsheet takes for a formula (independent of the code under test). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** A cell neutralised by the leading single quote. */
const NEUTRALISED = /^'[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Values the schema cannot tell: which record, which grouping shows the planted names. */
const QUERY_HINTS: Record<string, () => Record<string, unknown>> = {
  '/api/iot/v2/telemetry/export': () => ({ device: device.id }),
  '/api/iot/v2/compare/export': () => ({ kind: 'route', metric: 'mileage', ids: routeKeys, aFrom: daysAgo(1), aTo: daysAgo(0), bFrom: daysAgo(2), bTo: daysAgo(1) }),
  '/api/iot/v2/reports/production/export': () => ({ groupBy: 'customer' }),
};

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

/** The rows of a CSV text (RFC 4180: a quoted field may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const s = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (s[i + 1] === '"') field += s[++i];
      else quoted = false;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}

let t: TestApp;
let admin: string;
let orgAdmin: string;
let device: DeviceWithSecret;
const routeKeys: string[] = [];
const setupFailures: string[] = [];

const api = <T>(method: 'GET' | 'POST', url: string, token: string, body?: unknown) => call<T>(t.app, { method, url, token, body });

/** A call of the set-up that must work; a failure is kept to explain the checks below. */
async function must<T>(method: 'GET' | 'POST', url: string, body?: unknown, token = orgAdmin): Promise<T> {
  const r = await api<T>(method, url, token, body);
  if (r.status !== 200) {
    setupFailures.push(`${r.status} ${method} ${url}: ${r.body.errorcode} ${r.body.errormsg}`);
    throw new Error(setupFailures.at(-1));
  }
  return r.body.data!;
}

const key = (r: RouteEntry) => `${r.method} ${r.url}`;
/** Whether a route answers CSV: its query's `format` takes `csv`. */
const takesCsv = (r: RouteEntry) => ((jsonSchemaOf(r.schema?.querystring)?.properties?.format?.enum ?? []) as unknown[]).includes('csv');
const csvRoutes = () => apiRoutes(t.app.routeTable).filter((r) => r.method === 'GET' && takesCsv(r));

async function exportCsv(r: RouteEntry) {
  const query = { ...(sampleOf(r.schema?.querystring, { fullest: false }) as Record<string, unknown>), ...QUERY_HINTS[r.url]?.(), format: 'csv' };
  return t.app.inject({ method: 'GET', url: r.url + queryString(query), headers: { access_token: admin, language: 'en-US', timezone: 'Asia/Shanghai' } });
}

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const demo = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
  await addOrgUser(db, { orgId: demo, account: 'csv-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  orgAdmin = await login(t.app, 'csv-admin', DEMO_PASSWORD);

  // The audit log: a refused sign-in records the account and the client as typed.
  await t.app.inject({
    method: 'POST',
    url: '/iot-cloud-auth/auth/v1/login',
    headers: { 'content-type': 'application/json', 'user-agent': F.plus },
    payload: JSON.stringify({ account: F.equals, password: 'wrong' }),
  });

  // Devices and every kind of asset, with formula-like names, codes and attributes.
  device = await must<DeviceWithSecret>('POST', '/api/iot/v2/devices', { deviceId: 'CSV-PROBE-1', name: F.at, model: F.plus, firmware: F.wideMinus });
  // The API trims text, so a leading tab or carriage return comes only from elsewhere (an old
  // row, another way in): written straight into the row.
  await db.update(devices).set({ firmware: F.tab, sim: F.cr }).where(eq(devices.id, device.id));
  const asset = (resource: string, body: Record<string, unknown>) => must<AssetRow>('POST', `/api/iot/v2/${resource}`, body);
  const warehouse = await asset('warehouses', { code: F.minus, name: F.wideEquals, attrs: { province: F.at, city: F.tab, address: F.cr } });
  const room = await asset('cold-rooms', { code: F.plus, name: F.wideAt, parentId: warehouse.id, tempMin: -25, tempMax: -15 });
  await asset('refrigerators', { code: F.wideEquals, name: F.at, parentId: room.id, attrs: { model: F.minus } });
  const vehicle = await asset('vehicles', { code: F.at, name: F.minus, attrs: { vehicleType: F.widePlus, driver: F.equals, driverPhone: F.plus } });
  await asset('containers', { code: F.wideMinus, name: F.equals, attrs: { containerType: F.tab, size: F.minus, owner: F.at } });
  await asset('gateways', { code: F.widePlus, name: F.plus, attrs: { model: F.at, serial: F.minus, ip: F.equals } });
  await must('POST', `/api/iot/v2/devices/${device.id}/bind`, { assetId: room.id });

  // An alarm policy the reading below breaks, so the alarm shows the device and the policy.
  const levels = await must<Page<{ id: string }>>('GET', '/api/iot/v2/alarm-levels');
  await must('POST', '/api/iot/v2/alarm-policies', { name: F.equals, scope: 'devices', targets: [device.id], rules: [{ id: 'cold', type: 'temp_low', threshold: -10, levelId: levels.rows[0]!.id }] });
  const report = await t.app.inject({
    method: 'POST',
    url: '/api/iot/v2/device/report',
    headers: { authorization: `Basic ${Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64')}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ deviceId: device.deviceId, time: new Date(Date.now() - 60_000).toISOString(), lat: 31.2, lon: 121.5, speed: 0, extraData: JSON.stringify({ 3: { temp: 32768 + -NEGATIVE * 10, humidity: 650 } }) }),
  });
  if (report.statusCode !== 200) setupFailures.push(`${report.statusCode} device report: ${report.payload}`);
  await t.app.readings.flushed();
  await t.app.alarmEngine.settled();

  // Two transport tasks on two routes (the comparison takes two), a warehouse record in the
  // cold room (its hand-over temperature is the reading), a work order, a command, a fault.
  const place = (name: string, lat: number) => ({ name, address: F.at, lat, lon: 121.47 });
  for (const [origin, destination, customer] of [
    [F.minus, F.at, F.equals],
    [F.wideEquals, F.plus, F.tab],
  ] as const) {
    await must('POST', '/api/iot/v2/transport-tasks', {
      goodsName: F.equals,
      goodsUnit: F.at,
      customer,
      deviceIds: [device.id],
      assetId: vehicle.id,
      origin: place(origin, 31.23),
      destination: place(destination, 30.27),
      driverName: F.plus,
      driverPhone: F.minus,
      remark: F.cr,
    });
    routeKeys.push(`${origin} → ${destination}`);
  }
  await must('POST', '/api/iot/v2/warehouse-records', { locationId: room.id, direction: 'in', goodsName: F.equals, batchNo: F.minus, quantity: 10, unit: F.at, handler: F.plus, remark: F.tab, time: new Date().toISOString() });
  await must('POST', '/api/iot/v2/work-orders', { title: F.minus, description: F.equals });
  await must('POST', '/api/iot/v2/commands', { deviceRef: device.id, kind: 'report_interval', params: { seconds: 60 }, remark: F.at });
  // Faults are recorded by the detector from readings; one as it records it.
  await db.insert(faults).values({ orgId: demo, deviceRef: device.id, kind: 'bad_reports', firstAt: new Date(), lastAt: new Date(), detail: { reason: F.equals } });
}, 120_000);
afterAll(async () => t?.close());

describe('CSV exports hold data, never formulas', () => {
  it('finds the CSV exports in the route table, and no other export answers CSV', async () => {
    expect(setupFailures).toEqual([]);
    expect(csvRoutes().length).toBeGreaterThan(10);
    // A route named .../export without a CSV format writes something else (a JSON file).
    const others = apiRoutes(t.app.routeTable).filter((r) => r.method === 'GET' && /\/export$/.test(r.url) && !takesCsv(r));
    for (const r of others) expect(String((await exportCsv(r)).headers['content-type']), key(r)).not.toMatch(/csv/);
  });

  it('writes no cell of any CSV export that starts a formula; planted texts are quoted, numbers stay numbers', async () => {
    const bad: string[] = [];
    const planted = new Set<string>();
    let negativeNumbers = 0;
    for (const r of csvRoutes()) {
      const res = await exportCsv(r);
      if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/csv')) {
        bad.push(`${key(r)} cannot be called: ${res.statusCode} ${res.headers['content-type']} ${res.payload.slice(0, 300)}`);
        continue;
      }
      const cells = parseCsv(res.payload).flat();
      for (const c of cells.filter((c) => FORMULA_START.test(c) && !PLAIN_NUMBER.test(c))) bad.push(`${key(r)} writes the formula ${JSON.stringify(c)}`);
      for (const c of cells.filter((c) => c.startsWith("'") && PLAIN_NUMBER.test(c.slice(1)))) bad.push(`${key(r)} quotes the number ${JSON.stringify(c)}`);
      const shown = cells.filter((c) => NEUTRALISED.test(c) || c === String(NEGATIVE));
      if (!shown.length) bad.push(`${key(r)} shows none of the planted values: plant one where its rows come from`);
      for (const c of shown) planted.add(c.startsWith("'") ? c.slice(1, 2) : c);
      negativeNumbers += cells.filter((c) => c === String(NEGATIVE)).length;
    }
    expect(bad).toEqual([]);
    // Every formula character was planted and came out neutralised somewhere.
    expect([...planted].sort()).toEqual([...new Set(Object.values(FORMULAS).map((f) => f[0]!)), String(NEGATIVE)].sort());
    // The reading and the warehouse record's hand-over temperature.
    expect(negativeNumbers).toBeGreaterThanOrEqual(2);
  });

  it('keeps the planted text whole after the quote', async () => {
    const audit = csvRoutes().find((r) => r.url === '/api/iot/v2/audit-logs/export')!;
    const cells = parseCsv((await exportCsv(audit)).payload).flat();
    expect(cells).toContain(`'${F.equals}`);
    expect(cells).toContain(`'${F.plus}`);
  });
});
