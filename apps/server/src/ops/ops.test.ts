// Operations endpoints as an operator and Prometheus see them: /healthz and /readyz answer
// without a token even with the web app's fallback in place, /readyz names a failing check and
// says `draining` after setDraining(); /metrics counts exactly the reports sent over HTTP by what
// became of them, grows the batch histograms, shows the readings held in the store, the open
// WebSocket clients and the latency of an alarm raised from a report, labels requests by route
// pattern (no ids), and asks for the bearer token when METRICS_TOKEN is set.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import WebSocket from 'ws';
import type { DeviceWithSecret, IntakeResult } from '@iotc/shared/device';
import type { LevelRow, PolicyRow } from '@iotc/shared/alarm';
import type { Page } from '@iotc/shared/envelope';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { addOrgUser } from '../test/fixtures.ts';
import { loadConfig } from '../config.ts';
import { orgs } from '../db/schema.ts';
import { parseExposition, valueOf, type Sample } from './test-metrics.ts';

let t: TestApp;
let dist: string;
let admin: string;
let device: DeviceWithSecret;

beforeAll(async () => {
  // With a built web app: non-API GETs fall back to index.html, which the probes must not.
  dist = mkdtempSync(join(tmpdir(), 'iotc-ops-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>shell</title>');
  t = await testApp({ webDist: dist });
  const db = t.app.database.db;
  const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(db, { orgId: demoOrg, account: 'ops-admin', password: DEMO_PASSWORD, roleCodes: ['org_admin'] });
  admin = await login(t.app, 'ops-admin', DEMO_PASSWORD);
  const made = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: admin, body: { deviceId: 'OPS-REEFER-1', name: 'Ops reefer' } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  device = made.body.data!;
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

async function scrape(app = t.app, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(res.body);
}
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const T0 = Date.now() - 10 * 60_000;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
/** Raw block-3 temperature for a value in °C (sign-magnitude). */
const rawTemp = (c: number) => (c < 0 ? 32768 + Math.round(-c * 10) : Math.round(c * 10));
const reportOf = (s: number, temp = 4) => ({ deviceId: device.deviceId, time: at(s), lat: 31.2, lon: 121.5, extraData: JSON.stringify({ 3: { temp: rawTemp(temp) } }) });
async function send(body: unknown, auth = basic(device.deviceId, device.secret)) {
  const res = await t.app.inject({ method: 'POST', url: '/api/iot/v2/device/report', headers: { authorization: auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, data: (res.json() as { data: IntakeResult | null }).data };
}
const until = async (check: () => boolean | Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
};

describe('health and readiness', () => {
  it('answers /healthz and /readyz without a token, as JSON rather than the web app, and keeps them out of the API document', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { database: { ok: true, ms: expect.any(Number) } } });
    // The fallback still serves the app for other addresses.
    expect((await t.app.inject({ method: 'GET', url: '/healthzz' })).body).toContain('<title>shell</title>');
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => ['/healthz', '/readyz', '/metrics'].includes(p))).toEqual([]);
  });

  it('answers 503 naming the failing check while a registered check throws, 200 again once it passes', async () => {
    let broken = true;
    t.app.health.addCheck('mqtt', () => {
      if (broken) throw new Error('broker not connected');
    });
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({
      status: 'unready',
      checks: { database: { ok: true }, mqtt: { ok: false, error: 'broker not connected', ms: expect.any(Number) } },
    });
    broken = false;
    const up = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ status: 'ready', checks: { database: { ok: true }, mqtt: { ok: true } } });
  });
});

describe('metrics', () => {
  it('is valid exposition with the process figures under the iotc_ prefix', async () => {
    const m = await scrape();
    expect(valueOf(m, 'iotc_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(m, 'iotc_nodejs_eventloop_lag_seconds')).toBeDefined();
    expect(m.filter((s) => !s.name.startsWith('iotc_'))).toEqual([]);
  });

  it('counts exactly the reports sent over HTTP by what became of them, and grows the batch histograms', async () => {
    const before = await scrape();
    const http = (m: Sample[], result: string) => valueOf(m, 'iotc_intake_reports_total', { channel: 'http', result })!;
    // 3 stored; 1 repeated device time + 1 new; 1 refused report; 1 call with a wrong secret: 7 reports.
    expect((await send([reportOf(0), reportOf(10), reportOf(20)])).data).toMatchObject({ accepted: 3, duplicates: 0 });
    expect((await send([reportOf(10), reportOf(30)])).data).toMatchObject({ accepted: 1, duplicates: 1 });
    expect((await send([{ deviceId: device.deviceId, time: 'yesterday' }])).data!.rejected).toHaveLength(1);
    expect((await send([reportOf(40)], basic(device.deviceId, 'wrong-secret'))).status).toBe(401);
    await t.app.readings.flushed();
    const after = await scrape();
    expect(http(after, 'stored') - http(before, 'stored')).toBe(4);
    expect(http(after, 'duplicate') - http(before, 'duplicate')).toBe(1);
    expect(http(after, 'rejected') - http(before, 'rejected')).toBe(2);
    expect(valueOf(after, 'iotc_intake_reports_total')! - valueOf(before, 'iotc_intake_reports_total')!).toBe(7);
    expect(valueOf(after, 'iotc_intake_reports_total', { channel: 'mqtt' })).toBe(valueOf(before, 'iotc_intake_reports_total', { channel: 'mqtt' }));
    // Two writes (one per call that had readings to store): 3 readings, then 2.
    expect(valueOf(after, 'iotc_intake_batch_size_count')! - valueOf(before, 'iotc_intake_batch_size_count')!).toBe(2);
    expect(valueOf(after, 'iotc_intake_batch_size_sum')! - valueOf(before, 'iotc_intake_batch_size_sum')!).toBe(5);
    expect(valueOf(after, 'iotc_intake_batch_write_seconds_count')! - valueOf(before, 'iotc_intake_batch_write_seconds_count')!).toBe(2);
    expect(valueOf(after, 'iotc_intake_batch_write_seconds_sum')!).toBeGreaterThan(valueOf(before, 'iotc_intake_batch_write_seconds_sum')!);
  });

  it('shows readings held in the store while the database is busy, and an empty queue once they are written', async () => {
    const db = t.app.database.db;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // Another transaction holds the readings table: the store's write waits for it.
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`lock table telemetry in exclusive mode`);
      locked();
      await released;
    });
    await isLocked;
    const reading = (s: number) => ({ orgId: device.orgId, deviceRef: device.id, time: new Date(at(100 + s)), raw: {}, sensors: {}, acc: null });
    const stored = t.app.readings.submit([reading(0), reading(1), reading(2)]);
    try {
      expect(await until(() => t.app.readings.depth.batches === 1, 15_000)).toBe(true);
      const busy = await scrape();
      expect(valueOf(busy, 'iotc_intake_queue_depth')).toBe(3);
      expect(valueOf(busy, 'iotc_intake_batches_writing')).toBe(1);
    } finally {
      release();
      await holder;
    }
    expect(await stored).toBe(3);
    const idle = await scrape();
    expect(valueOf(idle, 'iotc_intake_queue_depth')).toBe(0);
    expect(valueOf(idle, 'iotc_intake_batches_writing')).toBe(0);
  });

  it('observes the latency of an alarm opened by a report', async () => {
    const levels = (await call<Page<LevelRow>>(t.app, { method: 'GET', url: '/api/iot/v2/alarm-levels', token: admin })).body.data!.rows;
    const policy = await call<PolicyRow>(t.app, {
      method: 'POST',
      url: '/api/iot/v2/alarm-policies',
      token: admin,
      body: { name: 'Ops too warm', scope: 'devices', targets: [device.id], rules: [{ id: 'hot', type: 'temp_high', threshold: 8, levelId: levels.find((l) => l.code === 'urgent')!.id }] },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const before = await scrape();
    expect((await send([reportOf(200, 12)])).data).toMatchObject({ accepted: 1 });
    await t.app.readings.flushed();
    await t.app.alarmEngine.settled();
    const alarms = (await call<Page<{ deviceRef?: string; status: string }>>(t.app, { method: 'GET', url: `/api/iot/v2/alarms?deviceId=${device.id}`, token: admin })).body.data!;
    expect(alarms.total).toBe(1);
    const after = await scrape();
    expect(valueOf(after, 'iotc_alarm_latency_seconds_count')! - valueOf(before, 'iotc_alarm_latency_seconds_count')!).toBe(1);
    const latency = valueOf(after, 'iotc_alarm_latency_seconds_sum')! - valueOf(before, 'iotc_alarm_latency_seconds_sum')!;
    expect(latency).toBeGreaterThan(0);
    // A repeat of the open alarm opens nothing: no new observation.
    expect((await send([reportOf(210, 13)])).data).toMatchObject({ accepted: 1 });
    await t.app.readings.flushed();
    await t.app.alarmEngine.settled();
    expect(valueOf(await scrape(), 'iotc_alarm_latency_seconds_count')).toBe(valueOf(after, 'iotc_alarm_latency_seconds_count'));
  });

  it('counts one WebSocket client while a browser is connected and none after it leaves', async () => {
    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
    expect(valueOf(await scrape(), 'iotc_ws_clients')).toBe(0);
    const ws = new WebSocket(`${base}/api/iot/v2/live?access_token=${encodeURIComponent(admin)}`);
    const hello = new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    await hello;
    expect(valueOf(await scrape(), 'iotc_ws_clients')).toBe(1);
    ws.close();
    expect(await until(async () => valueOf(await scrape(), 'iotc_ws_clients') === 0, 15_000)).toBe(true);
  });

  it('times requests by route pattern and status class, never by the address with its ids', async () => {
    const missing = '00000000-0000-4000-8000-00000000abcd';
    expect((await call(t.app, { method: 'GET', url: `/api/iot/v2/alarms/${missing}`, token: admin })).status).toBe(404);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.body).not.toContain(missing);
    const m = parseExposition(res.body);
    expect(valueOf(m, 'iotc_http_request_duration_seconds_count', { method: 'GET', route: '/api/iot/v2/alarms/:id', status_class: '4xx' })).toBe(1);
    expect(valueOf(m, 'iotc_http_request_duration_seconds_count', { method: 'POST', route: '/api/iot/v2/device/report', status_class: '2xx' })).toBe(5);
    expect(valueOf(m, 'iotc_http_request_duration_seconds_count', { method: 'POST', route: '/api/iot/v2/device/report', status_class: '4xx' })).toBe(1);
  });
});

describe('draining', () => {
  it('answers /readyz 503 draining after setDraining(), while /healthz stays 200', async () => {
    expect(t.app.health.draining).toBe(false);
    t.app.health.setDraining();
    expect(t.app.health.draining).toBe(true);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'draining' });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('METRICS_TOKEN', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await testApp({ metricsToken: 'scrape-me-2026' });
  });
  afterAll(async () => {
    await guarded.close();
  });

  it('is read from the environment, blank meaning unset', () => {
    expect(loadConfig({ METRICS_TOKEN: 'scrape-me-2026' }).metricsToken).toBe('scrape-me-2026');
    expect(loadConfig({ METRICS_TOKEN: '  ' }).metricsToken).toBeUndefined();
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });

  it('asks for the bearer token on /metrics only', async () => {
    const none = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { language: 'zh-CN' } });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.json()).toMatchObject({ errorcode: 'METRICS_TOKEN_REQUIRED', errormsg: '需要有效的监控指标令牌' });
    expect(none.body).not.toContain('iotc_');
    const wrong = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me-2027' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ errormsg: 'A valid metrics token is required' });
    const right = await scrape(guarded.app, { authorization: 'Bearer scrape-me-2026' });
    expect(valueOf(right, 'iotc_intake_reports_total')).toBe(0);
    // Probes stay open.
    expect((await guarded.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await guarded.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    // With the token, from anywhere.
    expect((await guarded.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '198.51.100.4', headers: { authorization: 'Bearer scrape-me-2026' } })).statusCode).toBe(200);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('answers this machine only: a loopback connection that came through no proxy', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress })).statusCode, remoteAddress).toBe(200);
    }
    const away = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '198.51.100.4', headers: { language: 'en-US' } });
    expect(away.statusCode).toBe(403);
    expect(away.json()).toMatchObject({ errorcode: 'METRICS_LOCAL_ONLY', errormsg: 'Metrics are served to this machine only: set METRICS_TOKEN to scrape them from elsewhere' });
    expect(away.body).not.toContain('iotc_');
    // Through a proxy on this machine: the connection is loopback, the client is not.
    for (const h of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const proxied = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: { [h]: h === 'forwarded' ? 'for=198.51.100.4' : '198.51.100.4', language: 'zh-CN' } });
      expect(proxied.statusCode, h).toBe(403);
      expect(proxied.json().errormsg).toBe('监控指标仅对本机开放：如需从其他机器采集，请设置 METRICS_TOKEN');
    }
    // Probes stay open to all.
    expect((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '198.51.100.4' })).statusCode).toBe(200);
  });
});
