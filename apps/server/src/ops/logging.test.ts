// "Access tokens never logged": every log line written at debug level while a user signs in,
// calls the API with the token in the header and in the address, opens the live WebSocket with
// it, mistypes a password, a device reports with its secret and a password-retrieval code goes to
// the outbox, is read back: each line is JSON naming the node and process, request lines carry
// the request id, method, route, status and time, and no line holds the token, a password, the
// device secret or the verification code. Likewise a ledger share's token, which travels in the
// address itself: making a share, reading its records and certificate, opening its verification
// page, a revoked and a never-made token, and a mangled address leave no trace of it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import type { DeviceWithSecret } from '@iotc/shared/device';
import { LEDGER_API, ledgerSharePage, type ShareAnswer } from '@iotc/shared/ledger/api';
import { trackingPage, TRACKING_API, type TrackingLinkAnswer } from '@iotc/shared/transport-tracking';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { orgs, outbox } from '../db/schema.ts';
import { addOrgUser } from '../test/fixtures.ts';
import { ADMIN_PASSWORD, call, createPgDatabase, DEMO_PASSWORD } from '../test/harness.ts';

const NODE = 'ops-node-7';
const PASSWORD = 'Logs#2026pw';
const WRONG_PASSWORD = 'Wrong#2026zz';
const lines: string[] = [];
let app: FastifyInstance;
let drop: (() => Promise<void>) | undefined;
/** A stand-in for the built web app, so the verification page is served as in production. */
const webDist = mkdtempSync(join(tmpdir(), 'logging-web-'));

beforeAll(async () => {
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>IoT Cloud Console</title>');
  const pg = process.env.DATABASE_URL ? await createPgDatabase(process.env.DATABASE_URL) : undefined;
  drop = pg?.drop;
  const config = loadConfig({ LOG_LEVEL: 'debug', NODE_ID: NODE, ADMIN_PASSWORD, DEMO_PASSWORD });
  app = await buildApp({ ...config, dataDir: '', databaseUrl: pg?.url, mqtt: false, webDist }, { logStream: { write: (line: string) => void lines.push(line) } });
});
afterAll(async () => {
  await app.close();
  await drop?.();
  rmSync(webDist, { recursive: true, force: true });
});

describe('log lines', () => {
  it('are JSON naming the node, carry the request fields, and never hold a token, password, device secret or code', async () => {
    const db = app.database.db;
    const demoOrg = (await db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
    await addOrgUser(db, { orgId: demoOrg, account: 'log-admin', password: PASSWORD, roleCodes: ['org_admin'], email: 'log-admin@example.com' });
    const from = lines.length;

    // Sign in; the token in the header, then in the address.
    const signedIn = await call<{ token: string }>(app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'log-admin', password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.data!.token;
    expect((await call(app, { method: 'GET', url: '/api/iot/v2/devices', token })).status).toBe(200);
    const inQuery = await app.inject({ method: 'GET', url: `/api/iot/v2/devices?access_token=${encodeURIComponent(token)}&page=1` });
    expect(inQuery.statusCode).toBeLessThan(500);

    // The live WebSocket with the token in its address.
    const base = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
    const ws = new WebSocket(`${base}/api/iot/v2/live?access_token=${encodeURIComponent(token)}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.close();
    await closed;

    // A mistyped password.
    expect((await call(app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'log-admin', password: WRONG_PASSWORD } })).body.isSuccess).toBe('N');

    // A device reporting with its secret.
    const made = await call<DeviceWithSecret>(app, { method: 'POST', url: '/api/iot/v2/devices', token, body: { deviceId: 'LOG-DEVICE-1', name: 'Log device' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const device = made.body.data!;
    const credentials = Buffer.from(`${device.deviceId}:${device.secret}`).toString('base64');
    const reported = await app.inject({
      method: 'POST',
      url: '/api/iot/v2/device/report',
      headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ deviceId: device.deviceId, time: new Date().toISOString(), lat: 31.2, lon: 121.5, extraData: '{"3":{"temp":41}}' }),
    });
    expect(reported.statusCode).toBe(200);
    await app.readings.flushed();

    // A password-retrieval code, kept in the outbox (no SMTP server configured).
    const sent = await call(app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/sendMail', body: { account: 'log-admin', channel: 'email' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [kept] = await db.select().from(outbox).where(eq(outbox.recipient, 'log-admin@example.com'));
    const code = /\b(\d{4})\b/.exec(kept!.body)![1]!;

    await app.readings.flushed();
    await app.alarmEngine.settled();
    const written = lines.slice(from);
    expect(written.length).toBeGreaterThan(10);

    const parsed = written.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const p of parsed) {
      expect(p).toMatchObject({ level: expect.any(Number), time: expect.any(Number), node: NODE, pid: process.pid, msg: expect.any(String) });
    }
    // Debug lines are there too (so nothing was hidden by the level).
    expect(parsed.some((p) => p.level === 20)).toBe(true);

    // Request lines: id, method, route pattern, status, time.
    const requests = parsed.filter((p) => p.msg === 'request completed');
    for (const r of requests) expect(r).toMatchObject({ reqId: expect.any(String), method: expect.any(String), status: expect.any(Number), responseTime: expect.any(Number) });
    expect(requests).toContainEqual(expect.objectContaining({ method: 'POST', route: '/iot-cloud-auth/auth/v1/login', status: 200 }));
    expect(requests).toContainEqual(expect.objectContaining({ method: 'POST', route: '/api/iot/v2/device/report', status: 200 }));
    expect(requests).toContainEqual(expect.objectContaining({ route: '/api/iot/v2/devices', url: expect.stringContaining('access_token=***') }));

    // The outbox line says where the message was kept, not what it says.
    const outboxLine = parsed.find((p) => p.msg === 'message kept in the outbox');
    expect(outboxLine).toMatchObject({ outbox: { id: kept!.id, table: 'outbox', channel: 'email', to: 'log-admin@example.com' } });

    const text = written.join('\n');
    for (const secret of [token, encodeURIComponent(token), PASSWORD, WRONG_PASSWORD, device.secret, credentials, kept!.body]) {
      expect(text).not.toContain(secret);
    }
    // The code is four digits: look for it as a value of its own, leaving out the numbers every
    // line has (pid, time, response time) so a clock reading that happens to hold it does not count.
    const codeAlone = new RegExp(`(?<![0-9A-Za-z.])${code}(?![0-9A-Za-z])`);
    for (const p of parsed) {
      const { pid: _pid, time: _time, responseTime: _rt, ...rest } = p;
      expect(JSON.stringify(rest)).not.toMatch(codeAlone);
    }
  });

  it('never hold a ledger share token, whichever address carries it', async () => {
    const token = await call<{ token: string }>(app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'log-admin', password: PASSWORD } }).then((r) => r.body.data!.token);
    const made = await call<DeviceWithSecret & { id: string }>(app, { method: 'POST', url: '/api/iot/v2/devices', token, body: { deviceId: 'LOG-DEVICE-2', name: 'Shared device' } });
    const range = { deviceId: made.body.data!.id, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() };
    const from = lines.length;
    const shared = await call<ShareAnswer>(app, { method: 'POST', url: LEDGER_API.shares, token, body: range });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    const share = shared.body.data!;
    const revoked = (await call<ShareAnswer>(app, { method: 'POST', url: LEDGER_API.shares, token, body: range })).body.data!;
    expect((await call(app, { method: 'POST', url: LEDGER_API.revoke(revoked.id), token })).status).toBe(200);
    const unknown = 'U'.repeat(43);

    const answers: [string, number][] = [];
    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: { language: 'zh-CN' } });
      answers.push([url.replace(share.token, '<share>').replace(revoked.token, '<revoked>'), res.statusCode]);
    };
    await get(share.apiUrl);
    await get(`${share.apiUrl}?after=0`);
    await get(LEDGER_API.certificate(share.token));
    await get(ledgerSharePage(share.token));
    await get(`${ledgerSharePage(share.token)}?lang=en`);
    await get(revoked.apiUrl);
    await get(LEDGER_API.certificate(revoked.token));
    await get(ledgerSharePage(revoked.token));
    await get(LEDGER_API.public(unknown));
    // Mangled addresses: another letter case, doubled slashes, a token too long for the route.
    await get(`/API/iot/v2/ledger/PUBLIC/${share.token}`);
    await get(`//verify//${share.token}`);
    await get(LEDGER_API.public(`${share.token}${'x'.repeat(100)}`));
    // An error whose text names the address, as a failing call might log it.
    app.log.warn({ err: new Error(`reading ${share.apiUrl} failed`) }, 'share probe');
    expect(answers).toEqual([
      ['/api/iot/v2/ledger/public/<share>', 200],
      ['/api/iot/v2/ledger/public/<share>?after=0', 200],
      ['/api/iot/v2/ledger/public/<share>/certificate', 200],
      ['/verify/<share>', 200],
      ['/verify/<share>?lang=en', 200],
      ['/api/iot/v2/ledger/public/<revoked>', 410],
      ['/api/iot/v2/ledger/public/<revoked>/certificate', 410],
      ['/verify/<revoked>', 200],
      [LEDGER_API.public(unknown), 404],
      // Whatever these answer, they are logged too.
      ['/API/iot/v2/ledger/PUBLIC/<share>', expect.any(Number)],
      ['//verify//<share>', expect.any(Number)],
      [`/api/iot/v2/ledger/public/<share>${'x'.repeat(100)}`, expect.any(Number)],
    ]);

    const written = lines.slice(from);
    const parsed = written.map((l) => JSON.parse(l) as Record<string, unknown>);
    // Every call was logged, with its address masked.
    const requests = parsed.filter((p) => p.msg === 'request completed');
    expect(requests.filter((r) => r.route === '/api/iot/v2/ledger/public/:token').length).toBeGreaterThanOrEqual(4);
    expect(requests).toHaveLength(answers.length + 3);
    expect(requests).toContainEqual(expect.objectContaining({ url: '/api/iot/v2/ledger/public/***/certificate', status: 200 }));
    expect(requests).toContainEqual(expect.objectContaining({ url: '/verify/***', status: 200 }));
    expect(requests).toContainEqual(expect.objectContaining({ url: '/api/iot/v2/ledger/public/***', status: 410 }));
    expect(parsed.filter((p) => p.msg === 'incoming request').length).toBeGreaterThanOrEqual(answers.length);
    expect(parsed.find((p) => p.msg === 'share probe')).toMatchObject({ err: { message: 'reading /api/iot/v2/ledger/public/*** failed' } });
    const text = written.join('\n');
    for (const secret of [share.token, revoked.token, unknown, encodeURIComponent(share.token)]) expect(text).not.toContain(secret);
    // The token's first characters alone neither (a cut-off address).
    expect(text).not.toContain(share.token.slice(0, 16));
  });

  it("never hold a tracking link's token, in its API call or its page", async () => {
    const token = await call<{ token: string }>(app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'log-admin', password: PASSWORD } }).then((r) => r.body.data!.token);
    const device = await call<DeviceWithSecret & { id: string }>(app, { method: 'POST', url: '/api/iot/v2/devices', token, body: { deviceId: 'LOG-DEVICE-3', name: 'Tracked device' } });
    const task = await call<{ id: string }>(app, {
      method: 'POST',
      url: '/api/iot/v2/transport-tasks',
      token,
      body: { goodsName: 'Logged goods', deviceIds: [device.body.data!.id], origin: { name: 'A', lat: 31, lon: 121, radiusM: 500 }, destination: { name: 'B', lat: 30, lon: 120, radiusM: 500 } },
    });
    expect(task.status, JSON.stringify(task.body)).toBe(200);
    const from = lines.length;
    const made = await call<TrackingLinkAnswer>(app, { method: 'POST', url: TRACKING_API.taskLinks(task.body.data!.id), token, body: {} });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const link = made.body.data!;
    expect((await app.inject({ method: 'GET', url: link.apiUrl })).statusCode).toBe(200);
    await app.inject({ method: 'GET', url: trackingPage(link.token) });
    await app.inject({ method: 'GET', url: `//track//${link.token}` });
    const written = lines.slice(from);
    const requests = written.map((l) => JSON.parse(l) as Record<string, unknown>).filter((p) => p.msg === 'request completed');
    expect(requests).toContainEqual(expect.objectContaining({ url: '/api/iot/v2/transport-tracking/public/***', status: 200 }));
    expect(requests).toContainEqual(expect.objectContaining({ url: '/track/***' }));
    const text = written.join('\n');
    expect(text).not.toContain(link.token);
    expect(text).not.toContain(link.token.slice(0, 16));
  });
});
